// The size of a kernel as the compiler sees it once it has unrolled the loops it unrolls:
// what a compile's time grows with (tune/compile_estimate.h).
//
// Takes: a kernel AST (build.h).
// Returns: the number of statements and expression nodes, a loop counted trip-count times
// where it is marked for unrolling (`#pragma unroll`) or holds no other loop (its bounds
// read from integer literals and the kernel's compile-time sizes; a bound it cannot read
// counts the body once). nvcc fully unrolls such innermost loops on its own, as SCPWI's
// gathers, scatters and per-point basis sums: hyperelasticity 3D P5's SCPWI kernel compiled
// in 1.7 s as emitted, 0.4 s with `#pragma unroll 1` on its top-level DOF loops and 0.13 s
// on all of them (cubin 97 KB, 42 KB, 14 KB; NVRTC 13.0, sm_90, one thread,
// records/tuning/nvrtc_compile_estimates_2026-11-27.txt). A loop holding another
// loop (the quadrature loop around those sums) unmarked counts once: nvcc keeps it rolled.
// Does not: emit, compile or model nvcc's unrolling any closer (a size threshold, a
// partial unroll).
#pragma once

#include "kernel/kernel_ast.h"

namespace femgpu::kernel {

double unrolled_size(const Kernel &k);

}  // namespace femgpu::kernel
