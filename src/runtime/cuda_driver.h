// A thin RAII layer over the CUDA driver API: the device, cubin modules, kernels with
// their resource usage, device buffers and event timing.
//
// Takes: cubins from nvrtc_compile; host data to upload.
// Returns: objects that free what they own; every failure throws CudaError naming the
// call and CUDA's message (DeviceOutOfMemory when the device is full).
// Does not: choose schedules or know forms. Uses the device's primary context, the one
// the CUDA runtime (and so PETSc) uses, so device pointers are shared with PETSc Vecs.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "tune/occupancy.h"
#include "runtime/device_faults.h"

namespace femgpu::cuda {

struct CudaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
using DeviceOutOfMemory = femgpu::DeviceOutOfMemory;  // shared with OpenCL (device_faults.h)

struct DeviceInfo {
  std::string name;
  int ordinal = 0;
  int major = 0, minor = 0;
  int multiprocessors = 0;
  int max_threads_per_group = 0;
  int shared_per_group_optin = 0;   // bytes a kernel may ask for
  int shared_per_multiprocessor = 0;
  int max_groups_per_multiprocessor = 0;
  int max_threads_per_multiprocessor = 0;
  int registers_per_multiprocessor = 0;
  int reserved_shared_per_group = 0;  // the driver's own shared memory in each group
  double memory_clock_khz = 0, bus_width_bits = 0;
  std::size_t total_memory = 0;
  std::string arch() const { return "sm_" + std::to_string(major) + std::to_string(minor); }
};

// The SM limits as the driver reports them for `info`'s device (tune/occupancy.h's
// defaults where it reports nothing).
SmLimits sm_limits(const DeviceInfo &info);

// True when a CUDA driver and at least one device are present (never throws).
bool device_available();
int device_count();  // 0 without a driver
// cuDriverGetVersion: 1000 * major + 10 * minor (13000 for CUDA 13.0); throws without a driver.
int driver_version();

// Makes device `ordinal`'s primary context current (initializing the driver once).
DeviceInfo open_device(int ordinal = 0);
// Device `ordinal`'s name and limits, without making a context current (the driver
// initialized by open_device).
DeviceInfo device_info(int ordinal);
// The ordinal of the current context's device (open_device made it current).
int current_device();

struct KernelResources {
  int registers = 0;
  int local_bytes = 0;   // per thread: register spills and stack
  int static_shared_bytes = 0;
  int max_threads = 0;
};

class Module {
 public:
  Module(const std::vector<char> &cubin, const std::string &kernel_name);
  ~Module();
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;
  KernelResources resources() const;
  // The share of the SM's unified L1/shared memory the kernel would like as shared memory,
  // in percent of the most it may have (CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT);
  // the rest is L1 cache.
  void prefer_shared_percent(int percent) const;
  // Launch with `params` pointing at each argument's value (as cuLaunchKernel wants).
  void launch(unsigned grid, unsigned block_x, unsigned block_y, unsigned dynamic_shared, void **params) const;

 private:
  void *module_ = nullptr;
  void *function_ = nullptr;
};

class Buffer {
 public:
  Buffer() = default;
  explicit Buffer(std::size_t bytes);
  ~Buffer();
  Buffer(Buffer &&o) noexcept;
  Buffer &operator=(Buffer &&o) noexcept;
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;

  void upload(const void *host, std::size_t bytes, std::size_t offset = 0);
  void download(void *host, std::size_t bytes) const;
  unsigned long long device_pointer() const { return ptr_; }
  std::size_t size() const { return bytes_; }

 private:
  unsigned long long ptr_ = 0;
  std::size_t bytes_ = 0;
};

// Copies between device pointers (e.g. PETSc's VECCUDA arrays).
void copy_device(unsigned long long dst, unsigned long long src, std::size_t bytes);
void synchronize();
void memset_zero(unsigned long long dst, std::size_t bytes);
std::size_t free_memory();
std::size_t total_memory();  // of the current context's device

// Milliseconds of GPU time between two events recorded around `work`.
class EventTimer {
 public:
  EventTimer();
  ~EventTimer();
  void start();
  double stop_ms();  // synchronizes

 private:
  void *start_ = nullptr, *stop_ = nullptr;
};

// Events recorded between launches queued back to back: record(0), launch, record(1),
// launch, ..., then ms(i) is the GPU time between events i and i + 1.
class EventSeries {
 public:
  explicit EventSeries(int n);
  ~EventSeries();
  EventSeries(const EventSeries &) = delete;
  EventSeries &operator=(const EventSeries &) = delete;
  int size() const { return static_cast<int>(events_.size()); }
  void record(int i);
  void synchronize(int i);
  double ms(int i) const;  // between events i and i + 1, both completed

 private:
  std::vector<void *> events_;
};

}  // namespace femgpu::cuda
