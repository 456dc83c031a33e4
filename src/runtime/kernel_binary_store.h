// Compiled kernels kept between runs, so that a program's second run loads the kernels
// of its operators instead of compiling them again (an NVRTC compile of one operator's
// kernel takes 0.2 s to several seconds, a large part of a solve's set-up).
//
// Takes: a key (NVRTC's version, the compile options and the whole source) and a cubin.
// Returns: the cubin kept under that key, if any.
// Does not: decide where binaries live or whether to keep them: the PETSc layer installs
// a store (cache/kernel_binary_cache.h, from -mat_fem_gpu_kernel_cache); with none
// installed every kernel is compiled. The store is process-wide, as NVRTC and the CUDA
// driver are: kernels are made deep inside backends, lazily (a diagonal at the first
// MatGetDiagonal), where no options struct reaches. The tuner's candidates never go
// through it (runtime/nvrtc_compile.h: compile_cubin_kept is for the kernels that run).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace femgpu {

class KernelBinaryStore {
 public:
  virtual ~KernelBinaryStore() = default;
  // The cubin kept under `key`; nullopt when there is none. Throws std::runtime_error for
  // an entry that cannot be read or that another program wrote, naming its path.
  virtual std::optional<std::vector<char>> find(const std::string &key) const = 0;
  // Keeps `cubin` under `key`; a failure to write is not an error (the next run compiles).
  virtual void keep(const std::string &key, const std::vector<char> &cubin) = 0;
  virtual std::string describe() const = 0;  // where, for messages
};

// Installs `store` (null: none) for every later compile of a kernel that runs.
void set_kernel_binary_store(std::shared_ptr<KernelBinaryStore> store);
std::shared_ptr<KernelBinaryStore> kernel_binary_store();

}  // namespace femgpu
