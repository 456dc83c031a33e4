// CUDA driver API calls, each checked; errors carry the call and CUDA's own words.
#include "runtime/cuda_driver.h"
#include "runtime/setup_phases.h"

#include <cuda.h>
#include <dlfcn.h>

#include <utility>

namespace femgpu::cuda {

namespace {

// The driver is loaded at run time, so that femgpu builds and runs (CPU backends) on
// machines without an NVIDIA driver. cuda.h maps some names to versioned symbols
// (cuMemAlloc -> cuMemAlloc_v2): NAME_OF expands the macro before quoting.
#define FEMGPU_STR2(x) #x
#define NAME_OF(x) FEMGPU_STR2(x)
#define FEMGPU_DRIVER_FUNCTIONS(X)                                                                          \
  X(cuInit) X(cuDeviceGetCount) X(cuDeviceGet) X(cuDevicePrimaryCtxRetain) X(cuCtxSetCurrent)              \
  X(cuDeviceGetName) X(cuDeviceGetAttribute) X(cuDeviceTotalMem) X(cuGetErrorName) X(cuGetErrorString)    \
  X(cuModuleLoadData) X(cuModuleGetFunction) X(cuModuleUnload) X(cuFuncGetAttribute) X(cuFuncSetAttribute) \
  X(cuLaunchKernel) X(cuMemAlloc) X(cuMemFree) X(cuMemcpyHtoD) X(cuMemcpyDtoH) X(cuMemcpyDtoD)             \
  X(cuCtxSynchronize) X(cuEventCreate) X(cuEventDestroy) X(cuEventRecord) X(cuEventSynchronize)           \
  X(cuEventElapsedTime) X(cuMemGetInfo) X(cuMemsetD8) X(cuDriverGetVersion) X(cuCtxGetDevice)

struct Driver {
#define FEMGPU_DECLARE(f) decltype(&f) f##_ = nullptr;
  FEMGPU_DRIVER_FUNCTIONS(FEMGPU_DECLARE)
#undef FEMGPU_DECLARE
  bool loaded = false;
  std::string error;
};

const Driver &driver()
{
  static Driver d = [] {
    Driver r;
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (!h) {
      r.error = std::string("cannot load the CUDA driver (libcuda.so.1): ") + dlerror();
      return r;
    }
#define FEMGPU_LOAD(f) r.f##_ = reinterpret_cast<decltype(&f)>(dlsym(h, NAME_OF(f)));
    FEMGPU_DRIVER_FUNCTIONS(FEMGPU_LOAD)
#undef FEMGPU_LOAD
    r.loaded = r.cuInit_ && r.cuLaunchKernel_ && r.cuMemGetInfo_;
    if (!r.loaded) r.error = "the CUDA driver lacks functions femgpu needs";
    return r;
  }();
  return d;
}

const Driver &use()
{
  const Driver &d = driver();
  if (!d.loaded) throw CudaError(d.error);
  return d;
}

void check(CUresult r, const char *call)
{
  if (r == CUDA_SUCCESS) return;
  const char *name = nullptr, *text = nullptr;
  driver().cuGetErrorName_(r, &name);
  driver().cuGetErrorString_(r, &text);
  std::string msg = std::string(call) + " failed: " + (name ? name : "?") + " (" + (text ? text : "no description") + ")";
  if (r == CUDA_ERROR_OUT_OF_MEMORY) throw DeviceOutOfMemory("GPU out of memory: " + msg);
  throw CudaError(msg);
}

#define FEMGPU_CU(call) check((call), #call)

int attribute(CUdevice dev, CUdevice_attribute a)
{
  int v = 0;
  FEMGPU_CU(use().cuDeviceGetAttribute_(&v, a, dev));
  return v;
}

}  // namespace

bool device_available()
{
  const Driver &d = driver();
  int n = 0;
  return d.loaded && d.cuInit_(0) == CUDA_SUCCESS && d.cuDeviceGetCount_(&n) == CUDA_SUCCESS && n > 0;
}

int device_count()
{
  const Driver &d = driver();
  int n = 0;
  if (!d.loaded || d.cuInit_(0) != CUDA_SUCCESS || d.cuDeviceGetCount_(&n) != CUDA_SUCCESS) return 0;
  return n;
}

int driver_version()
{
  int version = 0;
  FEMGPU_CU(use().cuDriverGetVersion_(&version));
  return version;
}

DeviceInfo open_device(int ordinal)
{
  FEMGPU_CU(use().cuInit_(0));
  CUdevice dev;
  FEMGPU_CU(use().cuDeviceGet_(&dev, ordinal));
  CUcontext ctx;
  FEMGPU_CU(use().cuDevicePrimaryCtxRetain_(&ctx, dev));
  FEMGPU_CU(use().cuCtxSetCurrent_(ctx));
  return device_info(ordinal);
}

DeviceInfo device_info(int ordinal)
{
  CUdevice dev;
  FEMGPU_CU(use().cuDeviceGet_(&dev, ordinal));
  DeviceInfo info;
  char name[256] = {0};
  FEMGPU_CU(use().cuDeviceGetName_(name, sizeof(name) - 1, dev));
  info.name = name;
  info.ordinal = ordinal;
  info.major = attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  info.minor = attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  info.multiprocessors = attribute(dev, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  info.max_threads_per_group = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  info.shared_per_group_optin = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  info.shared_per_multiprocessor = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
  info.max_groups_per_multiprocessor = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR);
  info.max_threads_per_multiprocessor = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
  info.registers_per_multiprocessor = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
  info.reserved_shared_per_group = attribute(dev, CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK);
  info.memory_clock_khz = attribute(dev, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
  info.bus_width_bits = attribute(dev, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
  FEMGPU_CU(use().cuDeviceTotalMem_(&info.total_memory, dev));
  return info;
}

int current_device()
{
  CUdevice dev;
  FEMGPU_CU(use().cuCtxGetDevice_(&dev));
  return static_cast<int>(dev);
}

Module::Module(const std::vector<char> &cubin, const std::string &kernel_name)
{
  CUmodule m;
  FEMGPU_CU(use().cuModuleLoadData_(&m, cubin.data()));
  module_ = m;
  CUfunction f;
  CUresult r = use().cuModuleGetFunction_(&f, m, kernel_name.c_str());
  if (r != CUDA_SUCCESS) {
    use().cuModuleUnload_(m);
    check(r, ("use().cuModuleGetFunction_(" + kernel_name + ")").c_str());
  }
  function_ = f;
}

Module::~Module()
{
  if (module_) use().cuModuleUnload_(static_cast<CUmodule>(module_));
}

KernelResources Module::resources() const
{
  KernelResources r;
  auto f = static_cast<CUfunction>(function_);
  FEMGPU_CU(use().cuFuncGetAttribute_(&r.registers, CU_FUNC_ATTRIBUTE_NUM_REGS, f));
  FEMGPU_CU(use().cuFuncGetAttribute_(&r.local_bytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f));
  FEMGPU_CU(use().cuFuncGetAttribute_(&r.static_shared_bytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f));
  FEMGPU_CU(use().cuFuncGetAttribute_(&r.max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f));
  return r;
}

void Module::prefer_shared_percent(int percent) const
{
  FEMGPU_CU(use().cuFuncSetAttribute_(static_cast<CUfunction>(function_), CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, percent));
}

void Module::launch(unsigned grid, unsigned block_x, unsigned block_y, unsigned dynamic_shared, void **params) const
{
  auto f = static_cast<CUfunction>(function_);
  if (dynamic_shared > 48 * 1024)  // above 48 KiB a kernel must opt in
    FEMGPU_CU(use().cuFuncSetAttribute_(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, static_cast<int>(dynamic_shared)));
  if (grid == 0) return;
  if (injected_faults().launch) block_x = 0;  // the driver's own CUDA_ERROR_INVALID_VALUE
  FEMGPU_CU(use().cuLaunchKernel_(f, grid, 1, 1, block_x, block_y, 1, dynamic_shared, nullptr, params, nullptr));
}

// Bytes held by live Buffers, for the injected memory cap (device_faults.h).
static std::size_t live_buffer_bytes = 0;

Buffer::Buffer(std::size_t bytes) : bytes_(bytes)
{
  CUdeviceptr p = 0;
  check_injected_memory_cap(live_buffer_bytes, bytes, "cuMemAlloc");
  if (bytes) FEMGPU_CU(use().cuMemAlloc_(&p, bytes));
  ptr_ = p;
  live_buffer_bytes += bytes;
}

Buffer::~Buffer()
{
  if (ptr_) use().cuMemFree_(static_cast<CUdeviceptr>(ptr_));
  live_buffer_bytes -= bytes_;
}

Buffer::Buffer(Buffer &&o) noexcept : ptr_(std::exchange(o.ptr_, 0)), bytes_(std::exchange(o.bytes_, 0)) {}

Buffer &Buffer::operator=(Buffer &&o) noexcept
{
  if (this != &o) {
    if (ptr_) use().cuMemFree_(static_cast<CUdeviceptr>(ptr_));
    live_buffer_bytes -= bytes_;
    ptr_ = std::exchange(o.ptr_, 0);
    bytes_ = std::exchange(o.bytes_, 0);
  }
  return *this;
}

void Buffer::upload(const void *host, std::size_t bytes, std::size_t offset)
{
  if (offset + bytes > bytes_) throw CudaError("Buffer::upload: " + std::to_string(offset + bytes) + " bytes into a buffer of " + std::to_string(bytes_));
  if (bytes) FEMGPU_CU(use().cuMemcpyHtoD_(static_cast<CUdeviceptr>(ptr_ + offset), host, bytes));
  note_copy(true, bytes);
}

void Buffer::download(void *host, std::size_t bytes) const
{
  if (bytes > bytes_) throw CudaError("Buffer::download: " + std::to_string(bytes) + " bytes from a buffer of " + std::to_string(bytes_));
  if (bytes) FEMGPU_CU(use().cuMemcpyDtoH_(host, static_cast<CUdeviceptr>(ptr_), bytes));
  note_copy(false, bytes);
}

void copy_device(unsigned long long dst, unsigned long long src, std::size_t bytes)
{
  if (bytes) FEMGPU_CU(use().cuMemcpyDtoD_(static_cast<CUdeviceptr>(dst), static_cast<CUdeviceptr>(src), bytes));
}

void synchronize() { FEMGPU_CU(use().cuCtxSynchronize_()); }

void memset_zero(unsigned long long dst, std::size_t bytes)
{
  if (bytes) FEMGPU_CU(use().cuMemsetD8_(static_cast<CUdeviceptr>(dst), 0, bytes));
}

std::size_t free_memory()
{
  std::size_t free = 0, total = 0;
  FEMGPU_CU(use().cuMemGetInfo_(&free, &total));
  return free;
}

std::size_t total_memory()
{
  std::size_t free = 0, total = 0;
  FEMGPU_CU(use().cuMemGetInfo_(&free, &total));
  return total;
}

EventTimer::EventTimer()
{
  CUevent a, b;
  FEMGPU_CU(use().cuEventCreate_(&a, CU_EVENT_DEFAULT));
  FEMGPU_CU(use().cuEventCreate_(&b, CU_EVENT_DEFAULT));
  start_ = a;
  stop_ = b;
}

EventSeries::EventSeries(int n)
{
  for (int i = 0; i < n; ++i) {
    CUevent e;
    FEMGPU_CU(use().cuEventCreate_(&e, CU_EVENT_DEFAULT));
    events_.push_back(e);
  }
}

EventSeries::~EventSeries()
{
  for (void *e : events_) use().cuEventDestroy_(static_cast<CUevent>(e));
}

void EventSeries::record(int i) { FEMGPU_CU(use().cuEventRecord_(static_cast<CUevent>(events_.at(static_cast<size_t>(i))), nullptr)); }

void EventSeries::synchronize(int i) { FEMGPU_CU(use().cuEventSynchronize_(static_cast<CUevent>(events_.at(static_cast<size_t>(i))))); }

double EventSeries::ms(int i) const
{
  float ms = 0;
  FEMGPU_CU(use().cuEventElapsedTime_(&ms, static_cast<CUevent>(events_.at(static_cast<size_t>(i))),
                                      static_cast<CUevent>(events_.at(static_cast<size_t>(i) + 1))));
  return ms;
}

EventTimer::~EventTimer()
{
  use().cuEventDestroy_(static_cast<CUevent>(start_));
  use().cuEventDestroy_(static_cast<CUevent>(stop_));
}

void EventTimer::start() { FEMGPU_CU(use().cuEventRecord_(static_cast<CUevent>(start_), nullptr)); }

double EventTimer::stop_ms()
{
  FEMGPU_CU(use().cuEventRecord_(static_cast<CUevent>(stop_), nullptr));
  FEMGPU_CU(use().cuEventSynchronize_(static_cast<CUevent>(stop_)));
  float ms = 0;
  FEMGPU_CU(use().cuEventElapsedTime_(&ms, static_cast<CUevent>(start_), static_cast<CUevent>(stop_)));
  return ms;
}

SmLimits sm_limits(const DeviceInfo &info)
{
  SmLimits sm;
  if (info.registers_per_multiprocessor > 0) sm.registers = info.registers_per_multiprocessor;
  if (info.shared_per_multiprocessor > 0) sm.shared_bytes = info.shared_per_multiprocessor;
  if (info.reserved_shared_per_group > 0) sm.shared_reserved_per_group = info.reserved_shared_per_group;
  if (info.max_groups_per_multiprocessor > 0) sm.max_groups = info.max_groups_per_multiprocessor;
  if (info.max_threads_per_multiprocessor > 0) sm.max_threads = info.max_threads_per_multiprocessor;
  return sm;
}

}  // namespace femgpu::cuda
