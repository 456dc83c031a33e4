// The CUDA backend of one lowered action and one schedule.
//
// Takes: the IR, its tables, a schedule and a device ordinal. The constructor builds,
// emits, compiles (NVRTC, the device's sm_XY) and loads the kernel, and rejects a
// schedule the device cannot run (shared memory, threads per group) before any launch.
// Returns: apply() as ActionBackend (host arrays in and out); launch() and
// time_launch_ms() reuse device-resident data for benchmarks and tuning.
// Does not: pick the schedule (src/tune does) or know PETSc.
#pragma once

#include <map>
#include <memory>

#include "kernel/kernel_ast.h"
#include "runtime/action_backend.h"
#include "runtime/cuda_driver.h"
#include "schedule/schedule.h"

namespace femgpu {

class CudaBackend : public ActionBackend {
 public:
  CudaBackend(const ActionIR &ir, const Tabulation &tab, const Schedule &schedule, int device = 0);
  std::string name() const override { return "cuda"; }
  std::string schedule() const override;
  void apply(const ActionArrays &arrays, std::size_t n_out, double *out) override;
  std::string source() const override { return source_; }

  // After one apply() (which uploads maps and coordinates): launch only, on the data
  // already on the device; the mean of `repetitions` launches in milliseconds.
  double time_launch_ms(int n_cells, int repetitions);
  const cuda::KernelResources &resources() const { return resources_; }
  const cuda::DeviceInfo &device() const { return info_; }

 private:
  void upload_static(const ActionArrays &a, std::size_t n_out);
  void launch(int n_cells);

  const ActionIR &ir_;
  const Tabulation &tab_;
  Schedule schedule_;
  cuda::DeviceInfo info_;
  std::unique_ptr<kernel::Kernel> kernel_;
  std::string source_;
  std::unique_ptr<cuda::Module> module_;
  cuda::KernelResources resources_;
  cuda::Buffer tables_, weights_, constants_, coordinates_, coordinate_map_, test_map_, out_;
  std::map<int, cuda::Buffer> maps_, values_;
  std::size_t coordinate_count_ = 0;
  bool static_ready_ = false;
};

}  // namespace femgpu
