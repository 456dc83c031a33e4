// Measuring DeviceParams: compile the probe kernels once, time each with CUDA events,
// check every output, and keep the medians. load_or_probe wraps it with the cache file.
#include "probe/device_probe.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <functional>
#include <stdexcept>

#include "fem/quadrature.h"
#include "tune/median.h"
#include "runtime/cuda_driver.h"
#include "runtime/nvrtc_compile.h"
#include "cache/cache_file.h"

namespace femgpu {

namespace {

constexpr int kFmaChains = 8;  // PROBE_FMA_CHAINS; a mismatch fails the FMA result check
constexpr double kFmaA = 0.999999, kFmaB = 1e-6;
constexpr const char *kKernelNames[] = {"femgpu_probe_fill",     "femgpu_probe_global_read", "femgpu_probe_shared_read",
                                        "femgpu_probe_ldg_read", "femgpu_probe_fma",         nullptr};

struct Kernels {
  explicit Kernels(const std::vector<char> &cubin)
      : fill(cubin, kKernelNames[0]), global_read(cubin, kKernelNames[1]), shared_read(cubin, kKernelNames[2]),
        ldg_read(cubin, kKernelNames[3]), fma(cubin, kKernelNames[4])
  {
  }
  cuda::Module fill, global_read, shared_read, ldg_read, fma;
};

struct Launch {
  unsigned grid, block;
  unsigned long long threads() const { return static_cast<unsigned long long>(grid) * block; }
};

// Everything one measurement needs: the device, kernels, buffers and options.
struct Bench {
  const cuda::DeviceInfo &info;
  const Kernels &kernels;
  const ProbeOptions &options;
  cuda::Buffer global, table, out;
  unsigned long long global_double2 = 0;

  // Median milliseconds of `launch` over options.runs timed runs after the warm-up.
  double median_ms(const std::function<void()> &launch) const
  {
    for (int i = 0; i < options.warmup; ++i) launch();
    cuda::synchronize();
    cuda::EventTimer timer;
    std::vector<double> ms;
    for (int i = 0; i < options.runs; ++i) {
      timer.start();
      launch();
      ms.push_back(timer.stop_ms());
    }
    return median(ms);
  }

  std::vector<double> outputs(const Launch &l) const
  {
    std::vector<double> host(l.threads());
    out.download(host.data(), host.size() * sizeof(double));
    return host;
  }

