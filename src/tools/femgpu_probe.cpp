// femgpu-probe: measure the cost model's DeviceParams on a CUDA GPU (or read them from
// the cache) and print them next to the cost model's defaults and the H200 anchors.
//
// Usage: femgpu-probe [--device N] [--cache PATH] [--force] [--json] [--runs N]
//   --cache PATH  cache file (default $XDG_CACHE_HOME/femgpu/device-<name>-<arch>.json,
//                 else ~/.cache/femgpu/...); a stale or broken file is re-probed
//   --force       probe even when the cache is valid (and rewrite it)
//   --json        print the cache file's JSON on stdout instead of the table
//   --runs N      timed runs per measurement (median kept; default 9)
// Exit status: 0 done, 1 probe or usage error, 2 no CUDA driver or device.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "runtime/cuda_driver.h"
#include "tune/device_probe.h"

using namespace femgpu;

namespace {

struct Args {
  int device = 0;
  std::string cache;
  bool force = false, json = false;
  ProbeOptions probe;
};

[[noreturn]] void usage(const char *problem)
{
  if (problem) std::fprintf(stderr, "femgpu-probe: %s\n", problem);
  std::fprintf(stderr, "usage: femgpu-probe [--device N] [--cache PATH] [--force] [--json] [--runs N]\n");
  std::exit(problem ? 1 : 0);
}

int integer(const char *text, const char *option)
{
  char *end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (*text == '\0' || *end != '\0' || v < 0 || v > 1000000) usage((std::string(option) + " needs a non-negative integer").c_str());
  return static_cast<int>(v);
}

Args parse_args(int argc, char **argv)
{
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--help" || arg == "-h") usage(nullptr);
    else if (arg == "--force") a.force = true;
    else if (arg == "--json") a.json = true;
    else if (arg == "--device" && has_value) a.device = integer(argv[++i], "--device");
    else if (arg == "--runs" && has_value) a.probe.runs = integer(argv[++i], "--runs");
    else if (arg == "--cache" && has_value) a.cache = argv[++i];
    else usage(("unknown or incomplete argument '" + arg + "'").c_str());
  }
  return a;
}

// One row: the measured value, the cost model's default and the H200 anchor (0: none).
void row(const char *name, const char *what, const char *unit, double scale, double measured, double fallback, double anchor,
         const char *remark = "")
{
  char anchor_text[32] = "-";
  if (anchor > 0) std::snprintf(anchor_text, sizeof anchor_text, "%.4g", anchor / scale);
  std::printf("%-20s %-22s %10.4g %10.4g %10s  %s%s\n", name, what, measured / scale, fallback / scale, anchor_text, unit, remark);
}

void print_table(const CachedProbe &c)
{
  const DeviceProbe &p = c.probe;
  const DeviceParams &d = p.params;
  const DeviceParams defaults;
  const int driver = p.key.driver_version;
  std::printf("femgpu-probe: %s, %s, %d SMs, driver %d.%d, NVRTC %s, femgpu %s\n", p.key.device.c_str(), p.key.arch.c_str(),
              p.multiprocessors, driver / 1000, driver % 1000 / 10, p.key.nvrtc_version.c_str(), p.key.femgpu_version.c_str());
  const char *source = c.from_cache ? "read from" : c.written ? "measured; cache written to" : "measured; cache NOT written to";
  std::printf("%s %s (probe took %.2f s, median of %d runs per value)\n", source, c.path.c_str(), p.probe_seconds, p.runs);
  std::printf("\n%-20s %-22s %10s %10s %10s  %s\n", "DeviceParams", "what", "measured", "default", "H200 [1]", "unit");
  const Saturation global = saturation_warps(p.global_curve, d.beta_global, p.saturation_fraction);
  const Saturation local = saturation_warps(p.local_curve, d.beta_local, p.saturation_fraction);
  row("beta_global", "DRAM read, 16 B loads", "TB/s", 1e12, d.beta_global, defaults.beta_global, 4.5e12);
  row("beta_local", "shared memory read", "TB/s", 1e12, d.beta_local, defaults.beta_local, 32.9e12);
  row("beta_ldg", "L1 / __ldg read", "TB/s", 1e12, d.beta_ldg, defaults.beta_ldg, 33.0e12);
  row("flops_peak", "FP64 FMA", "TFLOP/s", 1e12, d.flops_peak, defaults.flops_peak, 33.3e12);
  row("sg_sat_global", "SG_sat, DRAM", "warps/SM", 1, d.sg_sat_global, defaults.sg_sat_global, 0, global.reached ? "" : " (extrapolated)");
  row("sg_sat_local", "SG_sat, shared memory", "warps/SM", 1, d.sg_sat_local, defaults.sg_sat_local, 0, local.reached ? "" : " (extrapolated)");
  row("local_max_bytes", "shared memory per SM", "KiB", 1024, d.local_max_bytes, defaults.local_max_bytes, 228 * 1024);
  row("local_max_per_group", "shared per block", "KiB", 1024, d.local_max_per_group, defaults.local_max_per_group, 0);
  row("groups_max", "resident blocks per SM", "blocks", 1, d.groups_max, defaults.groups_max, 0);
  row("threads_max", "threads per block", "threads", 1, d.threads_max, defaults.threads_max, 0);
  std::printf("[1] shared/reference/h200-measured-anchors.md (NVIDIA H200, 132 SMs)\n");
  std::printf("SG_sat: fewest resident warps per SM (one block per SM) reaching %.0f%% of the peak.\n",
              100 * p.saturation_fraction);
  std::printf("\n%8s %12s %12s   (one block of 32 w threads per SM)\n", "warps w", "DRAM TB/s", "shared TB/s");
  for (size_t i = 0; i < p.global_curve.size(); ++i)
    std::printf("%8d %12.3f %12.3f\n", p.global_curve[i].warps_per_multiprocessor, p.global_curve[i].bytes_per_second / 1e12,
                p.local_curve[i].bytes_per_second / 1e12);
}

}  // namespace

int main(int argc, char **argv)
{
  const Args args = parse_args(argc, argv);
  if (!cuda::device_available() || args.device >= cuda::device_count()) {
    std::string why = "no device " + std::to_string(args.device);
    try {
      cuda::open_device(args.device);
    } catch (const std::exception &e) {
      why = e.what();
    }
    std::fprintf(stderr, "femgpu-probe: no CUDA device to probe: %s\n", why.c_str());
    return 2;
  }
  try {
    const CachedProbe c = load_or_probe_report(args.device, args.cache, args.force, args.probe);
    if (!c.note.empty()) std::fprintf(stderr, "femgpu-probe: %s\n", c.note.c_str());
    if (args.json) std::fputs(device_cache_json(c.probe).c_str(), stdout);
    else print_table(c);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "femgpu-probe: %s\n", e.what());
    return 1;
  }
  return 0;
}
