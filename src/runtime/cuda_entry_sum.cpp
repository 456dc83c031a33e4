// The CUDA COO entry sum (entry_sum.h): the kernel compiled with NVRTC for the device,
// jmap and perm uploaded once, the sums in a buffer of its own.
#include <algorithm>

#include "kernel/entry_sum.h"
#include "runtime/cuda_driver.h"
#include "runtime/entry_sum.h"
#include "runtime/nvrtc_compile.h"

namespace femgpu {

namespace {

class CudaEntrySum : public DeviceEntrySum {
 public:
  // perm: jmap[n_unique] indices of perm_bytes (8 or 4) each.
  CudaEntrySum(const std::int64_t *jmap, std::size_t n_unique, const void *perm, int perm_bytes, int device)
      : info_(cuda::open_device(device)),  // first: the buffers below need its context current
        n_unique_(static_cast<long long>(n_unique)),
        jmap_(sizeof(std::int64_t) * (n_unique + 1)),
        perm_(static_cast<std::size_t>(perm_bytes) * static_cast<std::size_t>(std::max<std::int64_t>(jmap[n_unique], 1)))
  {
    module_ = std::make_unique<cuda::Module>(
        compile_cubin_kept(kernel::entry_sum_cuda_source(perm_bytes), kernel::kEntrySumKernel, info_.arch()), kernel::kEntrySumKernel);
    jmap_.upload(jmap, sizeof(std::int64_t) * (n_unique + 1));
    if (jmap[n_unique] > 0) perm_.upload(perm, static_cast<std::size_t>(perm_bytes) * static_cast<std::size_t>(jmap[n_unique]));
  }

  unsigned long long sum(unsigned long long cell_values) override
  {
    if (!out_.size()) out_ = cuda::Buffer(sizeof(double) * static_cast<std::size_t>(std::max<long long>(n_unique_, 1)));
    sum_into(cell_values, out_.device_pointer());
    return out_.device_pointer();
  }

  void sum_into(unsigned long long cell_values, unsigned long long out) override
  {
    if (n_unique_ == 0) return;
    cuda::synchronize();  // whoever read the previous sums (PETSc, on its own stream) is done
    unsigned long long pointers[4] = {jmap_.device_pointer(), perm_.device_pointer(), cell_values, out};
    void *params[5] = {&n_unique_, &pointers[0], &pointers[1], &pointers[2], &pointers[3]};
    const long long groups = (n_unique_ + kernel::kEntrySumBlock - 1) / kernel::kEntrySumBlock;
    module_->launch(static_cast<unsigned>(groups), kernel::kEntrySumBlock, 1, 0, params);
    cuda::synchronize();  // complete before another stream reads them
  }

 private:
  cuda::DeviceInfo info_;
  long long n_unique_;
  cuda::Buffer jmap_, perm_, out_;
  std::unique_ptr<cuda::Module> module_;
};

}  // namespace

std::unique_ptr<DeviceEntrySum> make_cuda_entry_sum(const std::int64_t *jmap, std::size_t n_unique, const std::int64_t *perm, int device)
{
  return std::make_unique<CudaEntrySum>(jmap, n_unique, perm, 8, device);
}

std::unique_ptr<DeviceEntrySum> make_cuda_entry_sum(const std::int64_t *jmap, std::size_t n_unique, const std::int32_t *perm, int device)
{
  return std::make_unique<CudaEntrySum>(jmap, n_unique, perm, 4, device);
}

}  // namespace femgpu
