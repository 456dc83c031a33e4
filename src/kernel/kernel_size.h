// The size of a kernel as the compiler sees it once its `#pragma unroll` loops are
// unrolled: what a compile's time grows with (tune/compile_estimate.h).
//
// Takes: a kernel AST (build.h).
// Returns: the number of statements and expression nodes, each loop marked for unrolling
// counted trip-count times (its bounds read from integer literals and the kernel's
// compile-time sizes; a bound it cannot read counts the body once).
// Does not: emit, compile or guess what the compiler unrolls on its own.
#pragma once

#include "kernel/kernel_ast.h"

namespace femgpu::kernel {

double unrolled_size(const Kernel &k);

}  // namespace femgpu::kernel
