// Load-or-probe with the device cache file (see the header).
#include "probe/probe_cache.h"

#include <stdexcept>

#include "cache/cache_file.h"

namespace femgpu {

namespace {

// The file of `key` (an explicit path, else the default), or "" with why when there is
// no cache folder (neither XDG_CACHE_HOME nor HOME): then nothing is read or stored.
std::string probe_cache_path(const ProbeKey &key, const std::string &cache_path, std::string *note)
{
  if (!cache_path.empty()) return cache_path;
  try {
    return default_cache_path(key);
  } catch (const std::runtime_error &e) {
    *note = std::string(e.what()) + "; the probe is not stored";
    return "";
  }
}

bool is_probe_cache(const std::string &text) { return has_format_header(text, kDeviceCacheFormatPrefix); }

}  // namespace

CachedProbe load_or_probe_with(const ProbeKey &key, const std::string &cache_path, bool force,
                               const std::function<DeviceProbe()> &probe)
{
  CachedProbe r;
  r.path = probe_cache_path(key, cache_path, &r.note);
  const CacheFileText file = r.path.empty() || force ? CacheFileText{} : read_cache_file(r.path);
  if (force) {
    r.note += (r.note.empty() ? "" : "; ") + std::string("--force: cache not read");
  } else if (file.text) {
    std::string why;
    if (std::optional<DeviceProbe> cached = parse_device_cache(*file.text, key, &why)) {
      r.probe = std::move(*cached);
      r.from_cache = true;
      return r;
    }
    r.note = "ignored " + r.path + ": " + why;
  } else if (file.exists) {
    r.note = "ignored " + r.path + ": " + file.why;
  }
  r.probe = probe();
  if (r.path.empty()) return r;
  const std::string json = device_cache_json(r.probe);
  const std::string failed = update_cache_file(r.path, is_probe_cache, [&](const std::string &) { return json; });
  r.written = failed.empty();
  if (!r.written) r.note += (r.note.empty() ? "not stored: " : "; not stored: ") + failed;
  return r;
}

std::string probe_source(const CachedProbe &c)
{
  if (c.path.empty()) return "a probe (not saved: no cache folder)";
  return std::string(c.from_cache ? "the probe cache " : c.written ? "a probe saved to " : "a probe (not saved to ") + c.path +
         (c.from_cache || c.written ? "" : ")");
}

}  // namespace femgpu
