// Cache files: read whole, write to a unique temporary sibling and rename.
#include "tune/cache_file.h"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace femgpu {

std::optional<std::string> read_text_file(const std::string &path)
{
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return text.str();
}

std::string write_file_atomically(const std::string &path, const std::string &text)
{
  namespace fs = std::filesystem;
  static std::atomic<unsigned> calls{0};
  std::error_code ec;
  const fs::path target(path);
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  if (ec) return "cannot create " + target.parent_path().string() + ": " + ec.message();
  // Unique per process and call: two ranks (or threads) never share a temporary file.
  const fs::path tmp = target.string() + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(calls++);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) {
      fs::remove(tmp, ec);
      return "cannot write " + tmp.string();
    }
  }
  fs::rename(tmp, target, ec);
  if (ec) {
    const std::string why = ec.message();
    fs::remove(tmp, ec);
    return "cannot rename into " + path + ": " + why;
  }
  return "";
}

std::string default_cache_file(const std::string &name)
{
  const char *xdg = std::getenv("XDG_CACHE_HOME");
  const char *home = std::getenv("HOME");
  std::string dir;
  if (xdg && *xdg == '/') dir = xdg;  // the XDG spec: relative paths are invalid and ignored
  else if (home && *home) dir = std::string(home) + "/.cache";
  else throw std::runtime_error("no cache folder: neither XDG_CACHE_HOME nor HOME is set (pass a cache path)");
  return dir + "/femgpu/" + name;
}

}  // namespace femgpu
