// The device probe: the cost model's DeviceParams measured on the GPU with small
// NVRTC-compiled kernels (share/femgpu/device/probe_kernels.cuh), and its cache.
//
// Takes: a CUDA device ordinal, ProbeOptions; for the cache, a file path.
// Returns: DeviceParams (or the DeviceProbe with its evidence):
//   beta_global  DRAM read, grid-stride sum of a >= 1 GiB buffer with 16-byte loads;
//   beta_local   shared memory read, conflict-free 16-byte loads of a 16 KiB array;
//   beta_ldg     L1 / read-only cache, __ldg re-reads of a 32 KiB table;
//   flops_peak   FP64, 8 independent fma chains per thread (2 FLOP per fma);
//   sg_sat_*     SG_sat (probe_analysis.h) from DRAM and shared-memory bandwidth with
//                one block of 32, 64, ..., max threads per multiprocessor;
//   local_max_bytes, local_max_per_group, groups_max, threads_max: the driver's limits
//                (shared memory per SM, opt-in shared memory per block, resident blocks
//                per SM, threads per block).
// Bandwidths are bytes/s and peaks use every SM at full occupancy (256-thread blocks);
// each value is the median of `runs` CUDA-event-timed launches after `warmup` ones,
// and every launch's output is checked (read counts, FMA results) before it is used.
// Throws: cuda::CudaError (no driver or device), std::runtime_error (NVRTC, a wrong
// kernel result, a missing kernel file). Does not: choose schedules; keep global state.
#pragma once

#include <cstddef>
#include <string>

#include "tune/cost_model.h"
#include "probe/device_cache.h"
#include "probe/probe_cache.h"

namespace femgpu {

struct ProbeOptions {
  std::size_t global_bytes = std::size_t(1) << 30;  // DRAM buffer, >> L2
  int runs = 9;
  int warmup = 2;
  int block = 256;              // threads per block for the full-occupancy peaks
  int shared_repeats = 1024;    // outer iterations: 256 B per thread each
  int ldg_repeats = 512;        // 512 B per thread each
  int fma_repeats = 4096;       // 8 fma per thread each
  double saturation_fraction = 0.9;
  std::string share_dir;        // empty: default_share_dir()
};

// The probe kernels' source and names (compiled by the probe; tested with NVRTC).
std::string probe_kernel_source(const std::string &share_dir);
const char *const *probe_kernel_names();  // nullptr-terminated

// The ProbeKey of device `ordinal` now (opens the device).
ProbeKey current_probe_key(int ordinal);

DeviceProbe probe_device_report(int ordinal, const ProbeOptions &options);
DeviceParams probe_device(int ordinal, const ProbeOptions &options);

// The cached probe at `cache_path` (empty: default_cache_path) when it is valid for
// this device, driver, NVRTC and femgpu; otherwise (or with `force`) probes and
// rewrites the file (probe_cache.h). A file that cannot be written is reported in
// `note`, not thrown.
CachedProbe load_or_probe_report(int ordinal, const std::string &cache_path, bool force, const ProbeOptions &options = {});
DeviceParams load_or_probe(int ordinal, const std::string &cache_path, bool force);

}  // namespace femgpu
