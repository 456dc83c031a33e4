// The CUDA source of the one-rank index copies (kernel/index_copy.h) compiles with NVRTC to
// sm_80 and sm_90 cubins holding both kernels (no GPU needed); with a GPU, insert, add and
// insert_host on random poisoned arrays equal the host loops bit for bit, a second call
// reuses the uploaded index, and an empty index does nothing. End to end (PETSc's CUDA
// Vecs) the copies are checked by test_dm_scatter with -dm_vec_type cuda
// (tests/gpu/run_convert_checks.sh).
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "kernel/index_copy.h"
#include "runtime/cuda_driver.h"
#include "runtime/index_copy.h"
#include "runtime/nvrtc_compile.h"

using namespace femgpu;

TEST_CASE("NVRTC compiles the index copies", "[nvrtc][kernel][index_copy]")
{
  for (const char *arch : {"sm_80", "sm_90"}) {
    INFO(arch);
    CompiledCubin cubin;
    REQUIRE_NOTHROW(cubin = nvrtc_compile(kernel::index_copy_cuda_source(), kernel::kIndexInsertKernel, arch));
    CHECK(cubin.cubin.size() > 0);
  }
  const std::string ptx = nvrtc_ptx(kernel::index_copy_cuda_source(), kernel::kIndexInsertKernel);
  CHECK(ptx.find(std::string(".entry ") + kernel::kIndexInsertKernel) != std::string::npos);
  CHECK(ptx.find(std::string(".entry ") + kernel::kIndexAddKernel) != std::string::npos);
  CHECK(ptx.find("atom.") == std::string::npos);  // one thread per output entry: no atomics
}

TEST_CASE("The CUDA index copies equal the host loops bit for bit (GPU only)", "[cuda][index_copy]")
{
  if (!cuda::device_available()) {
    WARN("no CUDA device: the index copies are not run");
    return;
  }
  cuda::open_device(0);
  std::mt19937 rng(55);
  // A global vector of n entries, a local one of n + extra (the constrained entries no
  // index names), index a random one-to-one map from global to local.
  const std::size_t n = 100003, extra = 4099, n_local = n + extra;
  std::vector<int> local(n_local);
  std::iota(local.begin(), local.end(), 0);
  std::shuffle(local.begin(), local.end(), rng);
  const std::vector<int> index(local.begin(), local.begin() + static_cast<long>(n));
  std::uniform_real_distribution<double> value(-1, 1);
  auto random = [&](std::size_t m) {
    std::vector<double> v(m);
    for (double &x : v) x = value(rng);
    return v;
  };
  const std::unique_ptr<DeviceIndexCopy> copy = make_cuda_index_copy(index.data(), n, 0);
  REQUIRE(copy->size() == n);
  cuda::Buffer g(sizeof(double) * n), l(sizeof(double) * n_local);
  for (int round = 0; round < 2; ++round) {  // the second: the kept index, new values
    INFO("round " << round);
    const std::vector<double> x_global = random(n), x_local = random(n_local);  // x_local: the poison
    // global -> local: the named entries replaced, the others kept.
    std::vector<double> want = x_local, got(n_local);
    for (std::size_t i = 0; i < n; ++i) want[static_cast<std::size_t>(index[i])] = x_global[i];
    g.upload(x_global.data(), sizeof(double) * n);
    l.upload(x_local.data(), sizeof(double) * n_local);
    copy->insert(g.device_pointer(), l.device_pointer());
    l.download(got.data(), sizeof(double) * n_local);
    CHECK(got == want);
    // local -> global, added.
    std::vector<double> sum = x_global, got_sum(n);
    for (std::size_t i = 0; i < n; ++i) sum[i] += x_local[static_cast<std::size_t>(index[i])];
    l.upload(x_local.data(), sizeof(double) * n_local);
    copy->add(l.device_pointer(), g.device_pointer());
    g.download(got_sum.data(), sizeof(double) * n);
    CHECK(got_sum == sum);
    // host values at the named entries.
    const std::vector<double> values = random(n);
    want = x_local;
    for (std::size_t i = 0; i < n; ++i) want[static_cast<std::size_t>(index[i])] = values[i];
    l.upload(x_local.data(), sizeof(double) * n_local);
    copy->insert_host(values.data(), l.device_pointer());
    l.download(got.data(), sizeof(double) * n_local);
    CHECK(got == want);
  }
  const std::unique_ptr<DeviceIndexCopy> none = make_cuda_index_copy(nullptr, 0, 0);
  std::vector<double> kept = random(n_local), after(n_local);
  l.upload(kept.data(), sizeof(double) * n_local);
  none->insert(g.device_pointer(), l.device_pointer());
  none->insert_host(nullptr, l.device_pointer());
  l.download(after.data(), sizeof(double) * n_local);
  CHECK(after == kept);
}
