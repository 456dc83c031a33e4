// The device probe's cache file: a probe reads back exactly, and a file that is
// truncated, mistyped, implausible, from another device/driver/NVRTC/femgpu, or carries
// unknown keys is refused with a reason (so load_or_probe re-probes), never trusted.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <regex>

#include "probe/device_cache.h"

using namespace femgpu;

namespace {

ProbeKey h200_key() { return ProbeKey::cuda("NVIDIA H200", "sm_90", 13000, "13.0", femgpu_version()); }

DeviceProbe sample_probe()
{
  DeviceProbe p;
  p.key = h200_key();
  p.params.name = p.key.device;
  p.params.beta_global = 4.4937e12;
  p.params.beta_local = 32.87e12;
  p.params.beta_ldg = 1.0 / 3.0 * 1e14;
  p.params.flops_peak = 33.28e12;
  p.params.local_max_bytes = 233472;
  p.params.local_max_per_group = 232448;
  p.params.groups_max = 32;
  p.params.threads_max = 1024;
  p.params.sg_sat_global = 29.7;  // extrapolated values need not be integers
  p.params.sg_sat_local = 8;
  p.multiprocessors = 132;
  p.runs = 9;
  p.global_bytes = 1073741824;
  p.saturation_fraction = 0.9;
  p.probe_seconds = 1.84;
  p.limits_note = "the CUDA driver's attributes";
  for (int w = 1; w <= 32; ++w) {
    p.global_curve.push_back({w, 4.4e12 * w / 32});
    p.local_curve.push_back({w, 32.8e12 * std::min(1.0, w / 8.0)});
  }
  return p;
}

std::optional<DeviceProbe> read(const std::string &text, std::string *why, const ProbeKey &key = h200_key())
{
  why->clear();
  return parse_device_cache(text, key, why);
}

// The text with `key`'s value (up to the end of its line, comma kept) replaced.
std::string with_value(const std::string &text, const std::string &key, const std::string &value)
{
  const std::regex re("(\"" + key + "\": )[^\\n]*?(,?\\n)");
  const std::string out = std::regex_replace(text, re, "$1" + value + "$2", std::regex_constants::format_first_only);
  REQUIRE(out != text);
  return out;
}

}  // namespace

TEST_CASE("Device cache: a probe reads back exactly", "[probe][cache]")
{
  const DeviceProbe p = sample_probe();
  const std::string text = device_cache_json(p);
  std::string why;
  const std::optional<DeviceProbe> back = read(text, &why);
  REQUIRE(back);
  CHECK(why.empty());
  CHECK(back->params.name == "NVIDIA H200");
  CHECK(back->params.beta_global == p.params.beta_global);
  CHECK(back->params.beta_local == p.params.beta_local);
  CHECK(back->params.beta_ldg == p.params.beta_ldg);
  CHECK(back->params.flops_peak == p.params.flops_peak);
  CHECK(back->params.local_max_bytes == p.params.local_max_bytes);
  CHECK(back->params.local_max_per_group == p.params.local_max_per_group);
  CHECK(back->params.groups_max == 32);
  CHECK(back->params.threads_max == 1024);
  CHECK(back->params.sg_sat_global == 29.7);
  CHECK(back->params.sg_sat_local == 8);
  CHECK(back->multiprocessors == 132);
  CHECK(back->probe_seconds == 1.84);
  REQUIRE(back->global_curve.size() == 32);
  for (size_t i = 0; i < 32; ++i) {
    CHECK(back->global_curve[i].warps_per_multiprocessor == p.global_curve[i].warps_per_multiprocessor);
    CHECK(back->global_curve[i].bytes_per_second == p.global_curve[i].bytes_per_second);
    CHECK(back->local_curve[i].bytes_per_second == p.local_curve[i].bytes_per_second);
  }
  CHECK(device_cache_json(*back) == text);  // and writes the same file again
}

TEST_CASE("Device cache: a file from another device, driver, NVRTC or femgpu is refused", "[probe][cache]")
{
  const std::string text = device_cache_json(sample_probe());
  std::string why;
  const ProbeKey base = h200_key();
  ProbeKey k = base;
  k.device = "NVIDIA H100 80GB HBM3";
  CHECK_FALSE(read(text, &why, k));
  CHECK(why.find("device") != std::string::npos);
  k = base;
  k.arch = "sm_100";
  CHECK_FALSE(read(text, &why, k));
  k = base;
  k.driver_version = 13010;
  CHECK_FALSE(read(text, &why, k));
  CHECK(why.find("driver_version") != std::string::npos);
  k = base;
  k.nvrtc_version = "13.1";
  CHECK_FALSE(read(text, &why, k));
  k = base;
  k.femgpu_version = "0.0.1";
  CHECK_FALSE(read(text, &why, k));
  CHECK(why.find("femgpu_version") != std::string::npos);
  CHECK_FALSE(read(with_value(text, "format", "\"femgpu-device-params/1\""), &why));  // before backends and subgroup_width
  CHECK(why.find("format") != std::string::npos);
}

