// The kernel binary store on disk (runtime/kernel_binary_store.h): one file per compiled
// kernel in a folder, by default $XDG_CACHE_HOME/femgpu/kernels (else ~/.cache/...).
//
// Takes: the folder. Returns: a KernelBinaryStore. A file is named by a 128-bit hash of
// its key and holds a header, the key itself (compared on every lookup, so two keys never
// share a binary) and the cubin. An entry of an older femgpu, a damaged one or one whose
// key differs is a miss and is replaced; a file that femgpu did not write (no header) is
// an error naming its path and is never overwritten. Writes go to a temporary sibling
// renamed into place (cache_file.h), so readers never see half a file.
// Does not: evict. The entries are one per operator kernel (form, degree, schedule), not
// per mesh, so the folder stays small; deleting it only costs the next run its compiles.
#pragma once

#include <memory>
#include <string>

#include "runtime/kernel_binary_store.h"

namespace femgpu {

std::shared_ptr<KernelBinaryStore> make_kernel_binary_cache(const std::string &folder);
// $XDG_CACHE_HOME/femgpu/kernels, else $HOME/.cache/femgpu/kernels; throws when neither is set.
std::string default_kernel_cache_folder();

}  // namespace femgpu
