// The CPU and OpenCL transfer backends and the factory; CUDA's is cuda_transfer.cpp.
#include "runtime/transfer_backend.h"

#include <stdexcept>

#include "kernel/build_transfer.h"
#include "kernel/emit.h"
#include "reference/reference_transfer.h"
#include "runtime/action_buffers.h"
#include "runtime/opencl_runtime.h"

namespace femgpu {

#ifdef FEMGPU_HAVE_CUDA
std::unique_ptr<TransferBackend> make_cuda_transfer(TransferData data, int device);  // cuda_transfer.cpp
#endif

TransferArrays TransferData::arrays() const
{
  TransferArrays a;
  a.shape = shape;
  a.table = table;
  a.n_cells = n_cells;
  a.row_map = row_map.data;
  a.col_map = col_map.data;
  a.row_weight = row_weight.data();
  return a;
}

void TransferBackend::apply_device(TransferDirection, unsigned long long, unsigned long long)
{
  throw std::logic_error("the " + name() + " transfer backend has no device arrays");
}

namespace {

class ReferenceTransfer : public TransferBackend {
 public:
  explicit ReferenceTransfer(TransferData data) : TransferBackend(std::move(data)), arrays_(data_.arrays()) {}
  std::string name() const override { return "cpu"; }
  void apply(TransferDirection direction, const double *in, double *out) override
  {
    reference_transfer(arrays_, direction, in, out);
  }

 private:
  TransferArrays arrays_;
};

template <class T> HostArgument bytes_of(const T *values, std::size_t n, ArgKind kind = ArgKind::Values)
{
  HostArgument h;
  h.kind = kind;
  const auto *first = reinterpret_cast<const unsigned char *>(values);
  h.bytes.assign(first, first + sizeof(T) * std::max<std::size_t>(n, 1));  // never empty (action_buffers.h)
  if (n == 0) std::fill(h.bytes.begin(), h.bytes.end(), 0);
  return h;
}

// The generated kernels through OpenCL: arrays are sent on every call, as the OpenCL
// action does (OpenCLRuntime keeps no buffers between calls).
class OpenCLTransfer : public TransferBackend {
 public:
  explicit OpenCLTransfer(TransferData data) : TransferBackend(std::move(data))
  {
    for (auto d : {TransferDirection::Forward, TransferDirection::Transpose}) {
      kernels_.push_back(kernel::build_transfer(data_.shape, d));
      sources_.push_back(kernel::emit_opencl(kernels_.back()));
    }
  }
  std::string name() const override { return "opencl"; }
  void apply(TransferDirection direction, const double *in, double *out) override
  {
    if (data_.n_cells == 0) return;
    const bool forward = direction == TransferDirection::Forward;
    const std::size_t n_in = forward ? data_.n_cols : data_.n_rows, n_out = forward ? data_.n_rows : data_.n_cols;
    HostArgument cells;
    cells.kind = ArgKind::CellCount;
    cells.scalar = data_.n_cells;
    std::vector<HostArgument> host{cells,
                                   bytes_of(data_.table.data(), data_.table.size()),
                                   bytes_of(data_.row_map.data, data_.row_map.size),
                                   bytes_of(data_.col_map.data, data_.col_map.size),
                                   bytes_of(data_.row_weight.data(), data_.row_weight.size()),
                                   bytes_of(in, n_in),
                                   bytes_of(out, n_out, ArgKind::Out)};
    const std::size_t k = forward ? 0 : 1;
    runtime_.run(kernels_[k], sources_[k], host, data_.n_cells, out, n_out);
  }

 private:
  OpenCLRuntime runtime_;
  std::vector<kernel::Kernel> kernels_;
  std::vector<std::string> sources_;
};

}  // namespace

std::unique_ptr<TransferBackend> make_transfer_backend(const std::string &backend, TransferData data, int cuda_device)
{
  if (backend == "cpu") return std::make_unique<ReferenceTransfer>(std::move(data));
  if (backend == "opencl") return std::make_unique<OpenCLTransfer>(std::move(data));
#ifdef FEMGPU_HAVE_CUDA
  if (backend == "cuda") return make_cuda_transfer(std::move(data), cuda_device);
#else
  (void)cuda_device;
#endif
  throw std::invalid_argument("no transfer backend '" + backend + "' in this build (cpu, opencl" +
#ifdef FEMGPU_HAVE_CUDA
                              std::string(", cuda)")
#else
                              std::string(")")
#endif
  );
}

}  // namespace femgpu
