// The CUDA source of MatConvert's COO entry sum (kernel/entry_sum.h) compiles with NVRTC
// to sm_80 and sm_90 cubins, with 64-bit or 32-bit perm (MatConvert's pattern), and reads
// them as such (no GPU needed); with a GPU, the
// device sums of random cell values equal, bit for bit, the host loop's in perm's order
// (coo_pattern_sum's). End to end (aijcusparse, PETSc) the sums are checked on a GPU by
// test_convert_vs_aij with -mat_fem_gpu_backend cuda -convert_type aijcusparse
// (tests/gpu/run_convert_checks.sh).
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <vector>

#include "kernel/entry_sum.h"
#include "runtime/cuda_driver.h"
#include "runtime/entry_sum.h"
#include "runtime/nvrtc_compile.h"

using namespace femgpu;

TEST_CASE("NVRTC compiles the COO entry sum", "[nvrtc][kernel][convert][entry_sum]")
{
  for (int perm_bytes : {8, 4})
    for (const char *arch : {"sm_80", "sm_90"}) {
      INFO(arch << ", perm of " << perm_bytes << " bytes");
      CompiledCubin cubin;
      REQUIRE_NOTHROW(cubin = nvrtc_compile(kernel::entry_sum_cuda_source(perm_bytes), kernel::kEntrySumKernel, arch));
      CHECK(cubin.cubin.size() > 0);
    }
  const std::string ptx = nvrtc_ptx(kernel::entry_sum_cuda_source(8), kernel::kEntrySumKernel);
  CHECK(ptx.find(kernel::kEntrySumKernel) != std::string::npos);
  CHECK(ptx.find("ld.global.nc.u64") != std::string::npos);  // perm (and jmap) as 64-bit, read-only
  CHECK(ptx.find("ld.global.nc.u32") == std::string::npos);
  const std::string ptx32 = nvrtc_ptx(kernel::entry_sum_cuda_source(4), kernel::kEntrySumKernel);
  CHECK(ptx32.find("ld.global.nc.u64") != std::string::npos);  // jmap
  CHECK(ptx32.find("ld.global.nc.u32") != std::string::npos);  // perm, 32-bit
}

TEST_CASE("The CUDA COO entry sum equals the host sum bit for bit (GPU only)", "[cuda][convert][entry_sum]")
{
  if (!cuda::device_available()) {
    WARN("no CUDA device: the device sum is not run");
    return;
  }
  cuda::open_device(0);
  std::mt19937 rng(25);
  const std::size_t n_unique = 100003, n_values = 5 * n_unique;  // more than one group, a partial last one
  std::vector<std::int64_t> jmap(1, 0), perm;
  std::uniform_int_distribution<std::int64_t> repeats(1, 6), entry(0, static_cast<std::int64_t>(n_values) - 1);
  for (std::size_t u = 0; u < n_unique; ++u) {
    const std::int64_t r = repeats(rng);
    for (std::int64_t k = 0; k < r; ++k) perm.push_back(entry(rng));
    jmap.push_back(static_cast<std::int64_t>(perm.size()));
  }
  std::vector<double> values(n_values), expected(n_unique), got(n_unique);
  std::uniform_real_distribution<double> value(-1, 1);
  for (double &v : values) v = value(rng);
  for (std::size_t u = 0; u < n_unique; ++u) {
    double s = 0;
    for (std::int64_t k = jmap[u]; k < jmap[u + 1]; ++k) s += values[static_cast<std::size_t>(perm[k])];
    expected[u] = s;
  }
  cuda::Buffer in(sizeof(double) * n_values), out(sizeof(double) * n_unique);
  const std::vector<std::int32_t> perm32(perm.begin(), perm.end());
  for (int perm_bytes : {8, 4}) {
    in.upload(values.data(), sizeof(double) * n_values);
    const std::unique_ptr<DeviceEntrySum> sum =
        perm_bytes == 8 ? make_cuda_entry_sum(jmap.data(), n_unique, perm.data(), 0) : make_cuda_entry_sum(jmap.data(), n_unique, perm32.data(), 0);
    std::vector<double> now = values, want = expected;
    for (int round = 0; round < 2; ++round) {  // the second: the kept jmap/perm, new values
      if (round == 1) {
        for (double &v : now) v = -2 * v;
        for (double &e : want) e = -2 * e;  // exact: scaling by -2 commutes with rounding
        in.upload(now.data(), sizeof(double) * n_values);
      }
      cuda::copy_device(out.device_pointer(), sum->sum(in.device_pointer()), sizeof(double) * n_unique);
      out.download(got.data(), sizeof(double) * n_unique);
      std::size_t differ = 0;
      for (std::size_t u = 0; u < n_unique; ++u) differ += got[u] != want[u];
      INFO("perm of " << perm_bytes << " bytes, round " << round);
      CHECK(differ == 0);
    }
  }
}
