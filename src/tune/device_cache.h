// The device probe's result and its JSON cache file (no GPU needed here).
//
// Takes: a DeviceProbe (to write); the file's text and the ProbeKey of the device now
// in use (to read).
// Returns: the JSON text; the probe, only when the file is complete, well-formed,
// plausible and was written under the same key; otherwise nullopt and why.
// Does not: read or write files, or measure (device_probe.h does both). The one
// environment read is in default_cache_path (XDG_CACHE_HOME, then HOME).
//
// The file is one flat JSON object (json_lite.h): "format", the key ("femgpu_version",
// "device", "arch", "driver_version", "nvrtc_version"), every DeviceParams number
// under its field name, and the evidence ("multiprocessors", "runs", "global_bytes",
// "saturation_fraction", "probe_seconds", "warps_per_multiprocessor" and the two
// bandwidth curves in bytes/s). Unknown keys make the file invalid.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tune/cost_model.h"
#include "tune/probe_analysis.h"

namespace femgpu {

// Everything besides the hardware that changes what the probe measures.
struct ProbeKey {
  std::string device;          // the driver's device name
  std::string arch;            // sm_90
  int driver_version = 0;      // cuDriverGetVersion: 1000 * major + 10 * minor
  std::string nvrtc_version;   // "13.0"
  std::string femgpu_version;  // femgpu_version()
};

struct DeviceProbe {
  ProbeKey key;
  DeviceParams params;
  int multiprocessors = 0;
  int runs = 0;                    // timed runs per point (the median is kept)
  double global_bytes = 0;         // bytes read per DRAM measurement
  double saturation_fraction = 0;  // SG_sat threshold, of the peak
  double probe_seconds = 0;        // wall time of the whole probe
  // Bandwidth with one block of 32 w threads per multiprocessor, w ascending.
  std::vector<BandwidthPoint> global_curve, local_curve;
};

const char *femgpu_version();  // PROJECT_VERSION from CMake

std::string device_cache_json(const DeviceProbe &probe);
std::optional<DeviceProbe> parse_device_cache(const std::string &text, const ProbeKey &expected, std::string *why);

// "device-<name>-<arch>.json" with every character outside [A-Za-z0-9._-] as '-'.
std::string cache_file_name(const std::string &device, const std::string &arch);
// $XDG_CACHE_HOME/femgpu/<cache_file_name>, else ~/.cache/femgpu/...; throws when
// neither variable is set.
std::string default_cache_path(const std::string &device, const std::string &arch);

}  // namespace femgpu
