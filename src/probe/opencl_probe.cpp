// Measuring DeviceParams on an OpenCL device: build the probe kernels once, time each
// with profiling events, check every output, keep the medians (see the header).
#include "probe/opencl_probe.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <stdexcept>

#include "fem/quadrature.h"
#include "tune/median.h"
#include "cache/cache_file.h"

namespace femgpu {

namespace {

// The kernels' compile-time sizes (probe_kernels.cl); a mismatch fails the read checks.
constexpr int kLocalLoads = 16;     // PROBE_LOCAL_LOADS
constexpr int kTableLoads = 32;     // PROBE_TABLE_LOADS
constexpr int kFmaChains = 8;       // PROBE_FMA_CHAINS
constexpr std::size_t kTableBytes = 64 * 32 * 16;  // PROBE_TABLE_ROWS rows of PROBE_ROW double2
constexpr double kFmaA = 0.999999, kFmaB = 1e-6;
constexpr int kMaxRepeats = 1 << 24;
constexpr const char *kKernelNames[] = {"femgpu_probe_fill",       "femgpu_probe_global_read", "femgpu_probe_local_read",
                                        "femgpu_probe_table_read", "femgpu_probe_fma",         nullptr};
enum KernelIndex { kFill, kGlobalRead, kLocalRead, kTableRead, kFma };

struct Launch {
  std::size_t groups, group;
  std::size_t items() const { return groups * group; }
};

// The profiler with the probe's buffers and options.
struct Bench {
  OpenCLProfiler &cl;
  const OpenCLProbeOptions &options;
  int global = -1, table = -1, out = -1;
  unsigned long long global_double8 = 0;

