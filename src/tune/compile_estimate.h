// How long NVRTC will take to compile a candidate, estimated before compiling it, for the
// budgeted compile queue (compile_queue.h).
//
// Takes: the candidate's kernel AST (kernel/build.h; building and sizing it takes
// milliseconds where its compile takes up to a minute).
// Returns: seconds on one thread of the CPU it was fitted on (CI's, slower than the
// device machines'), from the kernel's size once the loops nvcc unrolls are unrolled (those
// marked `#pragma unroll` and the innermost ones: kernel_size.h): the unrolled tiled kernels at P6 are 50-100x the size of the
// tensor-core and SCPWI ones and compile 50-100x as long, while their CUDA source is
// about the same length. A rough, conservative fit (its misses: compile_estimate.cpp). Fitted to the compiles recorded in
// records/tuning/nvrtc_compile_estimates.txt.
// Does not: compile, or know the device's CPU (the queue scales estimates by the
// compiles measured during tuning).
#pragma once

#include "kernel/kernel_ast.h"

namespace femgpu {

double compile_estimate_seconds(const kernel::Kernel &k);

}  // namespace femgpu
