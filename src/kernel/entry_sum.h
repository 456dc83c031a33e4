// The CUDA source of the COO entry sum: the cell matrices' entries, computed on the device,
// summed into the unique (row, column) entries that MatConvert gave
// MatSetPreallocationCOO (src/petsc/plex/coo_pattern.h), so that the values go to an
// aijcusparse Mat without leaving the device.
//
// Takes: nothing; the kernel's arguments are (n_unique, jmap, perm, in, out), PETSc's own
// COO layout: out[u] = sum of in[perm[k]] over k in [jmap[u], jmap[u+1]), jmap 64-bit,
// perm of perm_bytes (8, or 4: MatConvert's pattern, half the bytes to build and upload).
// Returns: the source, for nvrtc_compile with kEntrySumKernel as its name.
// Why a gather with one thread per unique entry, not atomics: the sum's order is perm's
// (ascending cell entries), as on the host, so the device and host matrices agree to the
// last bit and a run repeats exactly.
#pragma once

#include <string>

namespace femgpu::kernel {

inline constexpr const char *kEntrySumKernel = "femgpu_coo_entry_sum";
inline constexpr int kEntrySumBlock = 256;  // threads per group

std::string entry_sum_cuda_source(int perm_bytes = 8);

}  // namespace femgpu::kernel
