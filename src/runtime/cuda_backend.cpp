// The CUDA backend: one compiled kernel on device-resident operands.
#include "runtime/cuda_backend.h"

#include <algorithm>
#include <stdexcept>

#include "kernel/kernel_abi.h"
#include "runtime/cuda_assembled.h"
#include "runtime/nvrtc_compile.h"
#include "runtime/setup_phases.h"
#include "tune/occupancy.h"

namespace femgpu {

CudaBackend::CudaBackend(const ActionIR &ir, const Tabulation &tab, const Schedule &schedule, int device) : ActionBackend(ir, tab), ir_(ir), tab_(tab)
{
  info_ = cuda::open_device(device);
  SetupPhaseScope phase(SetupPhase::KernelMake);  // its load nests inside
  kernel_ = std::make_unique<CudaKernel>(ir, tab, schedule, info_);
}

CudaBackend::CudaBackend(const ActionIR &ir, const Tabulation &tab, std::unique_ptr<CudaKernel> kernel, int device)
    : ActionBackend(ir, tab), ir_(ir), tab_(tab), kernel_(std::move(kernel))
{
  info_ = cuda::open_device(device);
  kernel_->load();
  // The tuner's winner was compiled while tuning: keep it for the next run's backend.
  keep_compiled_cubin(kernel_->source(), kernel_->arch(), kernel_->cubin());
}

std::string CudaBackend::schedule() const
{
  const cuda::KernelResources &r = kernel_->resources();
  std::string matrix;  // the assembled operator's, once built (its first apply)
  if (const CudaAssembledMatrix *m = kernel_->assembled())
    matrix = ", sliced ELLPACK matrix: " + std::to_string(m->nonzeros()) + " nonzeros in " + std::to_string(m->stored()) + " stored entries, " +
             std::to_string(m->device_bytes() >> 20) + " MiB with its summation map, assembled in " + std::to_string(m->setup_seconds()) + " s";
  return to_string(kernel_->schedule()) + " on " + info_.name + " (" + std::to_string(r.registers) + " registers/thread, " +
         std::to_string(r.local_bytes) + " B local memory (spills), " + std::to_string(kernel_->shared_bytes()) + " B shared" + matrix + ")";
}

std::unique_ptr<ActionBackend> make_cuda_backend(const ActionIR &ir, const Tabulation &tab, const Schedule &schedule, int ordinal)
{
  return std::make_unique<CudaBackend>(ir, tab, schedule, ordinal);
}

std::unique_ptr<ActionBackend> make_cuda_backend(const ActionIR &ir, const Tabulation &tab, std::unique_ptr<CudaKernel> kernel, int ordinal)
{
  return std::make_unique<CudaBackend>(ir, tab, std::move(kernel), ordinal);
}

std::string CudaBackend::occupancy() const
{
  return describe_residency(sm_limits(info_), threads_per_group(kernel_->schedule()), kernel_->resources().registers,
                            kernel_->shared_bytes());
}

long long CudaBackend::assembled_nonzeros() const
{
  const CudaAssembledMatrix *m = kernel_->assembled();
  return m ? m->nonzeros() : -1;
}

// Maps and coordinates go up once: the ActionBackend contract says they do not change.
void CudaBackend::ensure_data(const ActionArrays &arrays, std::size_t n_out)
{
  // Recreated when the layout changes (host path: local numbering; device path: global).
  if (!data_ || data_->n_out() != n_out || data_->n_cells() != arrays.n_cells || test_map_ != arrays.test_map) {
    data_ = std::make_unique<DeviceActionData>(ir_, tab_, arrays, n_out, kernel_->schedule().precision());
    test_map_ = arrays.test_map;
  }
}

// A rank without cells adds nothing: every entry point returns before touching the
// device (its arrays are empty, and zero-sized device buffers are not allowed).
void CudaBackend::apply(const ActionArrays &arrays, std::size_t n_out, double *out)
{
  if (arrays.n_cells == 0) return;
  const bool fresh = !data_;
  ensure_data(arrays, n_out);
  if (!fresh) data_->upload_values(arrays);
  data_->use_device_arrays(0, {}, 0);
  data_->upload_out(out);
  kernel_->launch(*data_);
  data_->download_out(out);
}

void CudaBackend::apply_device(const ActionArrays &arrays, std::size_t n_out, unsigned long long trial,
                               const std::vector<unsigned long long> &coefficients, unsigned long long out)
{
  if (arrays.n_cells == 0) return;
  ensure_data(arrays, n_out);
  data_->upload_constants(arrays);  // small; constants may change between applies
  data_->use_device_arrays(trial, coefficients, out);
  kernel_->launch(*data_);
}

// The action's data when it is FP64; otherwise an FP64 set of its own, rebuilt on the
// same layout changes as the action's.
DeviceActionData &CudaBackend::diagonal_data(const ActionArrays &given, std::size_t n_out)
{
  ActionArrays arrays = given;  // the diagonal reads no trial map; the device data wants one
  if (!arrays.trial.map) arrays.trial.map = arrays.test_map;
  if (!diagonal_kernel_) {
    diagonal_kernel_ = std::make_unique<CudaDiagonalKernel>(ir_, tab_, info_.arch());
    diagonal_kernel_->load();
  }
  if (kernel_->schedule().precision() == Precision::FP64) {
    ensure_data(arrays, n_out);
    return *data_;
  }
  if (!diagonal_data_ || diagonal_data_->n_out() != n_out || diagonal_data_->n_cells() != arrays.n_cells ||
      diagonal_test_map_ != arrays.test_map) {
    diagonal_data_ = std::make_unique<DeviceActionData>(ir_, tab_, arrays, n_out, Precision::FP64);
    diagonal_test_map_ = arrays.test_map;
  }
  return *diagonal_data_;
}

void CudaBackend::diagonal(const ActionArrays &arrays, std::size_t n_out, double *diag)
{
  if (ir_.rank != 2) throw std::invalid_argument("cuda diagonal: the form is a residual (rank 1), not a bilinear form");
  if (arrays.n_cells == 0) return;
  DeviceActionData &data = diagonal_data(arrays, n_out);
  data.upload_coefficients(arrays);
  data.use_device_arrays(0, {}, 0);
  data.upload_out(diag);
  diagonal_kernel_->launch(data);
  data.download_out(diag);
}

void CudaBackend::diagonal_device(const ActionArrays &arrays, std::size_t n_out,
                                  const std::vector<unsigned long long> &coefficients, unsigned long long out)
{
  if (ir_.rank != 2) throw std::invalid_argument("cuda diagonal: the form is a residual (rank 1), not a bilinear form");
  if (coefficients.size() != ir_.coefficients.size())
    throw std::invalid_argument("cuda diagonal_device: " + std::to_string(coefficients.size()) +
                                " coefficient pointers for a form with " + std::to_string(ir_.coefficients.size()) + " coefficients");
  if (!out) throw std::invalid_argument("cuda diagonal_device: null output pointer");
  for (size_t i = 0; i < coefficients.size(); ++i)  // null only for one the form does not read
    if (!coefficients[i] && ir_.group_of_function(coefficient_function(static_cast<int>(i))) >= 0)
      throw std::invalid_argument("cuda diagonal_device: null device pointer for coefficient " + ir_.coefficients[i].name);
  if (arrays.n_cells == 0) return;
  DeviceActionData &data = diagonal_data(arrays, n_out);
  data.upload_constants(arrays);
  data.use_device_arrays(0, coefficients, out);
  diagonal_kernel_->launch(data);
}


// The cell matrices into matrix_out_ (FP64, on the device); returns its device pointer.
// The kernel's data (maps, coordinates: uploaded once) is its own, FP64 whatever the
// action's precision; coefficients and constants go up on every call.
unsigned long long CudaBackend::launch_cell_matrices(const ActionArrays &given)
{
  if (ir_.rank != 2) throw std::invalid_argument("cuda cell matrices: the form is a residual (rank 1), not a bilinear form");
  ActionArrays arrays = given;  // the kernel reads no trial function; the device data wants a trial map
  if (!arrays.trial.map) arrays.trial.map = arrays.test_map;
  if (!matrix_kernel_) {
    matrix_kernel_ = std::make_unique<CudaDiagonalKernel>(ir_, tab_, info_.arch(), true);
    matrix_kernel_->load();
  }
  const std::size_t w = static_cast<std::size_t>(cell_width(ir_)), entries = static_cast<std::size_t>(arrays.n_cells) * w * w;
  if (!matrix_data_ || matrix_data_->n_cells() != arrays.n_cells || matrix_test_map_ != arrays.test_map) {
    matrix_data_.reset();  // its memory first: the output is the large part
    matrix_out_ = cuda::Buffer();
    // The functions sharing the test map read a local vector of its extent; coefficients
    // with maps of their own are sized by the device data from those.
    matrix_data_ = std::make_unique<DeviceActionData>(ir_, tab_, arrays, map_extent(arrays.test_map, static_cast<std::size_t>(arrays.n_cells) * cell_width(ir_)),
                                                      Precision::FP64);
    matrix_out_ = cuda::Buffer(entries * sizeof(double));
    matrix_test_map_ = arrays.test_map;
  }
  matrix_data_->upload_coefficients(arrays);
  matrix_data_->use_device_arrays(0, {}, matrix_out_.device_pointer());
  matrix_kernel_->launch(*matrix_data_);
  return matrix_out_.device_pointer();
}

void CudaBackend::cell_matrices(const ActionArrays &arrays, double *out)
{
  if (arrays.n_cells == 0) return;
  launch_cell_matrices(arrays);
  const std::size_t w = static_cast<std::size_t>(cell_width(ir_));
  matrix_out_.download(out, static_cast<std::size_t>(arrays.n_cells) * w * w * sizeof(double));
}

unsigned long long CudaBackend::cell_matrices_device(const ActionArrays &arrays)
{
  if (arrays.n_cells == 0) return 0;
  cuda::synchronize();  // whoever read the previous values (PETSc, on its own stream) is done
  const unsigned long long values = launch_cell_matrices(arrays);
  cuda::synchronize();  // complete before another stream reads them
  return values;
}

}  // namespace femgpu
