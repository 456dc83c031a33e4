// Loading and launching NVRTC cubins with the CUDA driver API (GPU machines only).
//
// Takes: a cubin (nvrtc_compile) and the Kernel it came from, plus the action's arrays
// as the CPU reference takes them. Returns: out[0..n_out) += action; and the compiled
// function's resources (registers, spilled local bytes, static shared bytes), which
// only the driver can report.
// Does not: cache modules or keep buffers between calls. Links against libcuda; on a
// machine without a driver the constructor throws.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "fem/action_tables.h"
#include "ir/action_ir.h"
#include "kernel/kernel_ast.h"
#include "reference/reference_action.h"

namespace femgpu {

struct KernelResources {
  int registers = 0;
  int local_bytes = 0;  // per thread: spills and stack
  int shared_bytes = 0;
  int max_threads = 0;
};

class CudaRuntime {
 public:
  explicit CudaRuntime(int device = 0);
  ~CudaRuntime();
  CudaRuntime(const CudaRuntime &) = delete;
  CudaRuntime &operator=(const CudaRuntime &) = delete;

  std::string device_name() const;
  KernelResources resources(const std::vector<char> &cubin, const std::string &name) const;
  void apply(const kernel::Kernel &k, const std::vector<char> &cubin, const ActionIR &ir, const Tabulation &tab,
             const ActionArrays &arrays, double *out, size_t n_out);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace femgpu
