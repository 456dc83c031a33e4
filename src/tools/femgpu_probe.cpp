// femgpu-probe: measure the cost model's DeviceParams on a CUDA GPU or an OpenCL device
// (or read them from the cache) and print them next to the cost model's defaults and
// the H200 anchors.
//
// Usage: femgpu-probe [--backend cuda|opencl] [--device N] [--cache PATH] [--force] [--json] [--runs N]
//   --backend     cuda (default; device_probe.h) or opencl (the first OpenCL device,
//                 the one the OpenCL backend uses; opencl_probe.h)
//   --cache PATH  cache file (default $XDG_CACHE_HOME/femgpu/device-<name>-<arch>.json,
//                 OpenCL device-opencl-<name>.json, else ~/.cache/femgpu/...); a stale
//                 or broken file is re-probed
//   --force       probe even when the cache is valid (and rewrite it)
//   --json        print the cache file's JSON on stdout instead of the table
//   --runs N      timed runs per measurement (median kept; default 9)
// Exit status: 0 done, 1 probe or usage error, 2 no driver or device for the backend.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "probe/opencl_probe.h"
#ifdef FEMGPU_HAVE_CUDA
  #include "runtime/cuda_driver.h"
  #include "probe/device_probe.h"
#endif

using namespace femgpu;

namespace {

struct Args {
  std::string backend = "cuda";
  int device = 0;
  std::string cache;
  bool force = false, json = false;
  int runs = 9;
};

[[noreturn]] void usage(const char *problem)
{
  if (problem) std::fprintf(stderr, "femgpu-probe: %s\n", problem);
  std::fprintf(problem ? stderr : stdout,
               "usage: femgpu-probe [--backend cuda|opencl] [--device N] [--cache PATH] [--force] [--json] [--runs N]\n"
               "  --backend B   cuda (default) or opencl (the first OpenCL device, as the opencl backend uses)\n"
               "  --device N    CUDA device ordinal (default 0)\n"
               "  --cache PATH  cache file (default: $XDG_CACHE_HOME/femgpu/device-...json, else ~/.cache/femgpu/)\n"
               "  --force       probe even when the cache is valid, and rewrite it\n"
               "  --json        print the cache file's JSON instead of the table\n"
               "  --runs N      timed runs per measurement, median kept (default 9)\n");
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
    else if (arg == "--runs" && has_value) a.runs = integer(argv[++i], "--runs");
    else if (arg == "--cache" && has_value) a.cache = argv[++i];
    else if (arg == "--backend" && has_value) a.backend = argv[++i];
    else usage(("unknown or incomplete argument '" + arg + "'").c_str());
  }
  if (a.backend != "cuda" && a.backend != "opencl") usage("--backend must be cuda or opencl");
  if (a.backend == "opencl" && a.device != 0) usage("--device: the OpenCL probe measures the first OpenCL device only");
  return a;
}

// One row: the measured value, the cost model's default and the H200 anchor (0: none).
void row(const char *name, const char *what, const char *unit, double scale, double measured, double fallback, double anchor,
         const char *remark = "")
{
  char anchor_text[32] = "-";
  if (anchor > 0) std::snprintf(anchor_text, sizeof anchor_text, "%.4g", anchor / scale);
  std::printf("%-20s %-24s %10.4g %10.4g %10s  %s%s\n", name, what, measured / scale, fallback / scale, anchor_text, unit, remark);
}

// What each row measures, by backend.
struct Labels {
  const char *global, *local, *ldg, *flops, *sg_global, *sg_local, *local_max, *local_group, *groups, *threads, *sg_unit, *units;
};
const Labels kCudaLabels = {"DRAM read, 16 B loads", "shared memory read", "L1 / __ldg read", "FP64 FMA", "SG_sat, DRAM",
                            "SG_sat, shared memory", "shared memory per SM", "shared per block", "resident blocks per SM",
                            "threads per block", "warps/SM", "SM"};
const Labels kOpenCLLabels = {"global read, 64 B loads", "__local read", "read-only table read", "FP64 FMA", "SG_sat, global",
                              "SG_sat, __local", "local memory per CU", "local per group", "resident groups per CU",
                              "work-items per group", "sub-groups/CU", "compute unit"};

void print_header(const CachedProbe &c)
{
  const DeviceProbe &p = c.probe;
  if (p.key.backend == "opencl") {
    std::printf("femgpu-probe: %s, %s, %d compute units, driver %s, femgpu %s (OpenCL)\n", p.key.device.c_str(), p.key.arch.c_str(),
                p.multiprocessors, p.key.opencl_driver_version.c_str(), p.key.femgpu_version.c_str());
  } else {
    const int driver = p.key.driver_version;
    std::printf("femgpu-probe: %s, %s, %d SMs, driver %d.%d, NVRTC %s, femgpu %s\n", p.key.device.c_str(), p.key.arch.c_str(),
                p.multiprocessors, driver / 1000, driver % 1000 / 10, p.key.nvrtc_version.c_str(), p.key.femgpu_version.c_str());
  }
  const char *source = c.from_cache ? "read from" : c.written ? "measured; cache written to" : "measured; cache NOT written to";
  std::printf("%s %s (probe took %.2f s, median of %d runs per value)\n", source, c.path.c_str(), p.probe_seconds, p.runs);
}

