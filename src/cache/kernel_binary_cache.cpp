// Compiled kernels in a folder, one file each (kernel_binary_cache.h).
#include "cache/kernel_binary_cache.h"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <stdexcept>

#include "cache/cache_file.h"

namespace femgpu {

namespace {

const char kMagic[] = "femgpu-kernel-binary 1\n";

// FNV-1a over the key from two offsets: 128 bits, so that a name collision is not a
// practical concern (and a collision would only be a miss: the key is compared).
std::string key_name(const std::string &key)
{
  std::uint64_t a = 1469598103934665603ull, b = 0x9ae16a3b2f90404full;
  for (unsigned char c : key) {
    a = (a ^ c) * 1099511628211ull;
    b = (b ^ c) * 1099511628211ull;
  }
  char name[40];
  std::snprintf(name, sizeof name, "%016llx%016llx", static_cast<unsigned long long>(a), static_cast<unsigned long long>(b));
  return name;
}

// The file's text: the header (format, femgpu version, sizes), the key, the cubin.
std::string entry_text(const std::string &key, const std::vector<char> &cubin)
{
  std::ostringstream head;
  head << kMagic << "femgpu " << femgpu_version() << "\nkey " << key.size() << "\ncubin " << cubin.size() << "\n";
  return head.str() + key + std::string(cubin.begin(), cubin.end());
}

// The cubin of an entry whose header and key match; nullopt for a miss (older femgpu,
// damaged, another key).
std::optional<std::vector<char>> entry_cubin(const std::string &text, const std::string &key)
{
  std::istringstream in(text.substr(sizeof kMagic - 1));
  std::string word, version;
  std::size_t key_size = 0, cubin_size = 0;
  if (!(in >> word >> version) || word != "femgpu" || version != femgpu_version()) return std::nullopt;
  if (!(in >> word >> key_size) || word != "key" || !(in >> word >> cubin_size) || word != "cubin") return std::nullopt;
  in.get();  // the newline after the sizes
  const std::size_t start = static_cast<std::size_t>(in.tellg()) + sizeof kMagic - 1;
  if (in.fail() || text.size() != start + key_size + cubin_size || key_size != key.size()) return std::nullopt;
  if (text.compare(start, key_size, key) != 0) return std::nullopt;
  return std::vector<char>(text.begin() + static_cast<long>(start + key_size), text.end());
}

bool has_magic(const std::string &text) { return text.compare(0, sizeof kMagic - 1, kMagic) == 0; }

class FolderKernelStore : public KernelBinaryStore {
 public:
  explicit FolderKernelStore(std::string folder) : folder_(std::move(folder)) {}

  std::optional<std::vector<char>> find(const std::string &key) const override
  {
    const std::string path = path_of(key);
    const CacheFileText file = read_cache_file(path);
    if (!file.exists) return std::nullopt;
    if (!file.text) throw std::runtime_error("kernel cache entry " + path + " cannot be read: " + file.why);
    if (!has_magic(*file.text))
      throw std::runtime_error("kernel cache entry " + path + " was not written by femgpu (no '" + std::string(kMagic, sizeof kMagic - 2) +
                               "' header); remove it, or choose another folder with -mat_fem_gpu_kernel_cache");
    return entry_cubin(*file.text, key);
  }

  void keep(const std::string &key, const std::vector<char> &cubin) override
  {
    const std::string path = path_of(key);
    const CacheFileText file = read_cache_file(path);
    if (file.exists && (!file.text || !has_magic(*file.text))) return;  // not ours: left as it is (find says why)
    std::error_code ec;
    std::filesystem::create_directories(folder_, ec);
    if (!ec) replace_file_by_rename(path, entry_text(key, cubin));  // a failure: the next run compiles again
  }

  std::string describe() const override { return folder_; }

 private:
  std::string path_of(const std::string &key) const { return folder_ + "/" + key_name(key) + ".cubin"; }
  std::string folder_;
};

}  // namespace

std::shared_ptr<KernelBinaryStore> make_kernel_binary_cache(const std::string &folder)
{
  if (folder.empty()) throw std::invalid_argument("kernel cache: an empty folder name");
  return std::make_shared<FolderKernelStore>(folder);
}

std::string default_kernel_cache_folder() { return default_cache_file("kernels"); }

}  // namespace femgpu
