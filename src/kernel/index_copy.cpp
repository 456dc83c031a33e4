// The one-rank index copy's CUDA source (index_copy.h).
#include "kernel/index_copy.h"

namespace femgpu::kernel {

std::string index_copy_cuda_source()
{
  return std::string("extern \"C\" __global__ void __launch_bounds__(") + std::to_string(kIndexCopyBlock) + ") " + kIndexCopyKernel +
         "(long long n, const int *__restrict__ local_of_global, const double *__restrict__ src, double *__restrict__ dst, int to_local)\n"
         "{\n"
         "  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
         "  if (i >= n) return;\n"
         "  if (to_local) dst[local_of_global[i]] = src[i];\n"
         "  else dst[i] += src[local_of_global[i]];\n"
         "}\n";
}

}  // namespace femgpu::kernel
