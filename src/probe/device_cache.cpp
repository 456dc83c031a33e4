// DeviceProbe <-> JSON, with every field of a read file checked before it is trusted.
#include "probe/device_cache.h"

#include <cmath>
#include <cstdlib>
#include <set>
#include <stdexcept>

#include "cache/cache_file.h"
#include "cache/json_lite.h"

namespace femgpu {

namespace {

// 2: the key's "backend" (and OpenCL keys), "subgroup_width", "limits_note".
constexpr const char *kFormat = "femgpu-device-params/2";

// The DeviceParams numbers, by name, so writing and reading cannot drift apart.
struct NumberField {
  const char *name;
  double DeviceParams::*member;
};
const NumberField kNumberFields[] = {
    {"beta_global", &DeviceParams::beta_global},       {"beta_local", &DeviceParams::beta_local},
    {"beta_ldg", &DeviceParams::beta_ldg},             {"flops_peak", &DeviceParams::flops_peak},
    {"local_max_bytes", &DeviceParams::local_max_bytes}, {"local_max_per_group", &DeviceParams::local_max_per_group},
    {"sg_sat_global", &DeviceParams::sg_sat_global},   {"sg_sat_local", &DeviceParams::sg_sat_local},
};
struct IntField {
  const char *name;
  int DeviceParams::*member;
};
const IntField kIntFields[] = {{"groups_max", &DeviceParams::groups_max},
                               {"threads_max", &DeviceParams::threads_max},
                               {"subgroup_width", &DeviceParams::subgroup_width}};

struct Invalid : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Typed, checked access to the object's keys; remembers which keys were used.
class Fields {
 public:
  explicit Fields(const json::Object &o) : o_(o) {}

  const json::Value &get(const std::string &key, json::Value::Kind kind, const char *kind_name)
  {
    const json::Value *v = o_.find(key);
    if (!v) throw Invalid("missing key \"" + key + "\"");
    if (v->kind != kind) throw Invalid("\"" + key + "\" is not " + kind_name);
    used_.insert(key);
    return *v;
  }
  std::string string(const std::string &key) { return get(key, json::Value::Kind::String, "a string").string; }
  std::string nonempty_string(const std::string &key)
  {
    std::string s = string(key);
    if (s.empty()) throw Invalid("\"" + key + "\" is empty");
    return s;
  }
  double positive(const std::string &key)
  {
    const double x = get(key, json::Value::Kind::Number, "a number").number;
    if (!(x > 0)) throw Invalid("\"" + key + "\" must be positive, is " + json::format_number(x));
    return x;
  }
  int positive_int(const std::string &key)
  {
    const double x = positive(key);
    if (x != std::floor(x) || x > 2147483647.0) throw Invalid("\"" + key + "\" must be an integer, is " + json::format_number(x));
    return static_cast<int>(x);
  }
  std::vector<double> numbers(const std::string &key)
  {
    return get(key, json::Value::Kind::NumberArray, "an array of numbers").numbers;
  }
  void no_other_keys() const
  {
    for (const auto &[key, value] : o_.entries())
      if (!used_.count(key)) throw Invalid("unknown key \"" + key + "\"");
  }

