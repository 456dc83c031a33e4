// The COO entry sum's CUDA source (entry_sum.h).
#include "kernel/entry_sum.h"

namespace femgpu::kernel {

std::string entry_sum_cuda_source(int perm_bytes)
{
  const std::string perm_type = perm_bytes == 4 ? "int" : "long long";
  return std::string("extern \"C\" __global__ void __launch_bounds__(") + std::to_string(kEntrySumBlock) + ") " + kEntrySumKernel +
         "(long long n_unique, const long long *__restrict__ jmap, const " + perm_type + " *__restrict__ perm,\n"
         "    const double *__restrict__ in, double *__restrict__ out)\n"
         "{\n"
         "  const long long u = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
         "  if (u >= n_unique) return;\n"
         "  double s = 0;\n"
         "  for (long long k = jmap[u]; k < jmap[u + 1]; ++k) s += in[perm[k]];\n"
         "  out[u] = s;\n"
         "}\n";
}

}  // namespace femgpu::kernel
