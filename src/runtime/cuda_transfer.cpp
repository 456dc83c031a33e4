// The CUDA transfer backend: the generated transfer kernels compiled with NVRTC for the
// device, the table, maps and weights uploaded once; apply_device() runs on PETSc's
// VECCUDA arrays, apply() stages host arrays through device buffers.
#include <stdexcept>

#include "kernel/build_transfer.h"
#include "kernel/emit.h"
#include "runtime/cuda_action.h"  // device_indices
#include "runtime/cuda_driver.h"
#include "runtime/nvrtc_compile.h"
#include "runtime/setup_phases.h"
#include "runtime/transfer_backend.h"

namespace femgpu {

namespace {

template <class T> cuda::Buffer upload(const T *v, std::size_t n)
{
  cuda::Buffer b(sizeof(T) * std::max<std::size_t>(n, 1));
  if (n > 0) b.upload(v, sizeof(T) * n);
  return b;
}

class CudaTransfer : public TransferBackend {
 public:
  CudaTransfer(TransferData data, int device) : TransferBackend(std::move(data))
  {
    const cuda::DeviceInfo info = cuda::open_device(device);
    for (auto d : {TransferDirection::Forward, TransferDirection::Transpose}) {
      std::vector<char> cubin;
      {
        SetupPhaseScope phase(SetupPhase::KernelMake);
        kernels_.push_back(kernel::build_transfer(data_.shape, d));
        cubin = compile_cubin_kept(kernel::emit_cuda(kernels_.back()), kernels_.back().name, info.arch());
      }
      SetupPhaseScope phase(SetupPhase::KernelLoad);
      modules_.push_back(std::make_unique<cuda::Module>(cubin, kernels_.back().name));
    }
    SetupPhaseScope phase(SetupPhase::DeviceData);
    table_ = upload(data_.table.data(), data_.table.size());
    row_map_ = device_indices(data_.row_map.device_copies, data_.row_map.data, data_.row_map.size);
    col_map_ = device_indices(data_.col_map.device_copies, data_.col_map.data, data_.col_map.size);
    row_weight_ = upload(data_.row_weight.data(), data_.row_weight.size());
  }
  std::string name() const override { return "cuda"; }
  bool on_device() const override { return true; }

  void apply_device(TransferDirection direction, unsigned long long in, unsigned long long out) override
  {
    if (data_.n_cells == 0) return;
    const std::size_t k = direction == TransferDirection::Forward ? 0 : 1;
    int cells = data_.n_cells;
    unsigned long long pointers[6] = {table_.device_pointer(), row_map_->device_pointer(), col_map_->device_pointer(),
                                      row_weight_.device_pointer(), in, out};
    void *params[7] = {&cells, &pointers[0], &pointers[1], &pointers[2], &pointers[3], &pointers[4], &pointers[5]};
    const kernel::Kernel &kern = kernels_[k];
    const unsigned groups = static_cast<unsigned>((cells + kern.cells_per_group - 1) / kern.cells_per_group);
    modules_[k]->launch(groups, static_cast<unsigned>(kern.block_x), static_cast<unsigned>(kern.block_y), 0, params);
  }

  void apply(TransferDirection direction, const double *in, double *out) override
  {
    const bool forward = direction == TransferDirection::Forward;
    const std::size_t n_in = forward ? data_.n_cols : data_.n_rows, n_out = forward ? data_.n_rows : data_.n_cols;
    cuda::Buffer din(sizeof(double) * std::max<std::size_t>(n_in, 1)), dout(sizeof(double) * std::max<std::size_t>(n_out, 1));
    if (n_in) din.upload(in, sizeof(double) * n_in);
    if (n_out) dout.upload(out, sizeof(double) * n_out);
    apply_device(direction, din.device_pointer(), dout.device_pointer());
    if (n_out) dout.download(out, sizeof(double) * n_out);
  }

 private:
  std::vector<kernel::Kernel> kernels_;
  std::vector<std::unique_ptr<cuda::Module>> modules_;
  cuda::Buffer table_, row_weight_;
  std::shared_ptr<cuda::Buffer> row_map_, col_map_;  // maybe the Mats' own device maps (device_indices)
};

}  // namespace

std::unique_ptr<TransferBackend> make_cuda_transfer(TransferData data, int device)
{
  return std::make_unique<CudaTransfer>(std::move(data), device);
}

}  // namespace femgpu
