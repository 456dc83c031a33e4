// The process-wide kernel binary store (kernel_binary_store.h), behind a mutex: the
// tuner's worker threads and the PETSc layer may reach it at once.
#include "runtime/kernel_binary_store.h"

#include <mutex>

namespace femgpu {

namespace {
std::mutex store_mutex;
std::shared_ptr<KernelBinaryStore> installed;
}  // namespace

void set_kernel_binary_store(std::shared_ptr<KernelBinaryStore> store)
{
  std::lock_guard<std::mutex> lock(store_mutex);
  installed = std::move(store);
}

std::shared_ptr<KernelBinaryStore> kernel_binary_store()
{
  std::lock_guard<std::mutex> lock(store_mutex);
  return installed;
}

}  // namespace femgpu
