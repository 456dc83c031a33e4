// The OpenCL device probe, run for real on the OpenCL device (PoCL in CI) with small
// sizes: every value positive and finite, the sums its kernels return verified inside,
// the limits equal to what clGetDeviceInfo says, the curves shaped as documented, and
// its cache file read back, refused under another key, and re-probed when corrupt.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "cache/cache_file.h"
#include "probe/opencl_probe.h"

using namespace femgpu;

namespace {

// Small and quick (a few tenths of a second on PoCL); the tool's defaults are larger.
OpenCLProbeOptions small_options()
{
  OpenCLProbeOptions o;
  o.global_bytes = 4 << 20;
  o.runs = 3;
  o.warmup = 1;
  o.group = 64;
  o.groups_per_unit = 2;
  o.max_sweep_items = 64;
  o.min_launch_ms = 0.2;
  return o;
}

bool positive_finite(double x) { return x > 0 && std::isfinite(x); }

std::string fresh_cache_path(const std::string &name)
{
  const std::filesystem::path dir = std::filesystem::path(FEMGPU_BINARY_DIR) / "test-probe-cache";
  std::filesystem::create_directories(dir);
  const std::filesystem::path path = dir / name;
  std::filesystem::remove(path);
  return path.string();
}

}  // namespace

TEST_CASE("OpenCL probe: measured values are positive, and the limits are clGetDeviceInfo's", "[opencl_probe]")
{
  const OpenCLDeviceInfo info = opencl_device_info();
  DeviceProbe p;
  REQUIRE_NOTHROW(p = probe_opencl_device_report(small_options()));  // throws on any unverified kernel output
  const DeviceParams &d = p.params;
  INFO(device_cache_json(p));
  CHECK(p.key.backend == "opencl");
  CHECK(p.key.device == info.id.name);
  CHECK(p.key.arch == info.id.version);
  CHECK(p.key.opencl_driver_version == info.id.driver_version);
  CHECK(d.name == info.id.name);
  for (double x : {d.beta_global, d.beta_local, d.beta_ldg, d.flops_peak, p.probe_seconds}) CHECK(positive_finite(x));
  CHECK(d.local_max_bytes == info.local_mem_bytes);
  CHECK(d.local_max_per_group == info.local_mem_bytes);
  CHECK(static_cast<std::size_t>(d.threads_max) == info.max_work_group_size);
  CHECK(p.multiprocessors == info.compute_units);
  if (info.type == "CPU") CHECK(d.groups_max == 1);
  CHECK(p.limits_note.find("groups_max") != std::string::npos);
  CHECK(p.global_bytes == 4 << 20);
  CHECK(p.runs == 3);

  // Curves: w = 1, 2, 4, ... while w * subgroup_width <= 64 work-items, one value each.
  REQUIRE(d.subgroup_width >= 1);
  REQUIRE(d.subgroup_width <= 64);
  REQUIRE(p.global_curve.size() == p.local_curve.size());
  size_t expected_points = 0;
  for (int w = 1; w * d.subgroup_width <= 64; w *= 2) ++expected_points;
  REQUIRE(p.global_curve.size() == expected_points);
  for (size_t i = 0; i < p.global_curve.size(); ++i) {
    CHECK(p.global_curve[i].warps_per_multiprocessor == 1 << i);
    CHECK(p.local_curve[i].warps_per_multiprocessor == 1 << i);
    CHECK(positive_finite(p.global_curve[i].bytes_per_second));
    CHECK(positive_finite(p.local_curve[i].bytes_per_second));
    CHECK(p.global_curve[i].bytes_per_second <= d.beta_global);  // the peak is the larger of the curve and the full launch
    CHECK(p.local_curve[i].bytes_per_second <= d.beta_local);
  }
  // SG_sat as saturation_warps computes it from the kept curves (>= 1: the first point is w = 1).
  CHECK(d.sg_sat_global == saturation_warps(p.global_curve, d.beta_global, p.saturation_fraction).warps);
  CHECK(d.sg_sat_local == saturation_warps(p.local_curve, d.beta_local, p.saturation_fraction).warps);
  CHECK(d.sg_sat_global >= 1);
  CHECK(d.sg_sat_local >= 1);

  std::string why;
  const std::optional<DeviceProbe> back = parse_device_cache(device_cache_json(p), current_opencl_probe_key(), &why);
  INFO(why);
  REQUIRE(back);
  CHECK(back->params.beta_global == d.beta_global);
  CHECK(back->params.subgroup_width == d.subgroup_width);
  CHECK(back->limits_note == p.limits_note);
}

