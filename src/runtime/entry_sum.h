// The COO entry sum on the device (kernel/entry_sum.h): MatConvert's cell matrices,
// computed by the CUDA backend into device memory, summed into the unique COO entries
// that an aijcusparse Mat's MatSetValuesCOO reads from the device.
//
// Takes (at construction): jmap (n_unique + 1) and perm (jmap[n_unique] entries, 64-bit or
// 32-bit), PETSc's COO layout, which it uploads once; the CUDA device's ordinal.
// Returns: sum(), the device pointer of the n_unique sums (its own buffer, valid until the
// next sum() or its destruction); sum_into(), the sums written into a device array of the
// caller's (an aijcusparse Mat's CSR values); both complete when they return
// (synchronized), so another stream (PETSc's) may read them.
// Does not: know PETSc or the pattern's meaning (src/petsc/plex/coo_pattern.h builds it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace femgpu {

class DeviceEntrySum {
 public:
  virtual ~DeviceEntrySum() = default;
  virtual unsigned long long sum(unsigned long long cell_values) = 0;
  virtual void sum_into(unsigned long long cell_values, unsigned long long out) = 0;
};

// Defined where the CUDA backend is built (FEMGPU_HAVE_CUDA); throws on CUDA errors.
std::unique_ptr<DeviceEntrySum> make_cuda_entry_sum(const std::int64_t *jmap, std::size_t n_unique, const std::int64_t *perm, int device);
std::unique_ptr<DeviceEntrySum> make_cuda_entry_sum(const std::int64_t *jmap, std::size_t n_unique, const std::int32_t *perm, int device);

}  // namespace femgpu
