// The CUDA source of the one-rank index copy: a DM's global Vec into its local (ghosted)
// Vec and a local Vec summed back, through the local index of every global DOF
// (src/petsc/plex/dm_scatter.h), so that on one rank a residual needs no star forest.
//
// Takes: nothing; the kernel's arguments are (n, local_of_global, src, dst, to_local):
// to_local != 0: dst[local_of_global[i]] = src[i] (global -> local, INSERT);
// to_local == 0: dst[i] += src[local_of_global[i]] (local -> global, ADD), for i < n.
// Returns: the source, for nvrtc_compile with kIndexCopyKernel as its name.
// Why one thread per global DOF: on one rank every global DOF has exactly one local
// entry, so neither direction has two threads writing one value (no atomics).
#pragma once

#include <string>

namespace femgpu::kernel {

inline constexpr const char *kIndexCopyKernel = "femgpu_index_copy";
inline constexpr int kIndexCopyBlock = 256;  // threads per group

std::string index_copy_cuda_source();

}  // namespace femgpu::kernel
