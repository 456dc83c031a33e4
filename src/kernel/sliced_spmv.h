// The assembled operator's kernel (Strategy::Assembled, schedule.h): y += A x with A in
// sliced ELLPACK (fem/sliced_pattern.h), one thread per row, a warp per slice, so each
// step of the row loop reads 32 consecutive values and columns of the slice.
//
// Why it exists: at P1 a cell holds 3-12 DOFs and the matrix-free kernels are bound by
// their gathers and the L2's atomic adds (about 1.2e11 FP64 atomics/s on the H200), so an
// assembled matrix (15 nonzeros a row for scalar P1 in 3D) applied at DRAM bandwidth can
// be faster: the tuner times it beside the matrix-free kernels (tune_plan.h's move
// `assembled`).
//
// Takes: nothing (the source is fixed; the pattern and values are kernel arguments:
// n_rows, slice_start (int64, n_slices + 1), columns (int32), values, x, y, FP64).
// Returns: CUDA source for NVRTC, the kernel's name and its threads per group.
// Does not: build the pattern or sum the cell matrices.
#pragma once

#include <string>

namespace femgpu::kernel {

constexpr const char *kSlicedSpmvName = "femgpu_sliced_spmv";
std::string sliced_spmv_cuda_source();

}  // namespace femgpu::kernel
