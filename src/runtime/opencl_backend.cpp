// The OpenCL backend: one schedule's kernel, emitted once, run through OpenCLRuntime
// (PoCL on machines without a GPU, any OpenCL GPU otherwise). diagonal() runs the
// generated diagonal kernel (build_diagonal: FP64 whatever the schedule's precision),
// built on its first call; every call uploads its arrays, as apply() does.
#include <stdexcept>

#include "kernel/build.h"
#include "kernel/emit.h"
#include "runtime/action_backend.h"
#include "runtime/opencl_runtime.h"

namespace femgpu {

namespace {

void refuse_assembled(const Schedule &schedule)
{
  if (schedule.strategy() == Strategy::Assembled)
    throw std::invalid_argument("the assembled operator runs on the CUDA backend only (its sums and SpMV are CUDA kernels); with OpenCL use "
                                "auto, scpwi or tiled");
}

class OpenCLBackend : public ActionBackend {
 public:
  OpenCLBackend(const ActionIR &ir, const Tabulation &tab, const Schedule &schedule)
      : ActionBackend(ir, tab), ir_(ir), tab_(tab), schedule_(schedule)
  {
    refuse_assembled(schedule);
    validate(schedule, ir, tab.n_points(), kMaxStaticSharedBytes);
    kernel_ = kernel::build_kernel(ir, tab, schedule);
    source_ = kernel::emit_opencl(kernel_);
  }
  std::string name() const override { return "opencl"; }
  std::string schedule() const override
  {
    return to_string(schedule_) + " on " + runtime_.device_name() + " (" + std::to_string(shared_memory_bytes(schedule_, ir_)) +
           " B shared)";
  }
  std::string source() const override { return source_; }
  void apply(const ActionArrays &arrays, std::size_t n_out, double *out) override
  {
    runtime_.apply(kernel_, source_, ir_, tab_, arrays, out, n_out);
  }
  void diagonal(const ActionArrays &arrays, std::size_t n_out, double *diag) override
  {
    if (diagonal_source_.empty()) {
      diagonal_kernel_ = kernel::build_diagonal(ir_, tab_);
      diagonal_source_ = kernel::emit_opencl(diagonal_kernel_);
    }
    runtime_.diagonal(diagonal_kernel_, diagonal_source_, ir_, tab_, arrays, diag, n_out);
  }
  void cell_matrices(const ActionArrays &arrays, double *out) override
  {
    if (matrix_source_.empty()) {
      matrix_kernel_ = kernel::build_cell_matrix(ir_, tab_);
      matrix_source_ = kernel::emit_opencl(matrix_kernel_);
    }
    const std::size_t w = static_cast<std::size_t>(cell_width(ir_));
    runtime_.cell_matrices(matrix_kernel_, matrix_source_, ir_, tab_, arrays, out, static_cast<std::size_t>(arrays.n_cells) * w * w);
  }

 private:
  const ActionIR &ir_;
  const Tabulation &tab_;
  Schedule schedule_;
  kernel::Kernel kernel_;
  std::string source_;
  kernel::Kernel diagonal_kernel_;
  std::string diagonal_source_;  // empty until the first diagonal()
  kernel::Kernel matrix_kernel_;
  std::string matrix_source_;  // empty until the first cell_matrices()
  OpenCLRuntime runtime_;
};

}  // namespace

void check_opencl_schedule(const ActionIR &ir, const Tabulation &tab, const Schedule &schedule)
{
  refuse_assembled(schedule);
  validate(schedule, ir, tab.n_points(), kMaxStaticSharedBytes);
  (void)kernel::emit_opencl(kernel::build_kernel(ir, tab, schedule));
}

std::unique_ptr<ActionBackend> make_opencl_backend(const ActionIR &ir, const Tabulation &tab, const Schedule &schedule)
{
  return std::make_unique<OpenCLBackend>(ir, tab, schedule);
}

}  // namespace femgpu