  // Doubles read by all threads, from the read kernels' outputs (data are ones); every
  // thread must have read the same count (shared, ldg) or the sum must be the buffer.
  double doubles_read(const Launch &l, const char *what, bool uniform) const
  {
    const std::vector<double> host = outputs(l);
    double total = 0;
    for (double x : host) {
      if (uniform && x != host[0]) throw std::runtime_error(std::string("device probe: ") + what + " threads read different amounts");
      total += x;
    }
    if (!(total > 0)) throw std::runtime_error(std::string("device probe: ") + what + " read nothing");
    return total;
  }
};

double global_bandwidth(const Bench &b, const Launch &l)
{
  unsigned long long in = b.global.device_pointer(), out = b.out.device_pointer(), n = b.global_double2;
  void *params[] = {&in, &n, &out};
  const double ms = b.median_ms([&] { b.kernels.global_read.launch(l.grid, l.block, 1, 0, params); });
  const double doubles = b.doubles_read(l, "global read", false);
  if (doubles != 2.0 * static_cast<double>(n))
    throw std::runtime_error("device probe: the global read summed " + std::to_string(doubles) + " of " + std::to_string(2 * n) + " doubles");
  return doubles * sizeof(double) / (ms * 1e-3);
}

double shared_bandwidth(const Bench &b, const Launch &l)
{
  unsigned long long out = b.out.device_pointer();
  double value = 1.0;
  int repeats = b.options.shared_repeats;
  void *params[] = {&out, &value, &repeats};
  const double ms = b.median_ms([&] { b.kernels.shared_read.launch(l.grid, l.block, 1, 0, params); });
  return b.doubles_read(l, "shared read", true) * sizeof(double) / (ms * 1e-3);
}

double ldg_bandwidth(const Bench &b, const Launch &l)
{
  unsigned long long table = b.table.device_pointer(), out = b.out.device_pointer();
  int repeats = b.options.ldg_repeats;
  void *params[] = {&table, &out, &repeats};
  const double ms = b.median_ms([&] { b.kernels.ldg_read.launch(l.grid, l.block, 1, 0, params); });
  return b.doubles_read(l, "__ldg read", true) * sizeof(double) / (ms * 1e-3);
}

double fma_flops(const Bench &b, const Launch &l)
{
  unsigned long long out = b.out.device_pointer();
  double a = kFmaA, c = kFmaB;
  int repeats = b.options.fma_repeats;
  void *params[] = {&out, &a, &c, &repeats};
  const double ms = b.median_ms([&] { b.kernels.fma.launch(l.grid, l.block, 1, 0, params); });
  double x[kFmaChains], expected = 0;  // the same chains on the host (fma is exact IEEE)
  for (int i = 0; i < kFmaChains; ++i) x[i] = i + 1;
  for (int k = 0; k < repeats; ++k)
    for (double &xi : x) xi = std::fma(xi, a, c);
  for (double xi : x) expected += xi;
  for (double got : b.outputs(l))
    if (got != expected)
      throw std::runtime_error("device probe: FMA result " + std::to_string(got) + ", expected " + std::to_string(expected));
  return 2.0 * kFmaChains * repeats * static_cast<double>(l.threads()) / (ms * 1e-3);
}

// Bandwidth with one block per multiprocessor of 32, 64, ... threads.
std::vector<BandwidthPoint> sweep(const Bench &b, double (*measure)(const Bench &, const Launch &))
{
  std::vector<BandwidthPoint> curve;
  const unsigned sms = static_cast<unsigned>(b.info.multiprocessors);
  for (int warps = 1; warps * 32 <= b.info.max_threads_per_group; ++warps)
    curve.push_back({warps, measure(b, {sms, static_cast<unsigned>(32 * warps)})});
  return curve;
}

void fill_ones(const Bench &b, const Launch &l)
{
  unsigned long long data = b.global.device_pointer(), n = b.global_double2;
  double one = 1.0;
  void *params[] = {&data, &n, &one};
  b.kernels.fill.launch(l.grid, l.block, 1, 0, params);
  cuda::synchronize();
}

void check_options(const ProbeOptions &o, const cuda::DeviceInfo &info)
{
  if (o.runs < 1 || o.warmup < 0 || o.shared_repeats < 1 || o.ldg_repeats < 1 || o.fma_repeats < 1)
    throw std::invalid_argument("device probe: runs and repeats must be positive, warmup non-negative");
  if (o.block < 32 || o.block % 32 || o.block > info.max_threads_per_group || info.max_threads_per_multiprocessor % o.block)
    throw std::invalid_argument("device probe: block " + std::to_string(o.block) + " must be a multiple of 32 dividing " +
                                std::to_string(info.max_threads_per_multiprocessor));
  if (o.global_bytes < (std::size_t(1) << 20)) throw std::invalid_argument("device probe: global_bytes below 1 MiB");
}

}  // namespace

std::string probe_kernel_source(const std::string &share_dir)
{
  const std::string path = (share_dir.empty() ? default_share_dir() : share_dir) + "/device/probe_kernels.cuh";
  const std::optional<std::string> text = read_text_file(path);
  if (!text) throw std::runtime_error("device probe: cannot read " + path);
  return *text;
}

const char *const *probe_kernel_names() { return kKernelNames; }

ProbeKey current_probe_key(int ordinal)
{
  const cuda::DeviceInfo info = cuda::open_device(ordinal);
  return ProbeKey::cuda(info.name, info.arch(), cuda::driver_version(), nvrtc_version(), femgpu_version());
}

DeviceProbe probe_device_report(int ordinal, const ProbeOptions &o)
{
  const auto start = std::chrono::steady_clock::now();
  const cuda::DeviceInfo info = cuda::open_device(ordinal);
  check_options(o, info);
  const Kernels kernels(nvrtc_compile(probe_kernel_source(o.share_dir), "femgpu_probe", info.arch()).cubin);
  const unsigned sms = static_cast<unsigned>(info.multiprocessors);
  const Launch full{sms * static_cast<unsigned>(info.max_threads_per_multiprocessor / o.block), static_cast<unsigned>(o.block)};
  Bench b{info, kernels, o, cuda::Buffer(o.global_bytes / 16 * 16), cuda::Buffer(32 * 1024),
          cuda::Buffer(std::size_t(sms) * info.max_threads_per_multiprocessor * sizeof(double)), o.global_bytes / 16};
  const std::vector<double> ones(32 * 1024 / sizeof(double), 1.0);
  b.table.upload(ones.data(), 32 * 1024);
  fill_ones(b, full);

  DeviceProbe p;
  p.key = ProbeKey::cuda(info.name, info.arch(), cuda::driver_version(), nvrtc_version(), femgpu_version());
  p.multiprocessors = info.multiprocessors;
  p.runs = o.runs;
  p.global_bytes = static_cast<double>(b.global.size());
  p.saturation_fraction = o.saturation_fraction;
  p.global_curve = sweep(b, global_bandwidth);
  p.local_curve = sweep(b, shared_bandwidth);
  auto curve_max = [](const std::vector<BandwidthPoint> &c, double x) {
    for (const BandwidthPoint &q : c) x = std::max(x, q.bytes_per_second);
    return x;
  };
  DeviceParams &d = p.params;
  d.name = info.name;
  d.beta_global = curve_max(p.global_curve, global_bandwidth(b, full));
  d.beta_local = curve_max(p.local_curve, shared_bandwidth(b, full));
  d.beta_ldg = ldg_bandwidth(b, full);
  d.flops_peak = fma_flops(b, full);
  d.sg_sat_global = saturation_warps(p.global_curve, d.beta_global, o.saturation_fraction).warps;
  d.sg_sat_local = saturation_warps(p.local_curve, d.beta_local, o.saturation_fraction).warps;
  d.local_max_bytes = info.shared_per_multiprocessor;
  d.local_max_per_group = info.shared_per_group_optin;
  d.groups_max = info.max_groups_per_multiprocessor;
  d.threads_max = info.max_threads_per_group;
  d.subgroup_width = 32;  // the warp; sweep() steps by it
  p.limits_note = "the CUDA driver's attributes: shared memory per SM and opt-in per block, resident blocks per SM, threads per block";
  p.probe_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return p;
}

DeviceParams probe_device(int ordinal, const ProbeOptions &options) { return probe_device_report(ordinal, options).params; }

CachedProbe load_or_probe_report(int ordinal, const std::string &cache_path, bool force, const ProbeOptions &options)
{
  return load_or_probe_with(current_probe_key(ordinal), cache_path, force, [&] { return probe_device_report(ordinal, options); });
}

DeviceParams load_or_probe(int ordinal, const std::string &cache_path, bool force)
{
  return load_or_probe_report(ordinal, cache_path, force).probe.params;
}

}  // namespace femgpu
