// Finding share/femgpu at run time (see share_dir.h for the order of the places tried).
#include "fem/share_dir.h"

#include <dlfcn.h>
#include <link.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace femgpu {
namespace {

namespace fs = std::filesystem;

bool is_share_dir(const fs::path &dir)
{
  std::error_code ec;
  return fs::is_directory(dir / "quadrature", ec);
}

// The shared library or executable this function was loaded from: the dynamic loader's
// record of the object holding its code (empty name: the main program).
fs::path file_of_this_code()
{
  Dl_info info;
  link_map *map = nullptr;
  void *self = reinterpret_cast<void *>(&file_of_this_code);
  std::error_code ec;
  if (dladdr1(self, &info, reinterpret_cast<void **>(&map), RTLD_DL_LINKMAP) && map && map->l_name && map->l_name[0])
    return fs::weakly_canonical(map->l_name, ec);
  return fs::read_symlink("/proc/self/exe", ec);
}

// Whether `file` lies under `dir` (both canonical).
bool lies_under(const fs::path &file, const fs::path &dir)
{
  auto f = file.begin();
  for (auto d = dir.begin(); d != dir.end(); ++d, ++f)
    if (f == file.end() || *f != *d) return false;
  return true;
}

std::string locate_share_dir()
{
  if (const char *env = std::getenv("FEMGPU_SHARE_DIR"); env && *env) {
    if (!is_share_dir(env))
      throw std::runtime_error(std::string("FEMGPU_SHARE_DIR=") + env + " is not femgpu's data folder (it has no quadrature/ folder)");
    return env;
  }
  const fs::path self = file_of_this_code();
  const fs::path installed = self.parent_path() / ".." / "share" / "femgpu";
  if (!self.empty() && is_share_dir(installed)) return fs::weakly_canonical(installed).string();
#if defined(FEMGPU_BUILD_DIR) && defined(FEMGPU_SHARE_DIR_BUILD)
  std::error_code ec;
  if (!self.empty() && lies_under(self, fs::weakly_canonical(FEMGPU_BUILD_DIR, ec)) && is_share_dir(FEMGPU_SHARE_DIR_BUILD))
    return FEMGPU_SHARE_DIR_BUILD;
#endif
  throw std::runtime_error("femgpu cannot find its data folder share/femgpu (forms, quadrature tables, device probe kernels): "
                           "it is not at " + installed.string() + " next to " + (self.empty() ? std::string("<unknown file>") : self.string()) +
                           "; set FEMGPU_SHARE_DIR to it");
}

}  // namespace

std::string default_share_dir()
{
  static const std::string dir = locate_share_dir();  // a throw leaves it to be tried again
  return dir;
}

}  // namespace femgpu
