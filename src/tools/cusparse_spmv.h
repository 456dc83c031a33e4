// The SpMV baseline's kernel time: cuSPARSE's generic SpMV (y = A x, FP64,
// CUSPARSE_SPMV_ALG_DEFAULT) on a CSR matrix that is already on the device, timed the way
// femgpu's own kernels are (runtime/cuda_timing.cpp's time_kernel): warm-ups, then
// batches of 16 SpMVs queued back to back behind one untimed lead, a CUDA event between
// each two, median of the runs. So it is the kernels' time on the GPU, without the host's launch
// cost that PETSc's MatMult adds (about 17 us per SpMV at 185k DOFs, bench_spmv.h).
//
// Takes: the device CSR arrays (row offsets and column indices of 4 or 8 bytes, values
// FP64), e.g. those of a seqaijcusparse Mat; device 0's primary context must be current
// (cuda::open_device), the context the CUDA runtime and so cuSPARSE use.
// Returns: milliseconds of one SpMV (median) on a random x.
// Does not: copy the matrix, or run without cuSPARSE (built only where femgpu-bench links
// it: CMakeLists.txt, FEMGPU_HAVE_CUSPARSE).
#pragma once

namespace femgpu {

struct DeviceCsr {
  long long rows = 0, columns = 0, nonzeros = 0;
  void *row_offsets = nullptr, *column_indices = nullptr;  // device pointers
  int index_bytes = 4;                                       // of both index arrays: 4 or 8
  double *values = nullptr;                                  // device pointer
};

double time_cusparse_spmv(const DeviceCsr &a);

}  // namespace femgpu
