// Cache files: read whole; replace under a lock file, only what is already a cache,
// through a unique temporary sibling and a rename.
#include "cache/cache_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#ifndef FEMGPU_VERSION
#error "FEMGPU_VERSION must be defined (CMake sets it from PROJECT_VERSION)"
#endif

namespace femgpu {

namespace {

namespace fs = std::filesystem;

std::string error_text() { return std::strerror(errno); }

// Closes the descriptor on every path out.
struct Descriptor {
  int fd;
  explicit Descriptor(int d) : fd(d) {}
  Descriptor(const Descriptor &) = delete;
  Descriptor &operator=(const Descriptor &) = delete;
  ~Descriptor()
  {
    if (fd >= 0) ::close(fd);
  }
};

bool read_all(int fd, std::string *out)
{
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n == 0) return true;
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    out->append(buf, static_cast<size_t>(n));
  }
}

bool write_all(int fd, const std::string &text)
{
  for (size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

bool is_blank(const std::string &text) { return text.find_first_not_of(" \t\r\n") == std::string::npos; }

// Why the file at `path` must not be replaced, or "" (then *current is its text, "" for
// none). Called under the lock.
std::string refusal(const std::string &path, const CacheRecogniser &is_cache, std::string *current)
{
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0)
    return errno == ENOENT ? "" : "cannot inspect " + path + ": " + error_text();
  if (S_ISLNK(st.st_mode)) return path + " is a symbolic link; femgpu does not write through links";
  if (!S_ISREG(st.st_mode)) return path + " is not a regular file";
  // Write permission bits, not only access(): root may write anything, but a cache made
  // read-only on purpose stays as it is.
  if (!(st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) || ::access(path.c_str(), W_OK) != 0) return path + " is read-only";
  const CacheFileText old = read_cache_file(path);
  if (!old.text) return old.why;
  if (!is_blank(*old.text) && !is_cache(*old.text)) return path + " is not a femgpu cache of this kind; left as it is";
  *current = *old.text;
  return "";
}

// Under the lock no live writer has a temporary file: any left is a killed writer's.
void remove_stale_temporaries(const fs::path &target)
{
  std::error_code ec;
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  const std::string prefix = target.filename().string() + ".tmp.";
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.compare(0, prefix.size(), prefix) == 0 && fs::is_regular_file(fs::symlink_status(it->path(), ec)))
      fs::remove(it->path(), ec);
  }
}

// Writes `text` to a temporary sibling and renames it over `path`.
std::string replace_by_rename(const std::string &path, const std::string &text)
{
  static std::atomic<unsigned> calls{0};
  const std::string tmp = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(calls++);
  {
    Descriptor out(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
    if (out.fd < 0) return "cannot create " + tmp + ": " + error_text();
    // fsync before the rename: after a crash the file is the old one or the new one.
    if (!write_all(out.fd, text) || ::fsync(out.fd) != 0) {
      const std::string why = error_text();
      ::unlink(tmp.c_str());
      return "cannot write " + tmp + ": " + why;
    }
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = error_text();
    ::unlink(tmp.c_str());
    return "cannot rename into " + path + ": " + why;
  }
  return "";
}

}  // namespace

std::string replace_file_by_rename(const std::string &path, const std::string &text) { return replace_by_rename(path, text); }

std::optional<std::string> read_text_file(const std::string &path)
{
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return text.str();
}

CacheFileText read_cache_file(const std::string &path)
{
  CacheFileText r;
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return r;
    r.exists = true;
    r.why = "cannot read " + path + ": " + error_text();
    return r;
  }
  r.exists = true;
  if (!S_ISREG(st.st_mode)) {
    r.why = path + " is not a regular file";
    return r;
  }
  Descriptor in(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));  // O_NONBLOCK: a FIFO swapped in cannot hang us
  std::string text;
  if (in.fd < 0 || ::fstat(in.fd, &st) != 0 || !S_ISREG(st.st_mode) || !read_all(in.fd, &text)) {
    r.why = "cannot read " + path + (in.fd < 0 ? ": " + error_text() : "");
    return r;
  }
  r.text = std::move(text);
  return r;
}

bool has_format_header(const std::string &text, const std::string &format_prefix)
{
  size_t at = 0;
  auto skip_space = [&] { at = std::min(text.size(), text.find_first_not_of(" \t\r\n", at)); };
  auto take = [&](const std::string &word) {
    skip_space();
    if (text.compare(at, word.size(), word) != 0) return false;
    at += word.size();
    return true;
  };
  return take("{") && take("\"format\"") && take(":") && take("\"" + format_prefix);
}

std::string update_cache_file(const std::string &path, const CacheRecogniser &is_cache, const CacheUpdate &update)
{
  std::error_code ec;
  const fs::path target(path);
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  if (ec) return "cannot create " + target.parent_path().string() + ": " + ec.message();
  const std::string lock_path = path + ".lock";
  Descriptor lock(::open(lock_path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644));
  if (lock.fd < 0) return "cannot open the lock file " + lock_path + ": " + error_text();
  struct stat st;
  if (::fstat(lock.fd, &st) != 0 || !S_ISREG(st.st_mode)) return "the lock file " + lock_path + " is not a regular file";
  while (::flock(lock.fd, LOCK_EX) != 0)
    if (errno != EINTR) return "cannot lock " + lock_path + ": " + error_text();
  std::string current;
  const std::string refused = refusal(path, is_cache, &current);
  if (!refused.empty()) return refused;
  remove_stale_temporaries(target);
  return replace_by_rename(path, update(current));  // the lock goes with the descriptor
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

const char *femgpu_version() { return FEMGPU_VERSION; }

}  // namespace femgpu
