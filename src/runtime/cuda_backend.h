// The CUDA backend of one lowered action and one schedule: a CudaKernel and the
// DeviceActionData it runs on (cuda_action.h), behind the ActionBackend interface.
//
// Takes: the IR, its tables, a schedule and a device ordinal. The constructor compiles
// and loads the kernel and rejects a schedule the device cannot run before any launch;
// or a kernel compiled already (the tuner's winner), which it loads if needed.
// Returns: apply() with host arrays (data uploaded on the first call: maps and
// coordinates once, values every call); apply_device() with FP64 device arrays owned by
// the caller (PETSc VECCUDA), which copies nothing between host and device.
// diagonal() and diagonal_device() run the form's diagonal kernel (build_diagonal),
// compiled on first use, always in FP64: on the action's device data when the schedule
// is FP64, else on an FP64 copy of the maps and coordinates made for the diagonal.
// cell_matrices() and cell_matrices_device() run the cell-matrix kernel
// (build_cell_matrix), FP64, on device data of their own (MatConvert's values).
// Does not: pick the schedule (src/tune does) or know PETSc.
#pragma once

#include <memory>

#include "runtime/action_backend.h"
#include "runtime/cuda_action.h"

namespace femgpu {

class CudaBackend : public ActionBackend {
 public:
  CudaBackend(const ActionIR &ir, const Tabulation &tab, const Schedule &schedule, int device = 0);
  // Around `kernel`, compiled for `device`'s architecture for this ir and tab (the tuner's).
  CudaBackend(const ActionIR &ir, const Tabulation &tab, std::unique_ptr<CudaKernel> kernel, int device);
  std::string name() const override { return "cuda"; }
  std::string schedule() const override;
  std::string source() const override { return kernel_->source(); }
  void apply(const ActionArrays &arrays, std::size_t n_out, double *out) override;
  bool on_device() const override { return true; }
  // out (device) += action, with trial and coefficient values on the device.
  void apply_device(const ActionArrays &arrays, std::size_t n_out, unsigned long long trial,
                    const std::vector<unsigned long long> &coefficients, unsigned long long out) override;
  // diag (host) += the diagonal of the form's matrix (reference_diagonal.h's contract).
  void diagonal(const ActionArrays &arrays, std::size_t n_out, double *diag) override;
  // out (device, FP64, n_out entries) += the diagonal, with every coefficient's FP64
  // values on the device (one pointer per ActionIR coefficient); constants from arrays.
  void diagonal_device(const ActionArrays &arrays, std::size_t n_out, const std::vector<unsigned long long> &coefficients,
                       unsigned long long out) override;

  // Every cell's matrix (action_backend.h's contract) by the cell-matrix kernel, FP64,
  // copied to the host.
  void cell_matrices(const ActionArrays &arrays, double *out) override;
  // The same left on the device: the returned device pointer (memory of the current
  // context, as cudaMalloc's, so PETSc sees PETSC_MEMTYPE_CUDA) holds n_cells * width^2
  // FP64 entries in cell_matrices()'s order, complete when this returns, owned by the
  // backend and valid until the next cell-matrix call or the backend's end. 0 when
  // arrays has no cells. Coefficients and constants are read from arrays (host).
  unsigned long long cell_matrices_device(const ActionArrays &arrays) override;
  // Why a CUDA kernel runs as fast as it does starts with how many of its groups share
  // an SM (occupancy.h's describe_residency with the device's limits).
  std::string occupancy() const override;
  // The assembled operator's SpMV, once its matrix is built: two flops per nonzero.
  long long assembled_nonzeros() const override;
  const cuda::KernelResources &resources() const { return kernel_->resources(); }  // registers and spills (GPU checks)

 private:
  void ensure_data(const ActionArrays &arrays, std::size_t n_out);
  DeviceActionData &diagonal_data(const ActionArrays &arrays, std::size_t n_out);  // FP64, diagonal kernel loaded
  const ActionIR &ir_;
  const Tabulation &tab_;
  cuda::DeviceInfo info_;
  std::unique_ptr<CudaKernel> kernel_;
  std::unique_ptr<DeviceActionData> data_;
  const int *test_map_ = nullptr;  // the layout data_ was built for
  std::unique_ptr<CudaDiagonalKernel> diagonal_kernel_;
  std::unique_ptr<DeviceActionData> diagonal_data_;  // only when the schedule is FP32
  const int *diagonal_test_map_ = nullptr;
  unsigned long long launch_cell_matrices(const ActionArrays &arrays);
  std::unique_ptr<CudaDiagonalKernel> matrix_kernel_;
  std::unique_ptr<DeviceActionData> matrix_data_;  // values sized as the maps address them
  cuda::Buffer matrix_out_;                         // n_cells x width^2
  const int *matrix_test_map_ = nullptr;
};

}  // namespace femgpu