TEST_CASE("OpenCL probe: the cache is written, read back, and re-probed when corrupt or another backend's", "[opencl_probe]")
{
  const std::string path = fresh_cache_path("device-opencl.json");
  const CachedProbe first = load_or_probe_opencl_report(path, false, small_options());
  INFO(first.note);
  CHECK_FALSE(first.from_cache);
  REQUIRE(first.written);
  const CachedProbe second = load_or_probe_opencl_report(path, false, small_options());
  CHECK(second.from_cache);
  CHECK(second.note.empty());
  CHECK(device_cache_json(second.probe) == device_cache_json(first.probe));
  CHECK(probe_source(second) == "the probe cache " + path);

  const std::string text = read_text_file(path).value();
  REQUIRE(std::ofstream(path, std::ios::trunc) << text.substr(0, text.size() / 2));  // truncated
  const CachedProbe corrupt = load_or_probe_opencl_report(path, false, small_options());
  CHECK_FALSE(corrupt.from_cache);
  CHECK(corrupt.written);
  CHECK(corrupt.note.find("ignored " + path) != std::string::npos);

  DeviceProbe cuda = first.probe;  // the same numbers under a CUDA key are never an OpenCL entry
  cuda.key = ProbeKey::cuda(first.probe.key.device, "sm_90", 13000, "13.0", femgpu_version());
  REQUIRE(std::ofstream(path, std::ios::trunc) << device_cache_json(cuda));
  const CachedProbe other = load_or_probe_opencl_report(path, false, small_options());
  CHECK_FALSE(other.from_cache);
  CHECK(other.note.find("backend is \"cuda\"") != std::string::npos);

  const CachedProbe forced = load_or_probe_opencl_report(path, true, small_options());
  CHECK_FALSE(forced.from_cache);
  CHECK(forced.written);
}

TEST_CASE("OpenCL probe: bad options, a device without FP64 and a missing kernel file are refused", "[opencl_probe]")
{
  OpenCLProbeOptions o = small_options();
  o.runs = 0;
  CHECK_THROWS_AS(probe_opencl_device_report(o), std::invalid_argument);
  o = small_options();
  o.global_bytes = 1000;
  CHECK_THROWS_AS(probe_opencl_device_report(o), std::invalid_argument);
  o = small_options();
  o.share_dir = "/nonexistent/share";
  CHECK_THROWS_WITH(probe_opencl_device_report(o), Catch::Contains("/nonexistent/share/device/probe_kernels.cl"));

  OpenCLDeviceInfo info;
  info.id.name = "a GPU without doubles";
  info.fp64 = false;
  CHECK_THROWS_WITH(require_opencl_fp64(info), Catch::Contains("'a GPU without doubles' has no cl_khr_fp64"));
  info.fp64 = true;
  CHECK_NOTHROW(require_opencl_fp64(info));
  CHECK(opencl_device_info().fp64);  // the CI device (PoCL) has it: the probe above ran
}

TEST_CASE("OpenCL probe: the global buffer follows the device's cache, within 16 MiB and 256 MiB", "[opencl_probe]")
{
  const std::size_t mib = 1 << 20;
  OpenCLDeviceInfo info;
  info.global_cache_bytes = 32.0 * mib;  // PoCL on this CI machine's CPU
  CHECK(opencl_probe_global_bytes(info) == 128 * mib);
  info.global_cache_bytes = 0;  // none reported
  CHECK(opencl_probe_global_bytes(info) == 16 * mib);
  info.global_cache_bytes = 1024.0 * mib;
  CHECK(opencl_probe_global_bytes(info) == 256 * mib);
  info.max_alloc_bytes = 128.0 * mib;  // a quarter of the largest allocation
  CHECK(opencl_probe_global_bytes(info) == 32 * mib);
}

TEST_CASE("OpenCL probe: the kernel file defines every kernel the probe launches", "[opencl_probe]")
{
  const std::string source = opencl_probe_kernel_source("");
  int kernels = 0;
  for (const char *const *name = opencl_probe_kernel_names(); *name; ++name, ++kernels) {
    INFO(*name);
    CHECK(source.find(std::string("__kernel void ") + *name + "(") != std::string::npos);
  }
  CHECK(kernels == 5);
}
