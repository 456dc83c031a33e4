// The two thin emitters: one printer over the kernel AST, two dialect tables.
//
// Takes: a Kernel (build.h). Returns: complete source text, `real` typedef'd to the
// kernel's precision, sizes as #defines, the kernel named Kernel::name.
// Does not: compile (src/runtime does). OpenCL needs cl_khr_fp64 and
// cl_khr_int64_base_atomics for FP64 (its atomic add is a compare-and-swap loop,
// src/kernel/device/femgpu_atomic.cl). The device helpers a kernel uses are printed into
// its source from src/kernel/device/, embedded in the library at build time, so
// emitting reads no file.
#pragma once

#include <string>

#include "kernel/kernel_ast.h"

namespace femgpu::kernel {

std::string emit_cuda(const Kernel &k);
std::string emit_opencl(const Kernel &k);

}  // namespace femgpu::kernel
