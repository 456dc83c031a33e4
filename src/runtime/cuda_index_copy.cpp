// The CUDA one-rank index copy (index_copy.h): the kernel compiled with NVRTC for the
// device (kept by the kernel binary store), the indices uploaded once.
#include <algorithm>

#include "kernel/index_copy.h"
#include "runtime/cuda_driver.h"
#include "runtime/index_copy.h"
#include "runtime/nvrtc_compile.h"

namespace femgpu {

namespace {

class CudaIndexCopy : public DeviceIndexCopy {
 public:
  CudaIndexCopy(const int *local_of_global, std::size_t n, int device)
      : info_(cuda::open_device(device)),  // first: the buffer below needs its context current
        n_(static_cast<long long>(n)),
        indices_(sizeof(int) * std::max<std::size_t>(n, 1))
  {
    module_ = std::make_unique<cuda::Module>(compile_cubin_kept(kernel::index_copy_cuda_source(), kernel::kIndexCopyKernel, info_.arch()),
                                             kernel::kIndexCopyKernel);
    if (n > 0) indices_.upload(local_of_global, sizeof(int) * n);
  }

  void to_local(unsigned long long global, unsigned long long local) override { run(global, local, 1); }
  void add_to_global(unsigned long long local, unsigned long long global) override { run(local, global, 0); }

 private:
  void run(unsigned long long src, unsigned long long dst, int to_local)
  {
    if (n_ == 0) return;
    cuda::synchronize();  // PETSc's stream may still be writing src
    unsigned long long indices = indices_.device_pointer();
    void *params[5] = {&n_, &indices, &src, &dst, &to_local};
    const long long groups = (n_ + kernel::kIndexCopyBlock - 1) / kernel::kIndexCopyBlock;
    module_->launch(static_cast<unsigned>(groups), kernel::kIndexCopyBlock, 1, 0, params);
    cuda::synchronize();  // complete before PETSc reads dst on its stream
  }

  cuda::DeviceInfo info_;
  long long n_;
  cuda::Buffer indices_;
  std::unique_ptr<cuda::Module> module_;
};

}  // namespace

std::unique_ptr<DeviceIndexCopy> make_cuda_index_copy(const int *local_of_global, std::size_t n, int device)
{
  return std::make_unique<CudaIndexCopy>(local_of_global, n, device);
}

}  // namespace femgpu
