// The device probe's result and its JSON cache file (no GPU needed here).
//
// Takes: a DeviceProbe (to write); the file's text and the ProbeKey of the device now
// in use (to read).
// Returns: the JSON text; the probe, only when the file is complete, well-formed,
// plausible and was written under the same key; otherwise nullopt and why.
// Does not: read or write files, or measure (device_probe.h and opencl_probe.h do).
// The one environment read is in default_cache_path (XDG_CACHE_HOME, then HOME).
//
// The file is one flat JSON object (json_lite.h): "format", the key ("backend",
// "femgpu_version", "device", "arch", "driver_version" and, for CUDA, "nvrtc_version"),
// every DeviceParams number under its field name, and the evidence ("multiprocessors",
// "runs", "global_bytes", "saturation_fraction", "probe_seconds", "limits_note",
// "warps_per_multiprocessor" and the two bandwidth curves in bytes/s). A CUDA key's
// driver_version is cuDriverGetVersion's number, an OpenCL key's CL_DRIVER_VERSION's
// text; a file of one backend never reads as the other's. Unknown keys make the file
// invalid.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cache/cache_file.h"  // femgpu_version
#include "tune/cost_model.h"
#include "probe/probe_analysis.h"

namespace femgpu {

// Everything besides the hardware that changes what the probe measures.
struct ProbeKey {
  std::string device;          // the driver's device name (OpenCL: CL_DEVICE_NAME)
  std::string arch;            // CUDA: sm_90; OpenCL: CL_DEVICE_VERSION ("OpenCL 3.0 PoCL HSTR: ...")
  int driver_version = 0;      // CUDA: cuDriverGetVersion, 1000 * major + 10 * minor (OpenCL: 0)
  std::string nvrtc_version;   // CUDA: "13.0" (OpenCL: empty)
  std::string femgpu_version;  // femgpu_version()
  std::string backend = "cuda";          // "cuda" or "opencl"
  std::string opencl_driver_version;     // OpenCL: CL_DRIVER_VERSION ("3.1+debian"; CUDA: empty)

  static ProbeKey cuda(std::string device, std::string arch, int driver_version, std::string nvrtc_version, std::string femgpu_version)
  {
    ProbeKey k;
    k.device = std::move(device), k.arch = std::move(arch), k.driver_version = driver_version;
    k.nvrtc_version = std::move(nvrtc_version), k.femgpu_version = std::move(femgpu_version);
    return k;
  }
  static ProbeKey opencl(std::string device, std::string cl_version, std::string driver_version, std::string femgpu_version)
  {
    ProbeKey k;
    k.backend = "opencl", k.device = std::move(device), k.arch = std::move(cl_version);
    k.opencl_driver_version = std::move(driver_version), k.femgpu_version = std::move(femgpu_version);
    return k;
  }
};

struct DeviceProbe {
  ProbeKey key;
  DeviceParams params;
  int multiprocessors = 0;         // SMs; OpenCL: CL_DEVICE_MAX_COMPUTE_UNITS
  int runs = 0;                    // timed runs per point (the median is kept)
  double global_bytes = 0;         // bytes read per DRAM measurement
  double saturation_fraction = 0;  // SG_sat threshold, of the peak
  double probe_seconds = 0;        // wall time of the whole probe
  std::string limits_note;         // where the limits (local_max_*, groups_max, threads_max) came from
  // Bandwidth with one block of subgroup_width * w threads per multiprocessor (compute
  // unit), w ascending.
  std::vector<BandwidthPoint> global_curve, local_curve;
};

// The start of every version's "format": a file with it is a device cache a probe may
// replace (cache_file.h's has_format_header).
constexpr const char *kDeviceCacheFormatPrefix = "femgpu-device-params/";

std::string device_cache_json(const DeviceProbe &probe);
std::optional<DeviceProbe> parse_device_cache(const std::string &text, const ProbeKey &expected, std::string *why);

// "device-<name>-<arch>.json" with every character outside [A-Za-z0-9._-] as '-'.
std::string cache_file_name(const std::string &device, const std::string &arch);
// $XDG_CACHE_HOME/femgpu/<cache_file_name>, else ~/.cache/femgpu/...; throws when
// neither variable is set.
std::string default_cache_path(const std::string &device, const std::string &arch);
// The file of `key`: CUDA as above; OpenCL "device-opencl-<name>.json" (CL_DEVICE_VERSION
// is long and in the key already).
std::string default_cache_path(const ProbeKey &key);

}  // namespace femgpu
