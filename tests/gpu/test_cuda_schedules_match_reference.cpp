// On a GPU: every CUDA candidate of the covering sample (tests/unit/support), compiled
// by NVRTC for the device's architecture and launched through the driver API, adds the
// same action to a pre-filled output as the CPU reference; prints each kernel's
// registers and spilled bytes.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>

#include "kernel/build.h"
#include "kernel/emit.h"
#include "runtime/cuda_runtime.h"
#include "runtime/nvrtc_compile.h"
#include "support/action_cases.h"

using namespace femgpu;
using namespace femgpu::test;

namespace {

double run_and_compare(CudaRuntime &cuda, const ActionData &d, const Schedule &s)
{
  std::vector<double> want = d.prefill, got = d.prefill;
  reference_action(d.ir, d.tab, d.arrays(), want.data());
  const kernel::Kernel k = kernel::build_kernel(d.ir, d.tab, s);
  const CompiledCubin cubin = nvrtc_compile(kernel::emit_cuda(k), k.name, "sm_90");
  const KernelResources r = cuda.resources(cubin.cubin, k.name);
  std::printf("%-60s registers %3d local %5d B shared %6d B\n", to_string(s).c_str(), r.registers, r.local_bytes, r.shared_bytes);
  cuda.apply(k, cubin.cubin, d.ir, d.tab, d.arrays(), got.data(), got.size());
  double err = 0.0, scale = 0.0;
  for (size_t i = 0; i < want.size(); ++i) {
    err = std::max(err, std::fabs(got[i] - want[i]));
    scale = std::max(scale, std::fabs(want[i] - d.prefill[i]) + std::fabs(d.prefill[i]));
  }
  return err / scale;
}

}  // namespace

TEST_CASE("CUDA kernels of the covering sample match the reference action", "[gpu][cuda]")
{
  CudaRuntime cuda;
  const std::vector<FormCase> forms = form_cases();
  for (int dim : {2, 3}) {
    std::mt19937 rng(static_cast<unsigned>(7 + dim));
    for (const Candidate &c : kernel_sample(dim)) {
      // Enough cells for many groups and real contention in the atomic scatter.
      ActionData d = make_action(forms[c.form], c.dim, c.degree, 1000, rng);
      for (Precision p : {Precision::FP64, Precision::FP32}) {
        const Schedule s = candidate_schedule(c, d).with_precision(p);
        INFO(forms[c.form].name << " dim " << c.dim << " P" << c.degree << ": " << to_string(s));
        CHECK(run_and_compare(cuda, d, s) < (p == Precision::FP64 ? 1e-12 : 1e-5));
      }
    }
  }
}
