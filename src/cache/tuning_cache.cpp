// Tuning cache entries <-> JSON, each field checked and the checksum verified before a
// schedule is trusted.
#include "cache/tuning_cache.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <set>
#include <sstream>
#include <stdexcept>

#include "ir/ir_print.h"
#include "cache/cache_file.h"
#include "cache/json_lite.h"

namespace femgpu {

namespace {

// /3: the tuning settings of the key are written from the table of tuning parameters
// (tune_params.h) and the plan's rounds; /2 wrote them in another form, so a /2 key would
// never match and is not read as one.
constexpr const char *kFormat = "femgpu-tuning-cache/3";
// Every version's header: a file starting with it is a tuning cache (perhaps an old or
// a truncated one) that a store may replace; any other file is left alone.
constexpr const char *kFormatPrefix = "femgpu-tuning-cache/";

bool is_blank(const std::string &text) { return text.find_first_not_of(" \t\r\n") == std::string::npos; }
bool is_tuning_cache(const std::string &text) { return has_format_header(text, kFormatPrefix); }

std::string fnv1a_hex(const std::string &text)
{
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

struct Invalid : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A tuning cache of another format version: ours, but its keys are not this version's.
struct OtherFormat : std::runtime_error {
  using std::runtime_error::runtime_error;
};

json::Object key_object(const TuningKey &k)
{
  json::Object o;
  o.set("form_fingerprint", json::Value::of(k.form_fingerprint));
  o.set("cell", json::Value::of(k.cell));
  o.set("degree", json::Value::of(k.degree));
  o.set("components", json::Value::of(k.components));
  o.set("coordinate_degree", json::Value::of(k.coordinate_degree));
  o.set("quadrature_degree", json::Value::of(k.quadrature_degree));
  o.set("quadrature_points", json::Value::of(k.quadrature_points));
  o.set("precision", json::Value::of(k.precision));
  o.set("backend", json::Value::of(k.backend));
  o.set("device", json::Value::of(k.device));
  o.set("device_version", json::Value::of(k.device_version));
  o.set("driver_version", json::Value::of(k.driver_version));
  o.set("nvrtc_version", json::Value::of(k.nvrtc_version));
  o.set("femgpu_version", json::Value::of(k.femgpu_version));
  o.set("cells_bucket", json::Value::of(static_cast<double>(k.cells_bucket)));
  o.set("tuning_settings", json::Value::of(k.tuning_settings));
  return o;
}

// Every field but the checksum.
json::Object unsigned_entry_object(const TuningEntry &e)
{
  json::Object o = key_object(e.key);
  o.set("schedule", json::Value::of(e.schedule));
  o.set("median_seconds", json::Value::of(e.median_seconds));
  o.set("candidates_timed", json::Value::of(e.candidates_timed));
  o.set("date", json::Value::of(e.date));
  return o;
}

std::string canonical_text(const json::Object &o)
{
  std::string text;
  for (const auto &[key, v] : o.entries())
    text += key + "=" + (v.kind == json::Value::Kind::String ? v.string : json::format_number(v.number)) + "\n";
  return text;
}

// Typed access to an entry's keys; every key must be used exactly once.
class Fields {
 public:
  explicit Fields(const json::Object &o) : o_(o) {}
  const json::Value &get(const std::string &key, json::Value::Kind kind)
  {
    const json::Value *v = o_.find(key);
    if (!v) throw Invalid("missing \"" + key + "\"");
    if (v->kind != kind) throw Invalid("\"" + key + "\" has the wrong type");
    used_.insert(key);
    return *v;
  }
  std::string string(const std::string &key) { return get(key, json::Value::Kind::String).string; }
  long long integer(const std::string &key)
  {
    const double x = get(key, json::Value::Kind::Number).number;
    if (x < 0 || x != std::floor(x) || x > 9.0e15) throw Invalid("\"" + key + "\" must be a non-negative integer");
    return static_cast<long long>(x);
  }
  int small(const std::string &key)
  {
    const long long x = integer(key);
    if (x > 2147483647) throw Invalid("\"" + key + "\" is too large");
    return static_cast<int>(x);
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

// An entry and its stored checksum, or Invalid.
TuningEntry read_entry(const json::Object &o, std::string *checksum)
{
  Fields f(o);
  TuningEntry e;
  TuningKey &k = e.key;
  k.form_fingerprint = f.string("form_fingerprint");
  k.cell = f.string("cell");
  k.degree = f.small("degree");
  k.components = f.small("components");
  k.coordinate_degree = f.small("coordinate_degree");
  k.quadrature_degree = f.small("quadrature_degree");
  k.quadrature_points = f.small("quadrature_points");
  k.precision = f.string("precision");
  k.backend = f.string("backend");
  k.device = f.string("device");
  k.device_version = f.string("device_version");
  k.driver_version = f.string("driver_version");
  k.nvrtc_version = f.string("nvrtc_version");
  k.femgpu_version = f.string("femgpu_version");
  k.cells_bucket = f.integer("cells_bucket");
  k.tuning_settings = f.string("tuning_settings");
  e.schedule = f.string("schedule");
  e.median_seconds = f.get("median_seconds", json::Value::Kind::Number).number;
  e.candidates_timed = f.small("candidates_timed");
  e.date = f.string("date");
  *checksum = f.string("checksum");
  f.no_other_keys();
  return e;
}

// The entries of a well-formed file (empty for an empty list); Invalid otherwise.
std::vector<json::Object> read_file_entries(const std::string &text)
{
  const json::Object top = json::parse(text);
  Fields f(top);
  const std::string format = f.string("format");
  if (format != kFormat && format.rfind(kFormatPrefix, 0) == 0)
    throw OtherFormat("a tuning cache of format \"" + format + "\", not this femgpu's \"" + kFormat +
                      "\" (its keys are written differently): its entries are not used, tuning runs and the next store rewrites the file");
  if (format != kFormat) throw Invalid("\"format\" is not \"" + std::string(kFormat) + "\"");
  const json::Value *entries = top.find("entries");
  if (!entries) throw Invalid("missing \"entries\"");
  if (entries->kind == json::Value::Kind::NumberArray && entries->numbers.empty()) return {};
  const std::vector<json::Object> out = f.get("entries", json::Value::Kind::ObjectArray).objects;
  f.no_other_keys();
  return out;
}

bool same_key(const TuningKey &a, const TuningKey &b)
{
  return canonical_text(key_object(a)) == canonical_text(key_object(b));
}

}  // namespace

const char *to_string(CacheStatus s)
{
  switch (s) {
    case CacheStatus::Hit: return "hit";
    case CacheStatus::NoFile: return "no cache file";
    case CacheStatus::Unreadable: return "unreadable file";
    case CacheStatus::ForeignFile: return "not a tuning cache";
    case CacheStatus::Miss: return "miss";
    case CacheStatus::CorruptFile: return "corrupt file";
    case CacheStatus::OtherFormat: return "other format version";
    case CacheStatus::CorruptEntry: return "corrupt entry";
    case CacheStatus::BadChecksum: return "checksum mismatch";
    case CacheStatus::InvalidSchedule: return "invalid schedule";
  }
  return "?";
}

std::string form_fingerprint(const ActionIR &ir, int n_quadrature_points, bool test_identity)
{
  std::ostringstream os;
  print_ir_json(os, ir, n_quadrature_points);
  print_ir_listing(os, ir);
  if (test_identity) os << "tables: identity test side\n";
  return fnv1a_hex(os.str());
}

// Why a bucket and not the exact count: the best schedule depends on the number of
// cells only through how many waves of work-groups fill the device, which changes
// slowly; exact counts would retune after every refinement or repartitioning, while
// one bucket spans at most a factor of two.
long long cell_count_bucket(long long n_cells)
{
  long long bucket = 1;
  while (bucket < n_cells) bucket *= 2;
  return bucket;
}

TuningKey tuning_key(const ActionIR &ir, int n_quadrature_points, long long n_cells, bool test_identity)
{
  TuningKey k;
  k.form_fingerprint = form_fingerprint(ir, n_quadrature_points, test_identity);
  k.cell = cell_name(ir.signature.cell);
  k.degree = ir.signature.element.degree;
  k.components = ir.signature.element.components;
  k.coordinate_degree = ir.signature.coordinate_degree;
  k.quadrature_degree = ir.quadrature_degree;
  k.quadrature_points = n_quadrature_points;
  k.femgpu_version = femgpu_version();
  k.cells_bucket = cell_count_bucket(n_cells);
  return k;
}

std::string entry_checksum(const TuningEntry &entry) { return fnv1a_hex(canonical_text(unsigned_entry_object(entry))); }

std::string utc_date_now()
{
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buf;
}

CacheLookup find_tuning(const std::string &text, const TuningKey &key, const std::function<void(const Schedule &)> &check)
{
  CacheLookup r;
  std::vector<json::Object> entries;
  if (!is_blank(text) && !is_tuning_cache(text)) {
    r.status = CacheStatus::ForeignFile;
    r.why = std::string("not a femgpu tuning cache (it does not start with {\"format\": \"") + kFormatPrefix +
            "...\"): left as it is, nothing will be stored in it";
    return r;
  }
  try {
    entries = read_file_entries(text);
  } catch (const OtherFormat &e) {
    r.status = CacheStatus::OtherFormat;
    r.why = e.what();
    return r;
  } catch (const std::runtime_error &e) {  // json::JsonError or Invalid
    r.status = CacheStatus::CorruptFile;
    r.why = std::string("corrupt file: ") + e.what();
    return r;
  }
  std::string malformed;
  for (size_t i = 0; i < entries.size(); ++i) {
    std::string stored;
    try {
      r.entry = read_entry(entries[i], &stored);
    } catch (const Invalid &e) {
      if (malformed.empty()) malformed = "entry " + std::to_string(i) + " is malformed: " + e.what();
      continue;
    }
    if (!same_key(r.entry.key, key)) continue;
    if (stored != entry_checksum(r.entry)) {
      r.status = CacheStatus::BadChecksum;
      r.why = "checksum mismatch: the entry was edited or damaged (stored " + stored + ", computed " + entry_checksum(r.entry) + ")";
      return r;
    }
    try {
      Schedule s = parse_schedule(r.entry.schedule);
      if ((s.precision() == Precision::FP64 ? "fp64" : "fp32") != key.precision)
        throw std::invalid_argument("its precision is not " + key.precision);
      check(s);
      r.schedule = s;
    } catch (const std::exception &e) {  // std::invalid_argument, or whatever a backend's check throws
      r.status = CacheStatus::InvalidSchedule;
      r.why = "invalid schedule \"" + r.entry.schedule + "\": " + e.what();
      return r;
    }
    r.status = CacheStatus::Hit;
    return r;
  }
  r.entry = TuningEntry{};
  r.status = malformed.empty() ? CacheStatus::Miss : CacheStatus::CorruptEntry;
  r.why = malformed.empty() ? "no entry for this form, device and size (" + std::to_string(entries.size()) + " entries in the file)"
                            : "no usable entry; " + malformed;
  return r;
}

std::string with_tuning(const std::string &text, const TuningEntry &entry)
{
  std::vector<json::Object> kept;
  try {
    for (const json::Object &o : read_file_entries(text)) {
      std::string stored;
      try {
        if (!same_key(read_entry(o, &stored).key, entry.key)) kept.push_back(o);
      } catch (const Invalid &) {
        // unreadable: it could never be used, so it is dropped
      }
    }
  } catch (const std::runtime_error &) {
    kept.clear();  // a corrupt file is rewritten from scratch
  }
  json::Object fresh = unsigned_entry_object(entry);
  fresh.set("checksum", json::Value::of(entry_checksum(entry)));
  kept.push_back(fresh);
  json::Object top;
  top.set("format", json::Value::of(std::string(kFormat)));
  top.set("entries", json::Value::of(kept));
  return json::write(top);
}

std::string default_tuning_cache_path() { return default_cache_file("tuning.json"); }

CacheLookup lookup_tuning(const std::string &path, const TuningKey &key, const std::function<void(const Schedule &)> &check)
{
  const CacheFileText file = read_cache_file(path);
  if (!file.text) {
    CacheLookup r;
    r.status = file.exists ? CacheStatus::Unreadable : CacheStatus::NoFile;
    r.why = file.exists ? file.why : "no file " + path + " yet";
    return r;
  }
  return find_tuning(*file.text, key, check);
}

std::string store_tuning(const std::string &path, const TuningEntry &entry)
{
  try {
    return update_cache_file(path, is_tuning_cache, [&](const std::string &current) { return with_tuning(current, entry); });
  } catch (const std::exception &e) {  // e.g. json::JsonError for a non-finite time
    return e.what();
  }
}

}  // namespace femgpu
