// The CUDA backend: one compiled kernel on device-resident operands.
#include "runtime/cuda_backend.h"

namespace femgpu {

CudaBackend::CudaBackend(const ActionIR &ir, const Tabulation &tab, const Schedule &schedule, int device) : ActionBackend(ir, tab), ir_(ir), tab_(tab)
{
  info_ = cuda::open_device(device);
  kernel_ = std::make_unique<CudaKernel>(ir, tab, schedule, info_);
}

std::string CudaBackend::schedule() const
{
  const cuda::KernelResources &r = kernel_->resources();
  return to_string(kernel_->schedule()) + " on " + info_.name + " (" + std::to_string(r.registers) + " registers/thread, " +
         std::to_string(r.local_bytes) + " B local memory (spills), " + std::to_string(kernel_->shared_bytes()) + " B shared)";
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

void CudaBackend::apply(const ActionArrays &arrays, std::size_t n_out, double *out)
{
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
  ensure_data(arrays, n_out);
  data_->upload_constants(arrays);  // small; constants may change between applies
  data_->use_device_arrays(trial, coefficients, out);
  kernel_->launch(*data_);
}

}  // namespace femgpu
