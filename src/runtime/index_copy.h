// The one-rank index copies on the device (kernel/index_copy.h): a DM's global and local
// CUDA vectors copied into each other through the closure maps' numbering, and values
// computed on the host written at given entries of a local CUDA vector.
//
// Takes (at construction): the index array (n entries, each in [0, size of the vector it
// indexes)), uploaded once; the CUDA device's ordinal.
// Does: insert(in, out): out[index[i]] = in[i]; add(in, out): out[i] += in[index[i]];
// insert_host(values, out): the n host values uploaded, then inserted. Each is complete
// when it returns (synchronized), so another stream (PETSc's) may read what it wrote,
// and waits first for what is queued on the device (PETSc's writes of its inputs).
// Does not: know PETSc or check the pointers' sizes (plex/dm_scatter.cpp does).
#pragma once

#include <cstddef>
#include <memory>

namespace femgpu {

class DeviceIndexCopy {
 public:
  virtual ~DeviceIndexCopy() = default;
  virtual std::size_t size() const = 0;
  virtual void insert(unsigned long long in, unsigned long long out) = 0;
  virtual void add(unsigned long long in, unsigned long long out) = 0;
  virtual void insert_host(const double *values, unsigned long long out) = 0;
};

// Defined where the CUDA backend is built (FEMGPU_HAVE_CUDA); throws on CUDA errors.
std::unique_ptr<DeviceIndexCopy> make_cuda_index_copy(const int *index, std::size_t n, int device);

}  // namespace femgpu
