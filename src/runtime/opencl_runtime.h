// Building and running generated OpenCL action kernels (PoCL on CI machines).
//
// Takes: emitted OpenCL source and the Kernel it came from (launch shape, precision),
// plus the action's arrays as the CPU reference takes them.
// Returns: out[0..n_out) += action, converted back to double.
// Does not: keep buffers between calls (built programs are kept by source, so an action
// and its diagonal kernel alternate without rebuilding); one device, the first one.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "fem/action_arrays.h"
#include "fem/action_tables.h"
#include "ir/action_ir.h"
#include "kernel/kernel_ast.h"

namespace femgpu {

struct HostArgument;  // action_buffers.h

// The device OpenCLRuntime uses (the first device of the first platform), for cache
// keys: CL_DEVICE_NAME, CL_DEVICE_VERSION, CL_DRIVER_VERSION. Throws when there is none.
struct OpenCLDeviceId {
  std::string name, version, driver_version;
};
OpenCLDeviceId opencl_device_id();

// Whether OpenCLRuntime would find a device (an ICD with a platform that has one); never
// throws. The backend `auto` asks it (mat_femgpu_backend.cpp).
bool opencl_device_available();

class OpenCLRuntime {
 public:
  OpenCLRuntime();  // the first device of the first platform; throws when none
  ~OpenCLRuntime();
  OpenCLRuntime(const OpenCLRuntime &) = delete;
  OpenCLRuntime &operator=(const OpenCLRuntime &) = delete;

  std::string device_name() const;

  // Builds `source` (throws with the build log and the source's first lines on
  // failure) and applies it once.
  void apply(const kernel::Kernel &k, const std::string &source, const ActionIR &ir, const Tabulation &tab,
             const ActionArrays &arrays, double *out, size_t n_out);
  // The same for a diagonal kernel (build_diagonal): diag[0..n_out) += the diagonal.
  void diagonal(const kernel::Kernel &k, const std::string &source, const ActionIR &ir, const Tabulation &tab,
                const ActionArrays &arrays, double *diag, size_t n_out);
  // The same for a cell-matrix kernel (build_cell_matrix): out[0..n_out) = every cell's
  // matrix, n_out = n_cells * width^2.
  void cell_matrices(const kernel::Kernel &k, const std::string &source, const ActionIR &ir, const Tabulation &tab,
                     const ActionArrays &arrays, double *out, size_t n_out);
  // Any kernel with these host arguments (action_buffers.h; the one of kind Out is read
  // back into out[0..n_out)), launched over n_cells cells as Kernel says.
  void run(const kernel::Kernel &k, const std::string &source, const std::vector<HostArgument> &host, int n_cells,
           double *out, size_t n_out);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace femgpu
