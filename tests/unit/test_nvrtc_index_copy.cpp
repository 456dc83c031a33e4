// The CUDA source of the one-rank index copy between a DM's global and local Vecs
// (kernel/index_copy.h) compiles with NVRTC to sm_80 and sm_90 cubins (no GPU needed);
// with a GPU, both directions on random data equal the host loops bit for bit: global ->
// local writes only the mapped entries (the others keep their poison), local -> global
// adds to what the global array held. End to end (PETSc's Vecs) the same copies are
// compared with DMGlobalToLocal and DMLocalToGlobal by test_dm_scatter (host) and by an
// unchanged ex13 on a GPU.
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

TEST_CASE("NVRTC compiles the one-rank index copy", "[nvrtc][kernel][index_copy]")
{
  for (const char *arch : {"sm_80", "sm_90"}) {
    INFO(arch);
    CompiledCubin cubin;
    REQUIRE_NOTHROW(cubin = nvrtc_compile(kernel::index_copy_cuda_source(), kernel::kIndexCopyKernel, arch));
    CHECK(cubin.cubin.size() > 0);
  }
  const std::string ptx = nvrtc_ptx(kernel::index_copy_cuda_source(), kernel::kIndexCopyKernel);
  CHECK(ptx.find(kernel::kIndexCopyKernel) != std::string::npos);
  CHECK(ptx.find("atom") == std::string::npos);  // one writer per value: no atomics
}

TEST_CASE("The CUDA index copy equals the host loops bit for bit (GPU only)", "[cuda][index_copy]")
{
  if (!cuda::device_available()) {
    WARN("no CUDA device: the device copy is not run");
    return;
  }
  cuda::open_device(0);
  std::mt19937 rng(7);
  const std::size_t n_global = 70001, n_local = 90007;  // more than one group, a partial last one
  std::vector<int> local_of_global(n_local);
  std::iota(local_of_global.begin(), local_of_global.end(), 0);
  std::shuffle(local_of_global.begin(), local_of_global.end(), rng);
  local_of_global.resize(n_global);  // injective; the other local entries are "constrained"
  std::uniform_real_distribution<double> value(-1, 1);
  std::vector<double> global(n_global), local(n_local), got_local(n_local), got_global(n_global);
  for (double &v : global) v = value(rng);
  for (double &v : local) v = value(rng);
  std::vector<double> want_local = local, want_global = global;
  for (std::size_t i = 0; i < n_global; ++i) want_local[static_cast<std::size_t>(local_of_global[i])] = global[i];
  for (std::size_t i = 0; i < n_global; ++i) want_global[i] += want_local[static_cast<std::size_t>(local_of_global[i])];
  cuda::Buffer g(sizeof(double) * n_global), l(sizeof(double) * n_local);
  g.upload(global.data(), sizeof(double) * n_global);
  l.upload(local.data(), sizeof(double) * n_local);
  const std::unique_ptr<DeviceIndexCopy> copy = make_cuda_index_copy(local_of_global.data(), n_global, 0);
  copy->to_local(g.device_pointer(), l.device_pointer());
  l.download(got_local.data(), sizeof(double) * n_local);
  CHECK(got_local == want_local);
  copy->add_to_global(l.device_pointer(), g.device_pointer());
  g.download(got_global.data(), sizeof(double) * n_global);
  CHECK(got_global == want_global);
}
