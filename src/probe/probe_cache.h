// The cache flow both device probes share (device_probe.h for CUDA, opencl_probe.h for
// OpenCL): read the cache file when it is valid for this key, else probe and rewrite it.
//
// Takes: the ProbeKey of the device now in use, a file path (empty: default_cache_path
// of the key; with no cache folder, none: the probe runs and is not stored), `force`,
// and the probe to run when the file cannot be used.
// Returns: the probe, whether it came from the file or was written to it, and why a
// file was ignored or not written (I/O problems are reported, not thrown).
// Does not: measure anything itself; trust a file that parse_device_cache refuses.
#pragma once

#include <functional>
#include <string>

#include "probe/device_cache.h"

namespace femgpu {

struct CachedProbe {
  DeviceProbe probe;
  bool from_cache = false;
  bool written = false;  // a new probe was saved to `path`
  std::string path;  // "" when there is no cache folder
  std::string note;  // why a file was not used or not written; empty when all went well
};

// Writes under a lock and atomically, creating folders, and only over a missing file or
// a device-probe cache (cache_file.h): a foreign file, a link or a device is left alone.
CachedProbe load_or_probe_with(const ProbeKey &key, const std::string &cache_path, bool force,
                               const std::function<DeviceProbe()> &probe);

// "the probe cache PATH" or "a probe saved to PATH" (MatView and params_source say it).
std::string probe_source(const CachedProbe &c);

}  // namespace femgpu
