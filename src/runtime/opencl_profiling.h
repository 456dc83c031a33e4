// Timed OpenCL launches for the device probe: the device OpenCLRuntime uses (the first
// device of the first platform), its limits, one program built from source, device
// buffers, and kernels launched back to back on an in-order queue with
// CL_QUEUE_PROFILING_ENABLE, each run's time read from its event.
//
// Takes: OpenCL C source; kernel names, arguments and launch shapes.
// Returns: device limits (clGetDeviceInfo), per-run milliseconds, buffer contents.
// Throws: std::runtime_error with the failing call and its error code, or the build log.
// Does not: know what the kernels measure (probe/opencl_probe.h does).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "runtime/opencl_runtime.h"

namespace femgpu {

struct OpenCLDeviceInfo {
  OpenCLDeviceId id;                  // CL_DEVICE_NAME, CL_DEVICE_VERSION, CL_DRIVER_VERSION
  std::string type;                   // "CPU", "GPU", "accelerator" or "other" (CL_DEVICE_TYPE)
  int compute_units = 0;              // CL_DEVICE_MAX_COMPUTE_UNITS
  std::size_t max_work_group_size = 0;  // CL_DEVICE_MAX_WORK_GROUP_SIZE
  double local_mem_bytes = 0;         // CL_DEVICE_LOCAL_MEM_SIZE (per work-group)
  double global_mem_bytes = 0;        // CL_DEVICE_GLOBAL_MEM_SIZE
  double global_cache_bytes = 0;      // CL_DEVICE_GLOBAL_MEM_CACHE_SIZE (0: none reported)
  double max_alloc_bytes = 0;         // CL_DEVICE_MAX_MEM_ALLOC_SIZE
  bool fp64 = false;                  // cl_khr_fp64 in CL_DEVICE_EXTENSIONS
};

OpenCLDeviceInfo opencl_device_info();

// One kernel argument: a device buffer (by index) or a value copied at launch.
struct LaunchArg {
  int buffer = -1;
  std::vector<unsigned char> bytes;
  static LaunchArg of_buffer(int index) { return {index, {}}; }
  template <class T> static LaunchArg value(const T &x)
  {
    const auto *p = reinterpret_cast<const unsigned char *>(&x);
    return {-1, std::vector<unsigned char>(p, p + sizeof(T))};
  }
};

class OpenCLProfiler {
 public:
  // Builds `source` (throws with the build log on failure).
  explicit OpenCLProfiler(const std::string &source);
  ~OpenCLProfiler();
  OpenCLProfiler(const OpenCLProfiler &) = delete;
  OpenCLProfiler &operator=(const OpenCLProfiler &) = delete;

  const OpenCLDeviceInfo &info() const;
  // CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE and CL_KERNEL_WORK_GROUP_SIZE.
  std::size_t preferred_multiple(const std::string &kernel) const;
  std::size_t max_group_size(const std::string &kernel) const;

  int buffer(std::size_t bytes);  // a new device buffer's index
  void upload(int buffer, const void *data, std::size_t bytes);
  void download(int buffer, void *data, std::size_t bytes) const;

  // `warmup` untimed launches, then `runs` timed ones, queued back to back; each run's
  // milliseconds (CL_PROFILING_COMMAND_END - START). groups * group_size work-items.
  std::vector<double> time(const std::string &kernel, const std::vector<LaunchArg> &args, std::size_t groups,
                           std::size_t group_size, int warmup, int runs);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace femgpu
