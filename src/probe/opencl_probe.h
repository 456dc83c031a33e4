// The device probe for OpenCL devices: the cost model's DeviceParams measured with the
// OpenCL C kernels of share/femgpu/device/probe_kernels.cl on the device the OpenCL
// backend uses (the first device of the first platform), and its cache.
//
// Takes: OpenCLProbeOptions; for the cache, a file path.
// Returns: DeviceParams with the DeviceProbe's evidence (device_cache.h):
//   beta_global  global memory read, grid-stride sum with 64-byte (double8) loads of a
//                buffer sized from the device's cache (opencl_probe_global_bytes);
//   beta_local   __local read, 16-byte loads of a 16 KiB array, rows of 32 work-items;
//   beta_ldg     re-reads of a 32 KiB read-only __global table (CUDA: __ldg);
//   flops_peak   FP64, 8 independent fma chains per work-item (2 FLOP per fma);
//   sg_sat_*     SG_sat (probe_analysis.h) from global and local bandwidth with one
//                work-group per compute unit of W, 2W, 4W, ... work-items, W the
//                sub-group width (below);
//   subgroup_width  CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE of the global read
//                kernel: OpenCL 1.2 has no sub-group query, and this is the SIMD width
//                the driver schedules work-items in (8 doubles on PoCL with AVX-512,
//                the warp or wavefront on GPUs);
//   local_max_bytes, local_max_per_group  CL_DEVICE_LOCAL_MEM_SIZE (OpenCL gives only
//                the per-group limit; a compute unit holds at least that);
//   threads_max  CL_DEVICE_MAX_WORK_GROUP_SIZE;
//   groups_max   not queryable in OpenCL, so a rule: 1 on a CPU (a compute unit is one
//                thread running one work-group at a time; PoCL's pthread device), else
//                the cost model's default. The cache's "limits_note" says which.
// The peaks launch groups_per_unit work-groups of `group` work-items per compute unit.
// Every value is the median of `runs` launches after `warmup` ones, queued back to
// back and timed with profiling events; the local, table and FMA kernels repeat their
// loop until one launch takes min_launch_ms. Every launch's output is checked (the
// doubles read, the FMA result) before it is used.
// Throws: std::runtime_error (no OpenCL device, no cl_khr_fp64, a build failure, a
// wrong kernel result, a missing kernel file), std::invalid_argument (options).
// Does not: choose schedules; keep global state.
#pragma once

#include <cstddef>
#include <string>

#include "runtime/opencl_profiling.h"
#include "tune/cost_model.h"
#include "probe/device_cache.h"
#include "probe/probe_cache.h"

namespace femgpu {

struct OpenCLProbeOptions {
  std::size_t global_bytes = 0;  // 0: opencl_probe_global_bytes(device)
  int runs = 9;
  int warmup = 2;
  int group = 256;               // work-items per group for the peaks (lowered to the device's limit)
  int groups_per_unit = 4;       // work-groups per compute unit for the peaks
  int max_sweep_items = 1024;    // the curves stop at this many work-items per compute unit
  double min_launch_ms = 1.0;
  double saturation_fraction = 0.9;
  std::string share_dir;         // empty: default_share_dir()
};

std::string opencl_probe_kernel_source(const std::string &share_dir);
// Throws std::runtime_error naming the device when it has no cl_khr_fp64.
void require_opencl_fp64(const OpenCLDeviceInfo &info);
const char *const *opencl_probe_kernel_names();  // nullptr-terminated

// Four times the reported global-memory cache (so the reads come from memory), at least
// 16 MiB, at most 256 MiB and a quarter of the largest allocation: 128 MiB on PoCL with
// a 32 MiB cache. Seconds on a CPU, not the CUDA probe's 1 GiB.
std::size_t opencl_probe_global_bytes(const OpenCLDeviceInfo &info);

// The ProbeKey of the OpenCL device now: backend "opencl", CL_DEVICE_NAME,
// CL_DEVICE_VERSION (as arch), CL_DRIVER_VERSION, femgpu's version.
ProbeKey current_opencl_probe_key();

DeviceProbe probe_opencl_device_report(const OpenCLProbeOptions &options);

// The cached probe at `cache_path` (empty: default_cache_path of the key) when it is
// valid for this device, driver and femgpu; otherwise (or with `force`) probes and
// rewrites the file (probe_cache.h).
CachedProbe load_or_probe_opencl_report(const std::string &cache_path, bool force, const OpenCLProbeOptions &options = {});

}  // namespace femgpu
