// Load-or-probe with the device cache file (see the header).
#include "tune/probe_cache.h"

#include "tune/cache_file.h"

namespace femgpu {

CachedProbe load_or_probe_with(const ProbeKey &key, const std::string &cache_path, bool force,
                               const std::function<DeviceProbe()> &probe)
{
  CachedProbe r;
  r.path = cache_path.empty() ? default_cache_path(key) : cache_path;
  if (force) {
    r.note = "--force: cache not read";
  } else if (const std::optional<std::string> text = read_text_file(r.path)) {
    std::string why;
    if (std::optional<DeviceProbe> cached = parse_device_cache(*text, key, &why)) {
      r.probe = std::move(*cached);
      r.from_cache = true;
      return r;
    }
    r.note = "ignored " + r.path + ": " + why;
  }
  r.probe = probe();
  const std::string failed = write_file_atomically(r.path, device_cache_json(r.probe));
  r.written = failed.empty();
  if (!r.written) r.note += (r.note.empty() ? "" : "; ") + failed;
  return r;
}

std::string probe_source(const CachedProbe &c)
{
  return std::string(c.from_cache ? "the probe cache " : c.written ? "a probe saved to " : "a probe (not saved to ") + c.path +
         (c.from_cache || c.written ? "" : ")");
}

}  // namespace femgpu
