// The persistent tuning cache: the schedule tuning chose, keyed by everything that
// changes the answer, in one readable JSON file shared by all forms and devices.
//
// Takes: a TuningKey (tuning_key() fills the form's part; the caller the device's),
// the file's text or path, and a check that a schedule can run this form (validate()).
// Returns: a CacheLookup: the schedule on a hit; otherwise the status and why (no file,
// corrupt file or entry, checksum mismatch, invalid schedule, no entry for the key).
// A store keeps every other readable entry and replaces the one with the same key.
// Does not: tune, or trust anything it cannot verify. A corrupt file is never fatal:
// lookup reports it, and the next store rewrites a damaged cache (one that still starts
// with the format header) from scratch; a file without the header is not ours and is
// never rewritten.
//
// File format (json_lite.h; "format" first):
//   {"format": "femgpu-tuning-cache/3", "entries": [ {entry}, ... ]}
// A file of another version (/1 before femgpu 0.4.0 had no tuning_settings; /2 wrote them
// before the table of tuning parameters) is reported as OtherFormat, retuned and rewritten.
// Each entry is a flat object with exactly these keys, in this order:
//   key:   form_fingerprint, cell, degree, components, coordinate_degree,
//          quadrature_degree, quadrature_points, precision, backend, device,
//          device_version, driver_version, nvrtc_version, femgpu_version, cells_bucket,
//          tuning_settings
//   value: schedule (to_string form), median_seconds, candidates_timed, date (UTC,
//          ISO 8601), checksum (FNV-1a 64 over every other field, 16 hex digits).
// A store locks the file, re-reads it and renames a new file over it (cache_file.h):
// several processes or MPI ranks may store at once and every entry is kept. A store
// replaces only a missing file or a file that starts with the format header (any
// version, also a truncated one); a foreign, unreadable, read-only or non-regular file,
// or a symbolic link, is left alone and the store says why.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "ir/action_ir.h"
#include "schedule/schedule.h"

namespace femgpu {

struct TuningKey {
  std::string form_fingerprint;  // form_fingerprint(ir, Q, test_identity)
  std::string cell;              // "triangle", "tetrahedron"
  int degree = 0, components = 0, coordinate_degree = 0;
  int quadrature_degree = 0, quadrature_points = 0;
  std::string precision;       // "fp64", "fp32"
  std::string backend;         // "opencl", "cuda"
  std::string device;          // driver's device name
  std::string device_version;  // CUDA: compute capability (sm_90); OpenCL: CL_DEVICE_VERSION
  std::string driver_version;  // CUDA: cuDriverGetVersion; OpenCL: CL_DRIVER_VERSION
  std::string nvrtc_version;   // CUDA: nvrtcVersion; "none" for OpenCL
  std::string femgpu_version;  // PROJECT_VERSION
  long long cells_bucket = 0;  // cell_count_bucket(cells on this rank)
  // tuning_settings_text(TuneSettings): the settings that choose which candidates are
  // timed (the plan's parameters and rounds), so an entry tuned under others is not reused.
  std::string tuning_settings;
};

struct TuningEntry {
  TuningKey key;
  std::string schedule;  // to_string(Schedule)
  double median_seconds = 0;
  int candidates_timed = 0;
  std::string date;
};

// Unreadable: something at the path that cannot be read as a file (a folder, a device,
// no permission); ForeignFile: a file that is not a tuning cache (no format header).
// Neither is ever written to; every status but Hit means "tune".
// OtherFormat: a tuning cache of another format version (its keys are not read).
enum class CacheStatus { Hit, NoFile, Unreadable, ForeignFile, Miss, CorruptFile, OtherFormat, CorruptEntry, BadChecksum, InvalidSchedule };
const char *to_string(CacheStatus status);

struct CacheLookup {
  CacheStatus status = CacheStatus::Miss;
  std::optional<Schedule> schedule;  // on a hit
  TuningEntry entry;                 // the matching entry (hit, checksum, invalid schedule)
  std::string why;                   // one line, for MatView and the monitor
};

// 16 hex digits of FNV-1a 64 over the IR's JSON (structure, sizes, quadrature) and its
// listing (the pointwise program itself).
// test_identity: the tables have an identity test side (fem/action_tables.h), whose kernels
// differ from those of the same form at as many points without it (mass P1-P2 at the
// rule's points, -mat_fem_gpu_compress_points 0), so it is part of the fingerprint.
std::string form_fingerprint(const ActionIR &ir, int n_quadrature_points, bool test_identity = false);
// The smallest power of two >= n_cells (1 for n <= 1).
long long cell_count_bucket(long long n_cells);
// The form's part of the key; device fields, backend and precision are left to fill.
TuningKey tuning_key(const ActionIR &ir, int n_quadrature_points, long long n_cells, bool test_identity = false);
std::string entry_checksum(const TuningEntry &entry);
std::string utc_date_now();

// Pure: on text.  `check` throws std::invalid_argument for a schedule this form cannot run.
CacheLookup find_tuning(const std::string &text, const TuningKey &key, const std::function<void(const Schedule &)> &check);
// The file's new text: `text`'s readable entries with `entry` replacing any of its key
// (a corrupt or empty `text` gives a file holding `entry` alone).
std::string with_tuning(const std::string &text, const TuningEntry &entry);

// On files.
std::string default_tuning_cache_path();  // $XDG_CACHE_HOME/femgpu/tuning.json, else ~/.cache/...
CacheLookup lookup_tuning(const std::string &path, const TuningKey &key, const std::function<void(const Schedule &)> &check);
// "" when written, else why not (never throws for I/O); see the file format above.
std::string store_tuning(const std::string &path, const TuningEntry &entry);

}  // namespace femgpu
