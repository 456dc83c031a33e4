// CUDA pieces of one action, split so that many schedules can share one copy of the
// operands (tuning times candidates on the real data):
//   DeviceActionData - tables, weights, maps, coordinates, input values and the output
//                      on the device, in one precision;
//   CudaKernel       - one schedule's kernel: built, emitted, compiled with NVRTC for
//                      the device's architecture, loaded, with its resource usage;
//   CudaDiagonalKernel - the form's diagonal kernel (build_diagonal), FP64, run on the
//                      same DeviceActionData (an FP64 one).
//
// Takes: the IR, its tables, the ActionArrays (host) and a schedule.
// Returns: device-resident data and launchable kernels; failures throw (CudaError,
// DeviceOutOfMemory, std::invalid_argument for schedules the device cannot run, with
// the limit and the value), before any launch.
// Does not: pick schedules (src/tune) or know PETSc.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "fem/action_arrays.h"
#include "fem/action_tables.h"
#include "ir/action_ir.h"
#include "kernel/kernel_ast.h"
#include "runtime/cuda_driver.h"
#include "schedule/schedule.h"

namespace femgpu {

// The device copy of host[0, n) (indices): the one `copies` shares where it lists the
// array (device_copies.h: a DM's closure maps, read by several kernels), else one of the
// caller's own. On the current context's device.
std::shared_ptr<cuda::Buffer> device_indices(const std::shared_ptr<DeviceCopies> &copies, const int *host, std::size_t n);

// The length of a vector that `map` (n entries) indexes: its largest entry + 1 (0 for none).
std::size_t map_extent(const int *map, std::size_t n);

// Throws std::runtime_error where n_cells cell matrices of the form hold more entries than
// the cell-matrix kernel indexes (an int: cell * width^2 + local, at most 2^31 - 1).
void require_cell_matrix_index(const ActionIR &ir, long long n_cells);

class DeviceActionData {
 public:
  // n_out: the length of the output and of every function's values (a local vector).
  // out_entries, when given, sizes the output alone (the cell matrices: n_cells x w^2).
  DeviceActionData(const ActionIR &ir, const Tabulation &tab, const ActionArrays &arrays, std::size_t n_out, Precision p,
                   std::size_t out_entries = 0);
  // New values of the trial function, coefficients and constants (host arrays).
  void upload_values(const ActionArrays &arrays);
  // Uploads only values that differ from the last ones: an upload from pageable host
  // memory waits for the device's earlier work, so an upload at every apply would stop the
  // host from running ahead of the GPU inside a Krylov solve.
  void upload_constants(const ActionArrays &arrays);
  // Coefficients and constants only: the diagonal needs no trial values.
  void upload_coefficients(const ActionArrays &arrays);
  void upload_out(const double *out);
  void download_out(double *out) const;
  void zero_out();
  // Device arrays owned by the caller (e.g. PETSc VECCUDA), FP64 only: used instead of
  // this object's own value and output buffers until cleared with 0.
  void use_device_arrays(unsigned long long trial, const std::vector<unsigned long long> &coefficients, unsigned long long out);

  Precision precision() const { return precision_; }
  std::size_t n_out() const { return n_out_; }
  int n_cells() const { return n_cells_; }
  // Pointer for a kernel argument (kernel_abi.h order).
  unsigned long long pointer(const struct KernelArg &arg) const;
  std::size_t device_bytes() const;
  // The host arrays it was built from (the caller's pointers; the constants as last
  // uploaded): the assembled operator's pattern and cell matrices are made from them.
  const ActionArrays &host_arrays() const { return host_arrays_; }
  unsigned long long trial_pointer() const;  // the trial values (its own, or the caller's)
  unsigned long long out_pointer() const;

 private:
  const ActionIR &ir_;
  ActionArrays host_arrays_;
  Precision precision_;
  std::size_t n_out_;
  std::size_t out_entries_;  // of out_: n_out_ unless given
  int n_cells_;
  cuda::Buffer tables_, weights_, constants_, coordinates_, out_;
  std::shared_ptr<cuda::Buffer> coordinate_map_, test_map_;  // maybe shared with other readers (device_indices)
  bool constants_uploaded_ = false;  // constants_ holds host_arrays_.constants
  std::map<int, std::shared_ptr<cuda::Buffer>> maps_;
  std::map<int, cuda::Buffer> values_;
  std::map<int, std::size_t> extents_;  // entries of each function's values (a coefficient in its own element: its own vector)
  std::map<int, unsigned long long> external_values_;
  unsigned long long external_out_ = 0;
};

class CudaAssembledMatrix;

// One schedule's kernel. For Strategy::Assembled it is the sliced SpMV
// (kernel/sliced_spmv.h), and its first launch on a DeviceActionData assembles that
// data's matrix (cuda_assembled.h) from its host arrays; a later launch on the same maps
// and coordinates reuses it (after the tuner, the winner's backend applies the matrix
// timed in tuning), and new constants reassemble its values.
class CudaKernel {
 public:
  CudaKernel(const ActionIR &ir, const Tabulation &tab, const Schedule &schedule, const cuda::DeviceInfo &device);
  // Compiles without a device (for parallel compilation); load() needs the context.
  // `built`: the schedule's kernel AST where the caller built it already (the tuner's
  // compile estimates), else it is built here. `kept`: a kernel that runs, looked up in
  // and kept by the kernel binary store (nvrtc_compile.h's compile_cubin_kept); the
  // tuner's candidates are compiled afresh and not kept.
  CudaKernel(const ActionIR &ir, const Tabulation &tab, const Schedule &schedule, const std::string &arch,
             long long shared_limit, int threads_limit, std::unique_ptr<kernel::Kernel> built = nullptr, bool kept = false);
  void load();
  void launch(const DeviceActionData &data) const;

  const Schedule &schedule() const { return schedule_; }
  const std::string &source() const { return source_; }
  const std::vector<char> &cubin() const { return cubin_; }
  const std::string &arch() const { return arch_; }
  const cuda::KernelResources &resources() const { return resources_; }
  long long shared_bytes() const { return shared_bytes_; }
  // The assembled operator's matrix once launched (Strategy::Assembled), else null.
  const CudaAssembledMatrix *assembled() const { return assembled_.get(); }
  ~CudaKernel();

 private:
  void launch_assembled(const DeviceActionData &data) const;
  const ActionIR &ir_;
  const Tabulation &tab_;
  std::string arch_;
  mutable std::unique_ptr<CudaAssembledMatrix> assembled_;
  Schedule schedule_;
  std::unique_ptr<kernel::Kernel> kernel_;
  std::string source_;
  std::vector<char> cubin_;
  std::unique_ptr<cuda::Module> module_;
  cuda::KernelResources resources_;
  long long shared_bytes_ = 0;
  int threads_limit_ = 1024;
};

class CudaDiagonalKernel {
 public:
  // Builds, emits and compiles for `arch`; load() needs the context. cell_matrix: the
  // cell-matrix kernel (build_cell_matrix, cell_matrix_arguments()) instead of the diagonal.
  CudaDiagonalKernel(const ActionIR &ir, const Tabulation &tab, const std::string &arch, bool cell_matrix = false);
  void load();
  // data's out += the diagonal (or = the cell matrices); data must be FP64.
  void launch(const DeviceActionData &data) const;

  const std::string &source() const { return source_; }

 private:
  const ActionIR &ir_;
  bool cell_matrix_ = false;
  std::unique_ptr<kernel::Kernel> kernel_;
  std::string source_;
  std::vector<char> cubin_;
  std::unique_ptr<cuda::Module> module_;
};

}  // namespace femgpu
