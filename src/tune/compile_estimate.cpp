// compile_estimate_seconds (compile_estimate.h): a fit of NVRTC's compile times (one
// thread, sm_90) to the kernel's unrolled size.
#include "tune/compile_estimate.h"

#include "kernel/kernel_size.h"

namespace femgpu {

double compile_estimate_seconds(const kernel::Kernel &k)
{
  // A fixed cost (NVRTC's start, the device helpers' headers), then time growing about
  // as the square of the unrolled size: ptxas over long straight-line code. On one idle
  // thread of the CI machine every unrolled tiled kernel measured at P5-P7 took 1/4.1 to
  // 1/5.3 of this (mass 3D P6 9.2 s, estimated 37 s); the H200 compiled that kernel in
  // about 30 s within a batch of 16 parallel compiles, so the estimate is meant for a full
  // batch on the device, a little long (nvrtc_compile_estimates.txt). Known misses: the
  // size does not tell Laplace 3D P4's tiled kernel (147 k nodes, 3.1 s on one thread)
  // from Laplace 3D P6's (146 k, 12.4 s), so such P4 kernels are estimated about 4x too
  // long and skipped under a 10 s budget; shared-DOF tiled kernels with N_c near 200 at P6
  // (260-350 k nodes, 1-2.6 s: the compiler seems to leave their loops rolled) far too
  // long. SCPWI kernels, whose innermost loops nvcc unrolls unmarked, were estimated far too
  // short (hyperelasticity 3D P5: 0.32 s for 1.3 s idle) until the size counted those loops
  // (kernel_size.h): now 3.6 s (nvrtc_compile_estimates_2026-11-27.txt). On the H200
  // (7b8a845) tuning with the earlier size stayed within 10.5 s of a 10 s budget in 56 of
  // 61 cases (records/h200_70_cases_7b8a845/).
  constexpr double kFixedSeconds = 0.3, kSecondsPer10kSquared = 0.25;
  const double size = kernel::unrolled_size(k) / 1e4;
  return kFixedSeconds + kSecondsPer10kSquared * size * size;
}

}  // namespace femgpu