TEST_CASE("Device cache: an OpenCL probe reads back, and only under its own OpenCL key", "[probe][cache][opencl_probe]")
{
  DeviceProbe p = sample_probe();
  p.key = ProbeKey::opencl("pthread-skylake-avx512-AMD EPYC", "OpenCL 3.0 PoCL HSTR: pthread-x86_64-pc-linux-gnu-skylake-avx512",
                           "3.1+debian", femgpu_version());
  p.params.subgroup_width = 8;
  p.params.groups_max = 1;
  const std::string text = device_cache_json(p);
  CHECK(text.find("\"backend\": \"opencl\"") != std::string::npos);
  CHECK(text.find("\"driver_version\": \"3.1+debian\"") != std::string::npos);
  CHECK(text.find("nvrtc_version") == std::string::npos);
  std::string why;
  const std::optional<DeviceProbe> back = read(text, &why, p.key);
  INFO(why);
  REQUIRE(back);
  CHECK(back->key.backend == "opencl");
  CHECK(back->key.opencl_driver_version == "3.1+debian");
  CHECK(back->params.subgroup_width == 8);
  CHECK(device_cache_json(*back) == text);

  ProbeKey k = p.key;
  k.opencl_driver_version = "3.2";
  CHECK_FALSE(read(text, &why, k));
  CHECK(why.find("driver_version") != std::string::npos);
  k = p.key;
  k.arch = "OpenCL 3.0 PoCL HSTR: pthread-x86_64-pc-linux-gnu-znver4";
  CHECK_FALSE(read(text, &why, k));
  CHECK(why.find("arch") != std::string::npos);
  // A CUDA key with the same device name never reads an OpenCL file, nor the other way.
  k = h200_key();
  k.device = p.key.device;
  CHECK_FALSE(read(text, &why, k));
  CHECK(why.find("backend") != std::string::npos);
  CHECK_FALSE(read(device_cache_json(sample_probe()), &why, ProbeKey::opencl("NVIDIA H200", "sm_90", "13000", femgpu_version())));
  CHECK(why.find("backend") != std::string::npos);
  CHECK(default_cache_path(p.key) != default_cache_path(k));
  CHECK_FALSE(read(with_value(text, "backend", "\"hip\""), &why, p.key));
}

TEST_CASE("Device cache: truncated or malformed files are refused", "[probe][cache]")
{
  const std::string text = device_cache_json(sample_probe());
  std::string why;
  for (size_t cut : {size_t(0), size_t(1), text.size() / 3, text.size() / 2, text.size() - 3})
    CHECK_FALSE(read(text.substr(0, cut), &why));
  CHECK(why.find("json") != std::string::npos);
  CHECK_FALSE(read(text + "{}", &why));
  CHECK_FALSE(read("garbage", &why));
}

TEST_CASE("Device cache: missing, renamed and unknown keys are refused", "[probe][cache]")
{
  const std::string text = device_cache_json(sample_probe());
  std::string why;
  const std::string renamed = std::regex_replace(text, std::regex("\"beta_ldg\""), "\"beta_L1\"");
  CHECK_FALSE(read(renamed, &why));
  CHECK(why.find("beta_ldg") != std::string::npos);
  const std::string extra = std::regex_replace(text, std::regex("\\{\\n"), "{\n  \"comment\": \"hand-edited\",\n");
  CHECK_FALSE(read(extra, &why));
  CHECK(why.find("unknown key \"comment\"") != std::string::npos);
}

TEST_CASE("Device cache: values of the wrong type or out of range are refused", "[probe][cache]")
{
  const std::string text = device_cache_json(sample_probe());
  std::string why;
  const std::pair<const char *, const char *> bad[] = {
      {"beta_global", "\"4.5e12\""},         // a string
      {"beta_global", "[4.5e12]"},           // an array
      {"beta_global", "NaN"},                // not JSON
      {"beta_global", "0"},                  // not positive
      {"flops_peak", "-33e12"},              //
      {"sg_sat_local", "1e999"},             // overflows
      {"groups_max", "32.5"},                // not an integer
      {"threads_max", "1e10"},               // too big for an int
      {"driver_version", "\"13000\""},       // a string
      {"device", "42"},                      // a number
      {"saturation_fraction", "1.5"},        // above 1
      {"warps_per_multiprocessor", "[2, 1]"},  // not ascending
      {"local_bytes_per_second", "[1, 2]"},  // wrong length
      {"subgroup_width", "0"},               // not positive
      {"limits_note", "\"\""},               // no evidence
  };
  for (const auto &[key, value] : bad) {
    INFO(key << ": " << value);
    CHECK_FALSE(read(with_value(text, key, value), &why));
    CHECK_FALSE(why.empty());
  }
}

TEST_CASE("Device cache: file names are safe and follow XDG_CACHE_HOME", "[probe][cache]")
{
  CHECK(cache_file_name("NVIDIA H200", "sm_90") == "device-NVIDIA-H200-sm_90.json");
  CHECK(cache_file_name("a/b c:\\d", "sm_90") == "device-a-b-c--d-sm_90.json");
  const char *old = std::getenv("XDG_CACHE_HOME");
  const std::string saved = old ? old : "";
  setenv("XDG_CACHE_HOME", "/tmp/xdg-test", 1);
  CHECK(default_cache_path("NVIDIA H200", "sm_90") == "/tmp/xdg-test/femgpu/device-NVIDIA-H200-sm_90.json");
  setenv("XDG_CACHE_HOME", "relative/ignored", 1);
  setenv("HOME", std::getenv("HOME") ? std::getenv("HOME") : "/root", 1);
  CHECK(default_cache_path("X", "sm_90") == std::string(std::getenv("HOME")) + "/.cache/femgpu/device-X-sm_90.json");
  CHECK(default_cache_path(ProbeKey::opencl("pthread-x/y", "OpenCL 3.0", "3.1", "0")) ==
        std::string(std::getenv("HOME")) + "/.cache/femgpu/device-opencl-pthread-x-y.json");
  if (old) setenv("XDG_CACHE_HOME", saved.c_str(), 1);
  else unsetenv("XDG_CACHE_HOME");
}
