// The CUDA backend of one lowered action and one schedule: a CudaKernel and the
// DeviceActionData it runs on (cuda_action.h), behind the ActionBackend interface.
//
// Takes: the IR, its tables, a schedule and a device ordinal. The constructor compiles
// and loads the kernel and rejects a schedule the device cannot run before any launch.
// Returns: apply() with host arrays (data uploaded on the first call: maps and
// coordinates once, values every call); apply_device() with FP64 device arrays owned by
// the caller (PETSc VECCUDA), which copies nothing between host and device.
// Does not: pick the schedule (src/tune does) or know PETSc.
#pragma once

#include <memory>

#include "runtime/action_backend.h"
#include "runtime/cuda_action.h"

namespace femgpu {

class CudaBackend : public ActionBackend {
 public:
  CudaBackend(const ActionIR &ir, const Tabulation &tab, const Schedule &schedule, int device = 0);
  std::string name() const override { return "cuda"; }
  std::string schedule() const override;
  std::string source() const override { return kernel_->source(); }
  void apply(const ActionArrays &arrays, std::size_t n_out, double *out) override;
  // out (device) += action, with trial and coefficient values on the device.
  void apply_device(const ActionArrays &arrays, std::size_t n_out, unsigned long long trial,
                    const std::vector<unsigned long long> &coefficients, unsigned long long out);

  const cuda::KernelResources &resources() const { return kernel_->resources(); }
  const cuda::DeviceInfo &device() const { return info_; }

 private:
  void ensure_data(const ActionArrays &arrays, std::size_t n_out);
  const ActionIR &ir_;
  const Tabulation &tab_;
  cuda::DeviceInfo info_;
  std::unique_ptr<CudaKernel> kernel_;
  std::unique_ptr<DeviceActionData> data_;
  const int *test_map_ = nullptr;  // the layout data_ was built for
};

}  // namespace femgpu
