// The CUDA source of MatConvert's COO entry sum (kernel/entry_sum.h) compiles with NVRTC
// to sm_90 and sm_80 cubins, and its PTX reads 64-bit jmap/perm. No GPU needed; the sums
// themselves are checked on a GPU by test_convert_vs_aij with -mat_fem_gpu_backend cuda
// -convert_type aijcusparse (tests/gpu/run_petsc_checks.sh).
#include <catch2/catch.hpp>

#include "kernel/entry_sum.h"
#include "runtime/nvrtc_compile.h"

using namespace femgpu;

TEST_CASE("NVRTC compiles the COO entry sum", "[nvrtc][kernel][convert]")
{
  for (const char *arch : {"sm_80", "sm_90"}) {
    INFO(arch);
    CompiledCubin cubin;
    REQUIRE_NOTHROW(cubin = nvrtc_compile(kernel::entry_sum_cuda_source(), kernel::kEntrySumKernel, arch));
    CHECK(cubin.cubin.size() > 0);
  }
  const std::string ptx = nvrtc_ptx(kernel::entry_sum_cuda_source(), kernel::kEntrySumKernel);
  CHECK(ptx.find(kernel::kEntrySumKernel) != std::string::npos);
  CHECK(ptx.find("ld.global.nc.u64") != std::string::npos);  // perm (and jmap) as 64-bit, read-only
}
