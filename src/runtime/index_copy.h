// The one-rank index copy on the device (kernel/index_copy.h): a global Vec's device array
// into a local one, and a local one summed into a global one, through the local index of
// every global DOF.
//
// Takes (at construction): local_of_global (n entries), which it uploads once; the CUDA
// device's ordinal.
// Does: to_local(g, l): l[local_of_global[i]] = g[i]; add_to_global(l, g): g[i] +=
// l[local_of_global[i]]; each complete when it returns (synchronized before and after, so
// PETSc's work on another stream is ordered with it).
// Does not: know PETSc or DMs (src/petsc/plex/dm_scatter.h decides when it applies).
#pragma once

#include <cstddef>
#include <memory>

namespace femgpu {

class DeviceIndexCopy {
 public:
  virtual ~DeviceIndexCopy() = default;
  virtual void to_local(unsigned long long global, unsigned long long local) = 0;
  virtual void add_to_global(unsigned long long local, unsigned long long global) = 0;
};

// Defined where the CUDA backend is built (FEMGPU_HAVE_CUDA); throws on CUDA errors.
std::unique_ptr<DeviceIndexCopy> make_cuda_index_copy(const int *local_of_global, std::size_t n, int device);

}  // namespace femgpu
