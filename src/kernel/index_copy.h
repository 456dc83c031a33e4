// The CUDA source of the one-rank copies between a DM's global and local vectors, and of
// a few values written at given local entries (essential boundary values), through an
// index array: the device side of plex/dm_scatter.h and plex/boundary_values_hook.h.
//
// Takes: nothing; the kernels' arguments are (n, index, in, out) with index of n 32-bit
// entries:
//   kIndexInsertKernel  out[index[i]] = in[i]     (global -> local; values -> local)
//   kIndexAddKernel     out[i] += in[index[i]]    (local -> global, ADD_VALUES)
// Returns: the source, for nvrtc_compile with either name.
// Why an index kernel, not PETSc's VecScatter: on one rank the DM's section star forest
// is a permutation femgpu's closure maps already hold (PlexMaps::local_of_global), and
// the star forest's first use sets it up (a sort of every leaf) inside the first residual;
// a scatter of the boundary values likewise. Each output entry is written by one thread
// (index is one to one), so the results are exact and repeat.
#pragma once

#include <string>

namespace femgpu::kernel {

inline constexpr const char *kIndexInsertKernel = "femgpu_index_insert";
inline constexpr const char *kIndexAddKernel = "femgpu_index_add";
inline constexpr int kIndexCopyBlock = 256;  // threads per group

std::string index_copy_cuda_source();

}  // namespace femgpu::kernel