  double median_ms(KernelIndex k, const std::vector<LaunchArg> &args, const Launch &l) const
  {
    return median(cl.time(kKernelNames[k], args, l.groups, l.group, options.warmup, options.runs));
  }
  std::vector<double> outputs(const Launch &l) const
  {
    std::vector<double> host(l.items());
    cl.download(out, host.data(), host.size() * sizeof(double));
    return host;
  }
  // The doubles read by all work-items, each of which must have read `per_item`.
  double uniform_reads(const Launch &l, double per_item, const char *what) const
  {
    for (double x : outputs(l))
      if (x != per_item)
        throw std::runtime_error(std::string("OpenCL probe: a work-item of the ") + what + " summed " + std::to_string(x) +
                                 ", expected " + std::to_string(per_item));
    return per_item * static_cast<double>(l.items());
  }
  // Loop repeats for which one launch of `k` takes at least options.min_launch_ms.
  int calibrated_repeats(KernelIndex k, const std::function<std::vector<LaunchArg>(int)> &args, const Launch &l) const
  {
    int repeats = 16;
    for (int tries = 0; tries < 16 && repeats < kMaxRepeats; ++tries) {
      const double ms = cl.time(kKernelNames[k], args(repeats), l.groups, l.group, 1, 1).at(0);
      if (ms >= options.min_launch_ms) break;
      const double factor = ms > 0 ? std::clamp(1.25 * options.min_launch_ms / ms, 2.0, 64.0) : 64.0;
      repeats = static_cast<int>(std::min<double>(kMaxRepeats, std::ceil(repeats * factor)));
    }
    return repeats;
  }
};

double global_bandwidth(const Bench &b, const Launch &l)
{
  const unsigned long long n = b.global_double8;
  const double ms = b.median_ms(kGlobalRead, {LaunchArg::of_buffer(b.global), LaunchArg::value(n), LaunchArg::of_buffer(b.out)}, l);
  double doubles = 0;
  for (double x : b.outputs(l)) doubles += x;
  if (doubles != 8.0 * static_cast<double>(n))
    throw std::runtime_error("OpenCL probe: the global read summed " + std::to_string(doubles) + " of " + std::to_string(8 * n) + " doubles");
  return doubles * sizeof(double) / (ms * 1e-3);
}

double local_bandwidth(const Bench &b, const Launch &l)
{
  const double one = 1.0;
  auto args = [&](int repeats) { return std::vector<LaunchArg>{LaunchArg::of_buffer(b.out), LaunchArg::value(one), LaunchArg::value(repeats)}; };
  const int repeats = b.calibrated_repeats(kLocalRead, args, l);
  const double ms = b.median_ms(kLocalRead, args(repeats), l);
  return b.uniform_reads(l, 2.0 * kLocalLoads * repeats, "local read") * sizeof(double) / (ms * 1e-3);
}

double table_bandwidth(const Bench &b, const Launch &l)
{
  auto args = [&](int repeats) { return std::vector<LaunchArg>{LaunchArg::of_buffer(b.table), LaunchArg::of_buffer(b.out), LaunchArg::value(repeats)}; };
  const int repeats = b.calibrated_repeats(kTableRead, args, l);
  const double ms = b.median_ms(kTableRead, args(repeats), l);
  return b.uniform_reads(l, 2.0 * kTableLoads * repeats, "table read") * sizeof(double) / (ms * 1e-3);
}

double fma_flops(const Bench &b, const Launch &l)
{
  auto args = [&](int repeats) {
    return std::vector<LaunchArg>{LaunchArg::of_buffer(b.out), LaunchArg::value(kFmaA), LaunchArg::value(kFmaB), LaunchArg::value(repeats)};
  };
  const int repeats = b.calibrated_repeats(kFma, args, l);
  const double ms = b.median_ms(kFma, args(repeats), l);
  double x[kFmaChains], expected = 0;  // the same chains on the host (fma is exact IEEE)
  for (int i = 0; i < kFmaChains; ++i) x[i] = i + 1;
  for (int k = 0; k < repeats; ++k)
    for (double &xi : x) xi = std::fma(xi, kFmaA, kFmaB);
  for (double xi : x) expected += xi;
  for (double got : b.outputs(l))
    if (got != expected)
      throw std::runtime_error("OpenCL probe: FMA result " + std::to_string(got) + ", expected " + std::to_string(expected));
  return 2.0 * kFmaChains * repeats * static_cast<double>(l.items()) / (ms * 1e-3);
}

// Bandwidth with one work-group per compute unit of width, 2 width, 4 width, ... items.
std::vector<BandwidthPoint> sweep(const Bench &b, double (*measure)(const Bench &, const Launch &), std::size_t units,
                                  std::size_t width, std::size_t max_items)
{
  std::vector<BandwidthPoint> curve;
  for (std::size_t w = 1; w * width <= max_items; w *= 2) curve.push_back({static_cast<int>(w), measure(b, {units, w * width})});
  return curve;
}

void check_options(const OpenCLProbeOptions &o)
{
  if (o.runs < 1 || o.warmup < 0 || o.group < 1 || o.groups_per_unit < 1 || o.max_sweep_items < 1)
    throw std::invalid_argument("OpenCL probe: runs, group, groups_per_unit and max_sweep_items must be positive, warmup non-negative");
  if (!(o.min_launch_ms > 0) || !std::isfinite(o.min_launch_ms)) throw std::invalid_argument("OpenCL probe: min_launch_ms must be positive");
  if (!(o.saturation_fraction > 0 && o.saturation_fraction <= 1))
    throw std::invalid_argument("OpenCL probe: saturation_fraction must be in (0, 1]");
  if (o.global_bytes != 0 && o.global_bytes < (std::size_t(1) << 20)) throw std::invalid_argument("OpenCL probe: global_bytes below 1 MiB");
}

// The limits clGetDeviceInfo gives, and the rule for the one it does not (groups_max).
void set_limits(const OpenCLDeviceInfo &info, DeviceParams *d, std::string *note)
{
  d->local_max_bytes = info.local_mem_bytes;
  d->local_max_per_group = info.local_mem_bytes;
  d->threads_max = static_cast<int>(std::min<std::size_t>(info.max_work_group_size, 1 << 30));
  const bool cpu = info.type == "CPU";
  if (cpu) d->groups_max = 1;
  *note = "clGetDeviceInfo: CL_DEVICE_LOCAL_MEM_SIZE (local_max_bytes = local_max_per_group; OpenCL reports no per-compute-unit "
          "total), CL_DEVICE_MAX_WORK_GROUP_SIZE (threads_max), CL_DEVICE_MAX_COMPUTE_UNITS (multiprocessors); "
          "subgroup_width: CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE; groups_max: OpenCL cannot tell, " +
          std::string(cpu ? "rule for a CPU device: 1 (a compute unit runs one work-group at a time)"
                          : "rule for a non-CPU device: the cost model's default " + std::to_string(d->groups_max));
}

}  // namespace

std::string opencl_probe_kernel_source(const std::string &share_dir)
{
  const std::string path = (share_dir.empty() ? default_share_dir() : share_dir) + "/device/probe_kernels.cl";
  const std::optional<std::string> text = read_text_file(path);
  if (!text) throw std::runtime_error("OpenCL probe: cannot read " + path);
  return *text;
}

const char *const *opencl_probe_kernel_names() { return kKernelNames; }

void require_opencl_fp64(const OpenCLDeviceInfo &info)
{
  if (!info.fp64)
    throw std::runtime_error("OpenCL probe: the device '" + info.id.name +
                             "' has no cl_khr_fp64; the probe measures FP64 and femgpu's kernels need it");
}

std::size_t opencl_probe_global_bytes(const OpenCLDeviceInfo &info)
{
  const double mib = 1 << 20;
  double bytes = std::clamp(4 * info.global_cache_bytes, 16 * mib, 256 * mib);
  if (info.max_alloc_bytes > 0) bytes = std::min(bytes, std::max(mib, info.max_alloc_bytes / 4));
  return static_cast<std::size_t>(bytes) / 64 * 64;
}

ProbeKey current_opencl_probe_key()
{
  const OpenCLDeviceId id = opencl_device_id();
  return ProbeKey::opencl(id.name, id.version, id.driver_version, femgpu_version());
}

DeviceProbe probe_opencl_device_report(const OpenCLProbeOptions &o)
{
  const auto start = std::chrono::steady_clock::now();
  check_options(o);
  require_opencl_fp64(opencl_device_info());  // before the build, whose fp64 pragma would fail less clearly
  OpenCLProfiler cl(opencl_probe_kernel_source(o.share_dir));
  const OpenCLDeviceInfo &info = cl.info();
  std::size_t group_limit = info.max_work_group_size;
  for (const char *const *name = kKernelNames; *name; ++name) group_limit = std::min(group_limit, cl.max_group_size(*name));
  const std::size_t width = std::max<std::size_t>(1, cl.preferred_multiple(kKernelNames[kGlobalRead]));
  const std::size_t max_sweep = std::min<std::size_t>(o.max_sweep_items, group_limit);
  if (width > max_sweep)
    throw std::invalid_argument("OpenCL probe: max_sweep_items " + std::to_string(max_sweep) + " is below the sub-group width " + std::to_string(width));
  std::size_t group = std::min<std::size_t>(o.group, group_limit);
  if (group >= width) group -= group % width;
  const std::size_t units = static_cast<std::size_t>(std::max(1, info.compute_units));
  const Launch full{units * static_cast<std::size_t>(o.groups_per_unit), group};

  Bench b{cl, o};
  const std::size_t global_bytes = o.global_bytes ? o.global_bytes / 64 * 64 : opencl_probe_global_bytes(info);
  b.global_double8 = global_bytes / 64;
  b.global = cl.buffer(global_bytes);
  b.table = cl.buffer(kTableBytes);
  b.out = cl.buffer(std::max(full.items(), units * max_sweep) * sizeof(double));
  const std::vector<double> ones(kTableBytes / sizeof(double), 1.0);
  cl.upload(b.table, ones.data(), kTableBytes);
  cl.time(kKernelNames[kFill], {LaunchArg::of_buffer(b.global), LaunchArg::value(b.global_double8), LaunchArg::value(1.0)}, full.groups,
          full.group, 0, 1);

  DeviceProbe p;
  p.key = current_opencl_probe_key();
  p.multiprocessors = static_cast<int>(units);
  p.runs = o.runs;
  p.global_bytes = static_cast<double>(global_bytes);
  p.saturation_fraction = o.saturation_fraction;
  p.global_curve = sweep(b, global_bandwidth, units, width, max_sweep);
  p.local_curve = sweep(b, local_bandwidth, units, width, max_sweep);
  auto curve_max = [](const std::vector<BandwidthPoint> &c, double x) {
    for (const BandwidthPoint &q : c) x = std::max(x, q.bytes_per_second);
    return x;
  };
  DeviceParams &d = p.params;
  d.name = info.id.name;
  d.beta_global = curve_max(p.global_curve, global_bandwidth(b, full));
  d.beta_local = curve_max(p.local_curve, local_bandwidth(b, full));
  d.beta_ldg = table_bandwidth(b, full);
  d.flops_peak = fma_flops(b, full);
  d.subgroup_width = static_cast<int>(width);
  d.sg_sat_global = saturation_warps(p.global_curve, d.beta_global, o.saturation_fraction).warps;
  d.sg_sat_local = saturation_warps(p.local_curve, d.beta_local, o.saturation_fraction).warps;
  set_limits(info, &d, &p.limits_note);
  p.probe_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return p;
}

CachedProbe load_or_probe_opencl_report(const std::string &cache_path, bool force, const OpenCLProbeOptions &options)
{
  return load_or_probe_with(current_opencl_probe_key(), cache_path, force, [&] { return probe_opencl_device_report(options); });
}

}  // namespace femgpu
