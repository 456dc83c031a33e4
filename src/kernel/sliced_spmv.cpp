// The sliced ELLPACK SpMV kernel (sliced_spmv.h).
#include "kernel/sliced_spmv.h"

#include "schedule/schedule.h"
#include "fem/sliced_pattern.h"

namespace femgpu::kernel {

std::string sliced_spmv_cuda_source()
{
  // Rows are slice-major: row / kSliceRows is the slice, row % kSliceRows the lane. x is
  // read through the read-only cache (__ldg): its entries are gathered by every row that
  // shares a cell with them. The slice loop is unrolled by 4 so that four loads per thread
  // are in flight before the first multiply-add needs its value.
  const std::string R = std::to_string(SlicedPattern::kSliceRows);
  return "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(kAssembledThreadsPerGroup) + ")\n" + kSlicedSpmvName +
         "(int n_rows, const long long *__restrict__ slice_start, const int *__restrict__ columns,\n"
         "  const double *__restrict__ values, const double *__restrict__ x, double *__restrict__ y)\n"
         "{\n"
         "  const int row = blockIdx.x * blockDim.x + threadIdx.x;\n"
         "  if (row >= n_rows) return;\n"
         "  const int slice = row / " + R + ", lane = row % " + R + ";\n"
         "  const long long end = slice_start[slice + 1];\n"
         "  double sum = 0;\n"
         "#pragma unroll 4\n"
         "  for (long long k = slice_start[slice] + lane; k < end; k += " + R + ") sum += values[k] * __ldg(x + columns[k]);\n"
         "  y[row] += sum;\n"
         "}\n";
}

}  // namespace femgpu::kernel
