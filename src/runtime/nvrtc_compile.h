// Compiling generated CUDA source to a cubin with NVRTC (no GPU needed).
//
// Takes: CUDA source (emit_cuda), a name for messages, a real architecture (sm_90).
// Returns: the cubin, the options used and NVRTC's log.
// Throws: std::runtime_error with the options, the NVRTC log and the path where the
// failing source was saved. Does not: load or launch (that needs the driver API, which
// is also where register and spill counts come from: cuFuncGetAttribute at load time).
#pragma once

#include <string>
#include <vector>

namespace femgpu {

struct CompiledCubin {
  std::vector<char> cubin;
  std::vector<std::string> options;
  std::string log;
};

CompiledCubin nvrtc_compile(const std::string &source, const std::string &name, const std::string &arch = "sm_90");
// The cubin of a kernel that will run (an operator's action, diagonal, cell matrices,
// transfers): from the installed KernelBinaryStore when it holds this source compiled
// with these options by this NVRTC, else compiled and kept there (kernel_binary_store.h).
// Without a store it is nvrtc_compile's cubin.
std::vector<char> compile_cubin_kept(const std::string &source, const std::string &name, const std::string &arch);
// Keeps a cubin compiled elsewhere (the tuner's winner, compiled while tuning) under the
// key compile_cubin_kept would look it up by.
void keep_compiled_cubin(const std::string &source, const std::string &arch, const std::vector<char> &cubin);
// The PTX for a virtual architecture (compute_90): what the instructions are before
// ptxas, e.g. whether shared loads were paired (tests of Tables::Interleaved).
std::string nvrtc_ptx(const std::string &source, const std::string &name, const std::string &virtual_arch = "compute_90");

std::string nvrtc_version();  // "major.minor"

}  // namespace femgpu
