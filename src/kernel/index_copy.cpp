// The index copies' CUDA source (index_copy.h).
#include "kernel/index_copy.h"

namespace femgpu::kernel {

std::string index_copy_cuda_source()
{
  const std::string bounds = std::string("extern \"C\" __global__ void __launch_bounds__(") + std::to_string(kIndexCopyBlock) + ") ";
  const std::string args = "(long long n, const int *__restrict__ index, const double *__restrict__ in, double *__restrict__ out)\n";
  const std::string thread =
      "{\n"
      "  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i >= n) return;\n";
  return bounds + kIndexInsertKernel + args + thread + "  out[index[i]] = in[i];\n}\n" +  //
         bounds + kIndexAddKernel + args + thread + "  out[i] += in[index[i]];\n}\n";
}

}  // namespace femgpu::kernel