 private:
  const json::Object &o_;
  std::set<std::string> used_;
};

void expect_equal(const std::string &what, const std::string &found, const std::string &expected)
{
  if (found != expected) throw Invalid(what + " is \"" + found + "\", this run has \"" + expected + "\"");
}

std::vector<BandwidthPoint> read_curve(Fields &f, const std::string &key, const std::vector<double> &warps)
{
  const std::vector<double> bandwidth = f.numbers(key);
  if (bandwidth.size() != warps.size())
    throw Invalid("\"" + key + "\" has " + std::to_string(bandwidth.size()) + " points, warps_per_multiprocessor " +
                  std::to_string(warps.size()));
  std::vector<BandwidthPoint> curve;
  for (size_t i = 0; i < warps.size(); ++i) {
    if (bandwidth[i] < 0) throw Invalid("\"" + key + "\" has a negative bandwidth");
    curve.push_back({static_cast<int>(warps[i]), bandwidth[i]});
  }
  return curve;
}

// The key, each part compared with this run's: the backend first, so that a file of
// the other backend is refused as such and not for its driver_version's type.
void read_key(Fields &f, const ProbeKey &expected, ProbeKey *key)
{
  key->backend = f.string("backend");
  expect_equal("backend", key->backend, expected.backend);
  key->femgpu_version = f.string("femgpu_version");
  key->device = f.string("device");
  key->arch = f.string("arch");
  expect_equal("femgpu_version", key->femgpu_version, expected.femgpu_version);
  expect_equal("device", key->device, expected.device);
  expect_equal("arch", key->arch, expected.arch);
  if (key->backend == "opencl") {
    key->opencl_driver_version = f.string("driver_version");
    expect_equal("driver_version", key->opencl_driver_version, expected.opencl_driver_version);
    return;
  }
  key->driver_version = f.positive_int("driver_version");
  key->nvrtc_version = f.string("nvrtc_version");
  expect_equal("driver_version", std::to_string(key->driver_version), std::to_string(expected.driver_version));
  expect_equal("nvrtc_version", key->nvrtc_version, expected.nvrtc_version);
}

DeviceProbe read_probe(const json::Object &o, const ProbeKey &expected)
{
  Fields f(o);
  DeviceProbe p;
  expect_equal("format", f.string("format"), kFormat);
  read_key(f, expected, &p.key);
  p.params.name = p.key.device;
  for (const NumberField &field : kNumberFields) p.params.*field.member = f.positive(field.name);
  for (const IntField &field : kIntFields) p.params.*field.member = f.positive_int(field.name);
  p.multiprocessors = f.positive_int("multiprocessors");
  p.runs = f.positive_int("runs");
  p.global_bytes = f.positive("global_bytes");
  p.saturation_fraction = f.positive("saturation_fraction");
  if (p.saturation_fraction > 1) throw Invalid("\"saturation_fraction\" is above 1");
  p.probe_seconds = f.positive("probe_seconds");
  p.limits_note = f.nonempty_string("limits_note");
  const std::vector<double> warps = f.numbers("warps_per_multiprocessor");
  if (warps.empty()) throw Invalid("\"warps_per_multiprocessor\" is empty");
  for (size_t i = 0; i < warps.size(); ++i)
    if (warps[i] < 1 || warps[i] != std::floor(warps[i]) || warps[i] > 4096 || (i && warps[i] <= warps[i - 1]))
      throw Invalid("\"warps_per_multiprocessor\" must be ascending integers in [1, 4096]");
  p.global_curve = read_curve(f, "global_bytes_per_second", warps);
  p.local_curve = read_curve(f, "local_bytes_per_second", warps);
  f.no_other_keys();
  return p;
}

std::vector<double> bandwidths(const std::vector<BandwidthPoint> &curve)
{
  std::vector<double> out;
  for (const BandwidthPoint &p : curve) out.push_back(p.bytes_per_second);
  return out;
}

}  // namespace

std::string device_cache_json(const DeviceProbe &p)
{
  if (p.global_curve.size() != p.local_curve.size())
    throw std::invalid_argument("device_cache_json: the global and shared-memory curves differ in length");
  json::Object o;
  if (p.key.backend != "cuda" && p.key.backend != "opencl")
    throw std::invalid_argument("device_cache_json: unknown backend \"" + p.key.backend + "\"");
  o.set("format", json::Value::of(std::string(kFormat)));
  o.set("backend", json::Value::of(p.key.backend));
  o.set("femgpu_version", json::Value::of(p.key.femgpu_version));
  o.set("device", json::Value::of(p.key.device));
  o.set("arch", json::Value::of(p.key.arch));
  if (p.key.backend == "opencl") {
    o.set("driver_version", json::Value::of(p.key.opencl_driver_version));
  } else {
    o.set("driver_version", json::Value::of(p.key.driver_version));
    o.set("nvrtc_version", json::Value::of(p.key.nvrtc_version));
  }
  for (const NumberField &field : kNumberFields) o.set(field.name, json::Value::of(p.params.*field.member));
  for (const IntField &field : kIntFields) o.set(field.name, json::Value::of(p.params.*field.member));
  o.set("multiprocessors", json::Value::of(p.multiprocessors));
  o.set("runs", json::Value::of(p.runs));
  o.set("global_bytes", json::Value::of(p.global_bytes));
  o.set("saturation_fraction", json::Value::of(p.saturation_fraction));
  o.set("probe_seconds", json::Value::of(p.probe_seconds));
  o.set("limits_note", json::Value::of(p.limits_note));
  std::vector<double> warps;
  for (size_t i = 0; i < p.global_curve.size(); ++i) {
    if (p.global_curve[i].warps_per_multiprocessor != p.local_curve[i].warps_per_multiprocessor)
      throw std::invalid_argument("device_cache_json: the two curves are measured at different warp counts");
    warps.push_back(p.global_curve[i].warps_per_multiprocessor);
  }
  o.set("warps_per_multiprocessor", json::Value::of(warps));
  o.set("global_bytes_per_second", json::Value::of(bandwidths(p.global_curve)));
  o.set("local_bytes_per_second", json::Value::of(bandwidths(p.local_curve)));
  return json::write(o);
}

std::optional<DeviceProbe> parse_device_cache(const std::string &text, const ProbeKey &expected, std::string *why)
{
  try {
    return read_probe(json::parse(text), expected);
  } catch (const std::runtime_error &e) {  // json::JsonError or Invalid
    if (why) *why = e.what();
    return std::nullopt;
  }
}

namespace {

std::string safe_file_name(std::string name)
{
  for (char &c : name)
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-')) c = '-';
  return name;
}

}  // namespace

std::string cache_file_name(const std::string &device, const std::string &arch)
{
  return safe_file_name("device-" + device + "-" + arch + ".json");
}

std::string default_cache_path(const std::string &device, const std::string &arch)
{
  return default_cache_file(cache_file_name(device, arch));
}

std::string default_cache_path(const ProbeKey &key)
{
  if (key.backend == "opencl") return default_cache_file(safe_file_name("device-opencl-" + key.device + ".json"));
  return default_cache_path(key.device, key.arch);
}

}  // namespace femgpu
