// The tuning cache: a stored schedule is found again only under exactly its key, with
// its checksum intact and when it can run the form; a corrupt file is reported, never
// trusted, and rewritten by the next store, which keeps the other entries.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <functional>
#include <fstream>
#include <sstream>

#include "form/parser.h"
#include "fem/action_tables.h"
#include "ir/lower.h"
#include "cache/cache_file.h"
#include "tune/tune_plan.h"
#include "tune/tuner.h"
#include "cache/tuning_cache.h"

using namespace femgpu;

namespace {

TuningKey some_key()
{
  TuningKey k;
  k.form_fingerprint = "0123456789abcdef";
  k.cell = "triangle";
  k.degree = 2;
  k.components = 1;
  k.coordinate_degree = 1;
  k.quadrature_degree = 2;
  k.quadrature_points = 3;
  k.precision = "fp64";
  k.backend = "opencl";
  k.device = "pthread-cpu";
  k.device_version = "OpenCL 3.0 PoCL";
  k.driver_version = "3.1";
  k.nvrtc_version = "none";
  k.femgpu_version = "0.1.0";
  k.cells_bucket = 64;
  k.tuning_settings = tuning_settings_text(TuneSettings{});
  return k;
}

TuningEntry some_entry(const TuningKey &key, const std::string &schedule = "tiled nc=4 nwi=1 tq=3 ter=3 tec=[6] tqr=6 tqc=3 fp64")
{
  return TuningEntry{key, schedule, 5.5e-05, 3, "2026-01-02T03:04:05Z"};
}

// Accepts work-groups up to 256 cells and every tiled schedule.
void check_small_groups(const Schedule &s)
{
  if (s.strategy() == Strategy::SingleCellPerWorkItem && s.work_group_size() > 256)
    throw std::invalid_argument("work_group_size above 256");
}

std::string replaced(std::string text, const std::string &from, const std::string &to)
{
  const size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

// A fresh folder under the system's temporary directory, removed afterwards.
struct TempDir {
  std::filesystem::path path = std::filesystem::temp_directory_path() /
                               ("femgpu-tuning-cache-test-" + std::to_string(::getpid()));
  TempDir() { std::filesystem::create_directories(path); }
  ~TempDir() { std::filesystem::remove_all(path); }
};

}  // namespace

TEST_CASE("Tuning cache: a stored entry is found under its key", "[cache]")
{
  const TuningKey key = some_key();
  const std::string text = with_tuning("", some_entry(key));
  CacheLookup r = find_tuning(text, key, check_small_groups);
  REQUIRE(r.status == CacheStatus::Hit);
  CHECK(to_string(*r.schedule) == some_entry(key).schedule);
  CHECK(r.entry.median_seconds == 5.5e-05);
  CHECK(r.entry.candidates_timed == 3);
  CHECK(r.entry.date == "2026-01-02T03:04:05Z");
}

TEST_CASE("Tuning cache: any other value of any key field is a miss", "[cache]")
{
  const TuningKey key = some_key();
  const std::string text = with_tuning("", some_entry(key));
  std::vector<std::pair<std::string, std::function<void(TuningKey &)>>> changes = {
      {"form_fingerprint", [](TuningKey &k) { k.form_fingerprint = "fedcba9876543210"; }},
      {"cell", [](TuningKey &k) { k.cell = "tetrahedron"; }},
      {"degree", [](TuningKey &k) { k.degree = 3; }},
      {"components", [](TuningKey &k) { k.components = 2; }},
      {"coordinate_degree", [](TuningKey &k) { k.coordinate_degree = 2; }},
      {"quadrature_degree", [](TuningKey &k) { k.quadrature_degree = 4; }},
      {"quadrature_points", [](TuningKey &k) { k.quadrature_points = 6; }},
      {"precision", [](TuningKey &k) { k.precision = "fp32"; }},
      {"backend", [](TuningKey &k) { k.backend = "cuda"; }},
      {"device", [](TuningKey &k) { k.device = "NVIDIA H200"; }},
      {"device_version", [](TuningKey &k) { k.device_version = "OpenCL 1.2"; }},
      {"driver_version", [](TuningKey &k) { k.driver_version = "3.2"; }},
      {"nvrtc_version", [](TuningKey &k) { k.nvrtc_version = "13.0"; }},
      {"femgpu_version", [](TuningKey &k) { k.femgpu_version = "0.2.0"; }},
      {"cells_bucket", [](TuningKey &k) { k.cells_bucket = 128; }},
      {"tuning_settings", [](TuningKey &k) {
         TuneSettings s;
         s.tiled_loops = Loops::Compiler;
         k.tuning_settings = tuning_settings_text(s);
       }},
  };
  for (auto &[field, change] : changes) {
    INFO(field);
    TuningKey other = key;
    change(other);
    CacheLookup r = find_tuning(text, other, check_small_groups);
    CHECK(r.status == CacheStatus::Miss);
    CHECK(!r.schedule);
  }
}

TEST_CASE("Tuning cache: cell counts share a power-of-two bucket", "[cache]")
{
  CHECK(cell_count_bucket(0) == 1);
  CHECK(cell_count_bucket(1) == 1);
  CHECK(cell_count_bucket(32) == 32);
  CHECK(cell_count_bucket(33) == 64);
  CHECK(cell_count_bucket(64) == 64);
  CHECK(cell_count_bucket(1000000) == 1048576);
}

TEST_CASE("Tuning cache: an edited entry fails its checksum", "[cache]")
{
  const TuningKey key = some_key();
  const std::string text = with_tuning("", some_entry(key));
  const std::string edits[][2] = {
      {"tec=[6]", "tec=[5]"},  // still a valid schedule
      {"\"median_seconds\": 5.5e-05", "\"median_seconds\": 1e-05"},
      {"\"candidates_timed\": 3", "\"candidates_timed\": 30"},
      {"2026-01-02", "2026-01-03"},
  };
  for (const auto &edit : edits) {
    INFO(edit[0]);
    CacheLookup r = find_tuning(replaced(text, edit[0], edit[1]), key, check_small_groups);
    CHECK(r.status == CacheStatus::BadChecksum);
    CHECK(!r.schedule);
    CHECK_THAT(r.why, Catch::Contains("checksum"));
  }
}

TEST_CASE("Tuning cache: truncated or damaged caches are reported, then rewritten", "[cache]")
{
  const TuningKey key = some_key();
  const std::string good = with_tuning("", some_entry(key));
  const std::string bad[] = {
      good.substr(0, good.size() / 2),  // truncated
      "",                               // empty
      "{\"format\": \"femgpu-tuning-cache/3\"}",  // no entries
  };
  for (const std::string &text : bad) {
    INFO(text);
    CacheLookup r = find_tuning(text, key, check_small_groups);
    CHECK(r.status == CacheStatus::CorruptFile);
    CHECK(!r.schedule);
    // The next store starts the file afresh, and the entry reads back.
    CHECK(find_tuning(with_tuning(text, some_entry(key)), key, check_small_groups).status == CacheStatus::Hit);
  }
}

TEST_CASE("Tuning cache: a cache of another format version is not read, and is rewritten", "[cache]")
{
  const TuningKey key = some_key();
  const std::string good = with_tuning("", some_entry(key));
  REQUIRE(good.find("femgpu-tuning-cache/3") != std::string::npos);
  // /1 (before 0.4.0: no tuning_settings) and /2 (settings not written from the table of
  // tuning parameters): the same entry under an older header is never taken as a hit.
  for (const char *older : {"femgpu-tuning-cache/1", "femgpu-tuning-cache/2"}) {
    INFO(older);
    const std::string text = replaced(good, "femgpu-tuning-cache/3", older);
    CacheLookup r = find_tuning(text, key, check_small_groups);
    CHECK(r.status == CacheStatus::OtherFormat);
    CHECK(!r.schedule);
    CHECK_THAT(r.why, Catch::Contains(older) && Catch::Contains("femgpu-tuning-cache/3") && Catch::Contains("rewrites"));
    const std::string rewritten = with_tuning(text, some_entry(key));
    CHECK(rewritten.find(older) == std::string::npos);
    CHECK(find_tuning(rewritten, key, check_small_groups).status == CacheStatus::Hit);
  }
}

TEST_CASE("Tuning cache: a file without the format header is foreign, not corrupt", "[cache]")
{
  const TuningKey key = some_key();
  const std::string good = with_tuning("", some_entry(key));
  const std::string foreign[] = {
      "\x01\x02 not json at all \xff",  // garbage
      "{\"format\": \"something-else/1\", \"entries\": []}",
      "{\"name\": \"my project\", \"version\": 3}",
      "a = inner(grad(u), grad(v))*dx\n",  // a form file
      replaced(good, "\"format\"", "\"formats\""),
  };
  for (const std::string &text : foreign) {
    INFO(text);
    CacheLookup r = find_tuning(text, key, check_small_groups);
    CHECK(r.status == CacheStatus::ForeignFile);
    CHECK(!r.schedule);
    CHECK_THAT(r.why, Catch::Contains("not a femgpu tuning cache"));
  }
}

TEST_CASE("Tuning cache: a malformed entry is reported and dropped by the next store", "[cache]")
{
  const TuningKey key = some_key();
  const std::string text = replaced(with_tuning("", some_entry(key)), "\"degree\": 2", "\"degree\": \"two\"");
  CacheLookup r = find_tuning(text, key, check_small_groups);
  CHECK(r.status == CacheStatus::CorruptEntry);
  CHECK_THAT(r.why, Catch::Contains("degree"));
  const std::string rewritten = with_tuning(text, some_entry(key));
  CHECK(rewritten.find("\"two\"") == std::string::npos);
  CHECK(find_tuning(rewritten, key, check_small_groups).status == CacheStatus::Hit);
}

TEST_CASE("Tuning cache: a schedule that cannot run the form is rejected", "[cache]")
{
  TuningKey key = some_key();
  CacheLookup r = find_tuning(with_tuning("", some_entry(key, "scpwi wg=512 fp64")), key, check_small_groups);
  CHECK(r.status == CacheStatus::InvalidSchedule);
  CHECK_THAT(r.why, Catch::Contains("above 256"));
  // Unreadable schedule text with a valid checksum.
  r = find_tuning(with_tuning("", some_entry(key, "scpwi wg=32")), key, check_small_groups);
  CHECK(r.status == CacheStatus::InvalidSchedule);
  // A schedule of another precision than the key's.
  r = find_tuning(with_tuning("", some_entry(key, "scpwi wg=32 fp32")), key, check_small_groups);
  CHECK(r.status == CacheStatus::InvalidSchedule);
}

TEST_CASE("Tuning cache: storing keeps the other entries and replaces its own", "[cache]")
{
  const TuningKey a = some_key();
  TuningKey b = a, c = a;
  b.device = "another device";
  c.cells_bucket = 4096;
  std::string text = with_tuning("", some_entry(a));
  text = with_tuning(text, some_entry(b, "scpwi wg=64 fp64"));
  text = with_tuning(text, some_entry(c, "scpwi wg=128 fp64"));
  text = with_tuning(text, some_entry(a, "scpwi wg=16 fp64"));  // replaces a's entry
  CHECK(to_string(*find_tuning(text, a, check_small_groups).schedule) == "scpwi wg=16 fp64");
  CHECK(to_string(*find_tuning(text, b, check_small_groups).schedule) == "scpwi wg=64 fp64");
  CHECK(to_string(*find_tuning(text, c, check_small_groups).schedule) == "scpwi wg=128 fp64");
  size_t entries = 0;
  for (size_t at = text.find("\"checksum\""); at != std::string::npos; at = text.find("\"checksum\"", at + 1)) ++entries;
  CHECK(entries == 3);
}

TEST_CASE("Tuning cache: files are written atomically and read back", "[cache]")
{
  TempDir dir;
  const std::string path = (dir.path / "sub" / "tuning.json").string();
  const TuningKey key = some_key();
  CHECK(lookup_tuning(path, key, check_small_groups).status == CacheStatus::NoFile);
  CHECK(store_tuning(path, some_entry(key)) == "");
  CHECK(lookup_tuning(path, key, check_small_groups).status == CacheStatus::Hit);
  { std::ofstream(path, std::ios::trunc) << "{\"format\": \"femgpu-tuning-cache/3\", \"entr"; }  // truncated by hand
  CHECK(lookup_tuning(path, key, check_small_groups).status == CacheStatus::CorruptFile);
  CHECK(store_tuning(path, some_entry(key)) == "");
  CHECK(lookup_tuning(path, key, check_small_groups).status == CacheStatus::Hit);
  size_t files = 0;  // no temporary file left behind; the lock file stays
  for (const auto &f : std::filesystem::directory_iterator(dir.path / "sub")) files += f.is_regular_file();
  CHECK(files == 2);
  CHECK(std::filesystem::is_regular_file(path + ".lock"));
}

TEST_CASE("Tuning cache: the fingerprint follows the lowered form", "[cache]")
{
  const FormSignature sig{CellType::Triangle, Element{2, 1}, 1};
  auto lowered = [&](const std::string &form) { return lower_form(parse_form_text("from ufl import *\n" + form, "<test>", sig).a); };
  const ActionIR mass = lowered("a = u*v*dx\n"), mass_again = lowered("a = u*v*dx\n"), scaled = lowered("a = 2*u*v*dx\n"),
                 laplace = lowered("a = inner(grad(u), grad(v))*dx\n");
  CHECK(form_fingerprint(mass, 6) == form_fingerprint(mass_again, 6));
  CHECK(form_fingerprint(mass, 6) != form_fingerprint(mass, 7));
  CHECK(form_fingerprint(mass, 6) != form_fingerprint(scaled, 6));  // same structure, another pointwise program
  CHECK(form_fingerprint(mass, 6) != form_fingerprint(laplace, 6));
  // the same form at as many points with an identity test side has other kernels
  CHECK(form_fingerprint(mass, 6) != form_fingerprint(mass, 6, true));
  CHECK(form_fingerprint(mass, 6).size() == 16);
  const TuningKey k = tuning_key(mass, 6, 100);
  CHECK(k.cell == "triangle");
  CHECK(k.degree == 2);
  CHECK(k.cells_bucket == 128);
}

TEST_CASE("Tuning cache: the key's tuning settings follow the options that choose the candidates", "[cache][tune]")
{
  const TuneSettings defaults;
  const std::string text = tuning_settings_text(defaults);
  CHECK_THAT(text, Catch::StartsWith("candidates=9 "));
  CHECK_THAT(text, Catch::Contains(" loops=unrolled"));
  CHECK_THAT(text, Catch::Contains(" quad_tile_classes=6"));
  CHECK_THAT(text, Catch::Contains(" plan=first; tensor_core n=6;"));
  std::vector<std::function<void(TuneSettings &)>> changes = {
      [](TuneSettings &s) { s.candidates = 5; },
      [](TuneSettings &s) { s.limits.eta_alias_min = 0.7; },
      [](TuneSettings &s) { s.limits.eta_simd_min = 0.9; },
      [](TuneSettings &s) { s.limits.wg_max = 128; },
      [](TuneSettings &s) { s.limits.max_candidates = 1000; },
      [](TuneSettings &s) { s.items_per_cell_classes = {2}; },
      [](TuneSettings &s) { s.quad_tile_classes = 0; },
      [](TuneSettings &s) { s.low_register_words = 0; },
      [](TuneSettings &s) { s.low_register_candidates = 1; },
      [](TuneSettings &s) { s.plan = parse_tune_plan("first; tensor_core n=6; shared_dofs n=2"); },
      [](TuneSettings &s) { s.plan = parse_tune_plan("first; tensor_core n=5"); },
      [](TuneSettings &s) { s.per_evaluation_tiling = 0; },
      [](TuneSettings &s) { s.model_barrier_seconds = 0; },
      [](TuneSettings &s) { s.paper_model_candidates = 0; },
      [](TuneSettings &s) { s.shared_dofs_above_words = 0; },
      [](TuneSettings &s) { s.fit_register_words = 0; },
      [](TuneSettings &s) { s.fit_candidates = 1; },
      [](TuneSettings &s) { s.scpwi_work_group_sizes = {32}; },
      [](TuneSettings &s) { s.scpwi_constant_tables = false; },
      [](TuneSettings &s) { s.scpwi_lanes = false; },
      [](TuneSettings &s) { s.tiled_loops = Loops::Compiler; },
  };
  for (size_t i = 0; i < changes.size(); ++i) {
    INFO("change " << i);
    TuneSettings s;
    changes[i](s);
    CHECK(tuning_settings_text(s) != text);
  }
  // The timing protocol does not choose candidates: the same key.
  TuneSettings timing;
  timing.warmups = 2;
  timing.min_runs = 5;
  timing.min_seconds = 0.05;
  timing.compile_threads = 1;
  CHECK(tuning_settings_text(timing) == text);
}