void print_table(const CachedProbe &c)
{
  const DeviceProbe &p = c.probe;
  const DeviceParams &d = p.params;
  const DeviceParams defaults;
  const Labels &l = p.key.backend == "opencl" ? kOpenCLLabels : kCudaLabels;
  print_header(c);
  std::printf("\n%-20s %-24s %10s %10s %10s  %s\n", "DeviceParams", "what", "measured", "default", "H200 [1]", "unit");
  const Saturation global = saturation_warps(p.global_curve, d.beta_global, p.saturation_fraction);
  const Saturation local = saturation_warps(p.local_curve, d.beta_local, p.saturation_fraction);
  row("beta_global", l.global, "TB/s", 1e12, d.beta_global, defaults.beta_global, 4.5e12);
  row("beta_local", l.local, "TB/s", 1e12, d.beta_local, defaults.beta_local, 32.9e12);
  row("beta_ldg", l.ldg, "TB/s", 1e12, d.beta_ldg, defaults.beta_ldg, 33.0e12);
  row("flops_peak", l.flops, "TFLOP/s", 1e12, d.flops_peak, defaults.flops_peak, 33.3e12);
  row("sg_sat_global", l.sg_global, l.sg_unit, 1, d.sg_sat_global, defaults.sg_sat_global, 0, global.reached ? "" : " (extrapolated)");
  row("sg_sat_local", l.sg_local, l.sg_unit, 1, d.sg_sat_local, defaults.sg_sat_local, 0, local.reached ? "" : " (extrapolated)");
  row("subgroup_width", "work-items per sub-group", "work-items", 1, d.subgroup_width, defaults.subgroup_width, 32);
  row("local_max_bytes", l.local_max, "KiB", 1024, d.local_max_bytes, defaults.local_max_bytes, 228 * 1024);
  row("local_max_per_group", l.local_group, "KiB", 1024, d.local_max_per_group, defaults.local_max_per_group, 0);
  row("groups_max", l.groups, "groups", 1, d.groups_max, defaults.groups_max, 0);
  row("threads_max", l.threads, "threads", 1, d.threads_max, defaults.threads_max, 0);
  std::printf("[1] shared/reference/h200-measured-anchors.md (NVIDIA H200, 132 SMs)\n");
  std::printf("limits: %s\n", p.limits_note.c_str());
  std::printf("SG_sat: fewest resident sub-groups of %d work-items per %s (one group per %s) reaching %.0f%% of the peak.\n",
              d.subgroup_width, l.units, l.units, 100 * p.saturation_fraction);
  std::printf("\n%8s %12s %12s   (one group of %d w work-items per %s)\n", "w", "global TB/s", "local TB/s", d.subgroup_width, l.units);
  for (size_t i = 0; i < p.global_curve.size(); ++i)
    std::printf("%8d %12.4g %12.4g\n", p.global_curve[i].warps_per_multiprocessor, p.global_curve[i].bytes_per_second / 1e12,
                p.local_curve[i].bytes_per_second / 1e12);
}

// The probe of the asked backend, or exit status 2 when it has no device.
[[nodiscard]] CachedProbe probe_backend(const Args &a)
{
  if (a.backend == "opencl") {
    try {
      opencl_device_id();
    } catch (const std::exception &e) {
      std::fprintf(stderr, "femgpu-probe: no OpenCL device to probe: %s\n", e.what());
      std::exit(2);
    }
    OpenCLProbeOptions options;
    options.runs = a.runs;
    return load_or_probe_opencl_report(a.cache, a.force, options);
  }
#ifdef FEMGPU_HAVE_CUDA
  if (!cuda::device_available() || a.device >= cuda::device_count()) {
    std::string why = "no device " + std::to_string(a.device);
    try {
      cuda::open_device(a.device);
    } catch (const std::exception &e) {
      why = e.what();
    }
    std::fprintf(stderr, "femgpu-probe: no CUDA device to probe: %s\n", why.c_str());
    std::exit(2);
  }
  ProbeOptions options;
  options.runs = a.runs;
  return load_or_probe_report(a.device, a.cache, a.force, options);
#else
  std::fprintf(stderr, "femgpu-probe: no CUDA device to probe: this build has no CUDA backend (try --backend opencl)\n");
  std::exit(2);
#endif
}

}  // namespace

int main(int argc, char **argv)
{
  const Args args = parse_args(argc, argv);
  try {
    const CachedProbe c = probe_backend(args);
    if (!c.note.empty()) std::fprintf(stderr, "femgpu-probe: %s\n", c.note.c_str());
    if (args.json) std::fputs(device_cache_json(c.probe).c_str(), stdout);
    else print_table(c);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "femgpu-probe: %s\n", e.what());
    return 1;
  }
  return 0;
}
