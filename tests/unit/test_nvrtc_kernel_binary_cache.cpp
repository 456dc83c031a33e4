// Compiled kernels kept between runs (runtime/kernel_binary_store.h,
// cache/kernel_binary_cache.h): compile_cubin_kept looks a kernel up before compiling and
// keeps what it compiled; the tuner's candidates never reach the store; the folder cache
// gives back what it kept, misses another source or another femgpu, replaces a damaged
// entry and refuses (without overwriting) a file that femgpu did not write. NVRTC only,
// no GPU.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "cache/kernel_binary_cache.h"
#include "runtime/cuda_action.h"
#include "runtime/kernel_binary_store.h"
#include "runtime/nvrtc_compile.h"
#include "support/action_cases.h"

using namespace femgpu;
namespace fs = std::filesystem;

namespace {

const std::string kSource = "extern \"C\" __global__ void femgpu_keep_test(double *x) { x[threadIdx.x] = 2.0 * x[threadIdx.x]; }\n";

// An in-memory store that counts what it is asked.
struct CountingStore : KernelBinaryStore {
  std::map<std::string, std::vector<char>> entries;
  mutable int finds = 0;
  int keeps = 0;
  std::optional<std::vector<char>> find(const std::string &key) const override
  {
    ++finds;
    auto it = entries.find(key);
    return it == entries.end() ? std::nullopt : std::optional<std::vector<char>>(it->second);
  }
  void keep(const std::string &key, const std::vector<char> &cubin) override
  {
    ++keeps;
    entries[key] = cubin;
  }
  std::string describe() const override { return "counting store"; }
};

// Installs a store for one test case and removes it after.
struct Installed {
  explicit Installed(std::shared_ptr<KernelBinaryStore> s) { set_kernel_binary_store(std::move(s)); }
  ~Installed() { set_kernel_binary_store(nullptr); }
};

struct TempFolder {
  fs::path path = fs::temp_directory_path() / ("femgpu-kernel-cache-" + std::to_string(std::random_device{}()));
  ~TempFolder() { fs::remove_all(path); }
  std::vector<fs::path> files() const
  {
    std::vector<fs::path> out;
    for (const auto &e : fs::directory_iterator(path)) out.push_back(e.path());
    return out;
  }
};

std::string read(const fs::path &p)
{
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("compile_cubin_kept compiles once and then returns the store's binary", "[nvrtc][kernel_cache]")
{
  const std::vector<char> compiled = nvrtc_compile(kSource, "femgpu_keep_test", "sm_90").cubin;
  REQUIRE(!compiled.empty());
  CHECK(compile_cubin_kept(kSource, "femgpu_keep_test", "sm_90") == compiled);  // no store: NVRTC's cubin

  auto store = std::make_shared<CountingStore>();
  Installed installed(store);
  CHECK(compile_cubin_kept(kSource, "femgpu_keep_test", "sm_90") == compiled);
  REQUIRE(store->finds == 1);
  REQUIRE(store->keeps == 1);
  const std::string key = store->entries.begin()->first;
  CHECK(key.find(kSource) != std::string::npos);    // the whole source,
  CHECK(key.find("-arch=sm_90") != std::string::npos);  // the options
  CHECK(key.find("nvrtc " + nvrtc_version()) == 0);  // and the compiler
  // A second compile of the same source is the store's binary, not NVRTC's.
  store->entries.begin()->second = {'k', 'e', 'p', 't'};
  CHECK(compile_cubin_kept(kSource, "femgpu_keep_test", "sm_90") == std::vector<char>{'k', 'e', 'p', 't'});
  CHECK(store->keeps == 1);
  // Another architecture is another entry.
  CHECK(compile_cubin_kept(kSource, "femgpu_keep_test", "sm_80") != std::vector<char>{'k', 'e', 'p', 't'});
  CHECK(store->entries.size() == 2);
}

TEST_CASE("the tuner's candidates are not kept, a running kernel is", "[nvrtc][kernel_cache]")
{
  std::mt19937 rng(7);
  const test::ActionData d = test::make_action(test::form_named("mass"), 2, 2, 4, rng);
  auto store = std::make_shared<CountingStore>();
  Installed installed(store);
  const Schedule scpwi = Schedule::single_cell_per_work_item();
  CudaKernel candidate(d.ir, d.tab, scpwi, "sm_90", 48 * 1024, 1024);
  CHECK(store->finds == 0);
  CHECK(store->keeps == 0);
  CudaKernel running(d.ir, d.tab, scpwi, "sm_90", 48 * 1024, 1024, nullptr, true);
  CHECK(store->finds == 1);
  CHECK(store->keeps == 1);
  CHECK(running.cubin() == candidate.cubin());
  CudaKernel again(d.ir, d.tab, scpwi, "sm_90", 48 * 1024, 1024, nullptr, true);
  CHECK(store->keeps == 1);  // found
  CHECK(again.cubin() == candidate.cubin());
  keep_compiled_cubin(candidate.source(), candidate.arch(), candidate.cubin());  // the tuner's winner: same key
  CHECK(store->entries.size() == 1);
}

TEST_CASE("the folder cache keeps, finds, misses and refuses files it did not write", "[nvrtc][kernel_cache][cache]")
{
  TempFolder folder;
  std::shared_ptr<KernelBinaryStore> cache = make_kernel_binary_cache(folder.path.string());
  const std::vector<char> cubin{'\0', 'a', '\n', 'b', '\0'};  // binary, with NULs and newlines
  CHECK_FALSE(cache->find("key one").has_value());  // no folder yet
  cache->keep("key one", cubin);
  REQUIRE(folder.files().size() == 1);
  CHECK(cache->find("key one") == cubin);
  CHECK_FALSE(cache->find("key two").has_value());
  // Another process's store on the same folder reads it too.
  CHECK(make_kernel_binary_cache(folder.path.string())->find("key one") == cubin);

  const fs::path entry = folder.files().front();
  SECTION("a damaged entry is a miss and is replaced")
  {
    const std::string whole = read(entry);
    std::ofstream(entry, std::ios::binary | std::ios::trunc) << whole.substr(0, whole.size() - 2);
    CHECK_FALSE(cache->find("key one").has_value());
    cache->keep("key one", cubin);
    CHECK(cache->find("key one") == cubin);
  }
  SECTION("an entry of another femgpu version is a miss")
  {
    std::string whole = read(entry);
    whole.replace(whole.find("femgpu ", 10), 7, "femgpu x");
    std::ofstream(entry, std::ios::binary | std::ios::trunc) << whole;
    CHECK_FALSE(cache->find("key one").has_value());
  }
  SECTION("a file femgpu did not write is an error naming it, and is left as it is")
  {
    std::ofstream(entry, std::ios::binary | std::ios::trunc) << "someone else's notes";
    try {
      (void)cache->find("key one");
      FAIL("no error for a foreign file");
    } catch (const std::runtime_error &e) {
      CHECK_THAT(e.what(), Catch::Contains(entry.string()) && Catch::Contains("not written by femgpu"));
    }
    cache->keep("key one", cubin);
    CHECK(read(entry) == "someone else's notes");
  }
}
