// The CUDA index copies (index_copy.h): both kernels from one NVRTC compile, the index
// uploaded once, a staging buffer for host values.
#include <algorithm>

#include "kernel/index_copy.h"
#include "runtime/cuda_driver.h"
#include "runtime/index_copy.h"
#include "runtime/nvrtc_compile.h"

namespace femgpu {

namespace {

class CudaIndexCopy : public DeviceIndexCopy {
 public:
  CudaIndexCopy(const int *index, std::size_t n, int device)
      : info_(cuda::open_device(device)),  // first: the buffers below need its context current
        n_(static_cast<long long>(n)),
        index_(sizeof(int) * std::max<std::size_t>(n, 1))
  {
    const std::vector<char> cubin = compile_cubin_kept(kernel::index_copy_cuda_source(), kernel::kIndexInsertKernel, info_.arch());
    insert_ = std::make_unique<cuda::Module>(cubin, kernel::kIndexInsertKernel);
    add_ = std::make_unique<cuda::Module>(cubin, kernel::kIndexAddKernel);
    if (n > 0) index_.upload(index, sizeof(int) * n);
  }

  std::size_t size() const override { return static_cast<std::size_t>(n_); }
  void insert(unsigned long long in, unsigned long long out) override { run(*insert_, in, out); }
  void add(unsigned long long in, unsigned long long out) override { run(*add_, in, out); }

  void insert_host(const double *values, unsigned long long out) override
  {
    if (n_ == 0) return;
    if (!values_.size()) values_ = cuda::Buffer(sizeof(double) * static_cast<std::size_t>(n_));
    cuda::synchronize();  // whoever read the previous values is done
    values_.upload(values, sizeof(double) * static_cast<std::size_t>(n_));
    run(*insert_, values_.device_pointer(), out);
  }

 private:
  void run(const cuda::Module &kernel, unsigned long long in, unsigned long long out)
  {
    if (n_ == 0) return;
    cuda::synchronize();  // PETSc's writes of in and out (on its stream) are done
    unsigned long long pointers[3] = {index_.device_pointer(), in, out};
    void *params[4] = {&n_, &pointers[0], &pointers[1], &pointers[2]};
    const long long groups = (n_ + kernel::kIndexCopyBlock - 1) / kernel::kIndexCopyBlock;
    kernel.launch(static_cast<unsigned>(groups), kernel::kIndexCopyBlock, 1, 0, params);
    cuda::synchronize();  // complete before another stream reads out
  }

  cuda::DeviceInfo info_;
  long long n_;
  cuda::Buffer index_, values_;
  std::unique_ptr<cuda::Module> insert_, add_;
};

}  // namespace

std::unique_ptr<DeviceIndexCopy> make_cuda_index_copy(const int *index, std::size_t n, int device)
{
  return std::make_unique<CudaIndexCopy>(index, n, device);
}

}  // namespace femgpu
