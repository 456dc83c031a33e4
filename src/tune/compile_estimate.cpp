// compile_estimate_seconds (compile_estimate.h): a fit of NVRTC's compile times (one
// thread, sm_90) to the kernel's unrolled size.
#include "tune/compile_estimate.h"

#include "kernel/kernel_size.h"

namespace femgpu {

double compile_estimate_seconds(const kernel::Kernel &k)
{
  // A fixed cost (NVRTC's start, the device helpers' headers), then time growing about
  // as the square of the unrolled size: ptxas over long straight-line code. Fitted to the
  // measured times (nvrtc_compile_estimates.txt): 30 k nodes 1.2-2.4 s, 86-105 k 20-34 s,
  // 120-170 k 24-46 s. Known misses, both ways: the shared-DOF tiled kernels of mass and
  // Laplace 3D P6 with N_c near 200 (260-350 k nodes, 1-2.6 s: the compiler seems to
  // leave their large loops rolled) are estimated far too long and so skipped, and
  // SCPWI of hyperelasticity 3D P5 (2.5 k nodes, 5-7.5 s: loops the compiler unrolls on
  // its own) far too short.
  constexpr double kFixedSeconds = 0.3, kSecondsPer10kSquared = 0.25;
  const double size = kernel::unrolled_size(k) / 1e4;
  return kFixedSeconds + kSecondsPer10kSquared * size * size;
}

}  // namespace femgpu
