// Tuning at the first MatMult (-mat_fem_gpu_strategy auto) with the persistent cache:
// look the schedule up (tuning_cache.h); on a miss, a rejected entry or
// -mat_fem_gpu_retune, time the candidates on this Mat's maps and coordinates with
// random values through the backend's tuner, keep the fastest and store it.
//
// Several MPI ranks: each rank looks up and, if needed, tunes for its own device and
// cell count; stores lock the file and rename a new one over it, so the file stays
// whole and keeps every rank's entry (the last writer of one key wins). A cache that
// cannot be read, is not a tuning cache, holds a schedule this backend cannot run, or
// cannot be written means tuning (and a PetscInfo line), never a failed solve. Monitor
// lines come from rank 0.
#include <algorithm>
#include <random>
#include <sstream>

#include "petsc/base/log_stage.h"
#include "petsc/base/petsc_errors.h"
#include "petsc/mat/mat_context.h"
#include "petsc/mat/mat_femgpu.h"
#include "petsc/mat/mat_femgpu_tune.h"
#include "tune/tune_params.h"
#include "tune/tune_plan.h"
#include "cache/tuning_cache.h"

namespace femgpu {

namespace {

// The cache file, or "" when off (with why in *note).
std::string cache_path(const MatFEMGPUContext *ctx, std::string *note)
{
  if (ctx->options.tune_cache == "none") {
    *note = "tune cache off (-mat_fem_gpu_tune_cache none)";
    return "";
  }
  if (ctx->options.tune_cache != "default") return ctx->options.tune_cache;
  try {
    return default_tuning_cache_path();
  } catch (const std::exception &e) {
    *note = std::string("tune cache off: ") + e.what();
    return "";
  }
}

TuningKey key_for(const MatFEMGPUContext *ctx, const TuneTarget &target)
{
  TuningKey key = tuning_key(*ctx->op.ir, ctx->op.tab->n_points(), ctx->op.maps().n_cells, ctx->op.tab->test_identity);
  key.precision = MatFEMGPURequestedPrecision(ctx->options.schedule) == Precision::FP64 ? "fp64" : "fp32";
  key.backend = target.backend;
  key.device = target.device;
  key.device_version = target.device_version;
  key.driver_version = target.driver_version;
  key.nvrtc_version = target.nvrtc_version;
  return key;
}

// `settings` with the monitor's line printer where -mat_fem_gpu_tune_monitor asks for it.
TuneSettings settings_with_monitor(MPI_Comm comm, const MatFEMGPUContext *ctx, TuneSettings settings)
{
  if (ctx->options.tune_monitor) settings.monitor = [comm](const std::string &line) { (void)PetscPrintf(comm, "  fem_gpu tune: %s\n", line.c_str()); };
  return settings;
}

// TuneSettings{} with the plan's parameters and rounds (-mat_fem_gpu_tune_plan, parsed
// when it was read).
TuneSettings settings_for(MPI_Comm comm, const MatFEMGPUContext *ctx)
{
  TuneSettings settings;
  settings.budget_seconds = static_cast<double>(ctx->options.tune_budget);
  if (!ctx->options.parsed_tune_plan) return settings_with_monitor(comm, ctx, settings);
  const TunePlan &plan = *ctx->options.parsed_tune_plan;
  settings = with_plan(settings, plan);
  if (plan.print)
    (void)PetscPrintf(comm, "  fem_gpu tune plan (CUDA): %s\n  fem_gpu tune plan (OpenCL): %s\n  fem_gpu tune parameters: %s\n",
                      to_string(settings_plan(settings, default_cuda_plan())).c_str(),
                      to_string(settings_plan(settings, default_opencl_plan())).c_str(), tune_params_text(settings).c_str());
  return settings_with_monitor(comm, ctx, settings);
}

// Times the candidates on random trial and coefficient values.
PetscErrorCode run_tuner(MatFEMGPUContext *ctx, MPI_Comm comm, const TuneTarget &target, const TuneSettings &settings, TunerOutcome *outcome)
{
  const TuneReport *report = &outcome->report;
  Vec coords;
  const PetscScalar *ca;
  ActionArrays arrays;
  PetscFunctionBegin;
  PetscCall(DMGetCoordinatesLocal(ctx->op.dm, &coords));
  PetscCall(VecGetArrayRead(coords, &ca));
  const size_t n = static_cast<size_t>(ctx->op.maps().local_size);
  std::vector<double> u(n), w(n);
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> r(-1, 1);
  for (size_t i = 0; i < n; ++i) u[i] = r(rng), w[i] = 0.1 * r(rng);
  PetscCall(MatFEMGPUFillArrays(ctx, u.data(), ca, false, &arrays));
  for (FunctionArrays &f : arrays.coefficients) f.values = w.data();
  FEMGPU_CXX(comm, *outcome = target.tune(arrays, n, settings));
  PetscCall(VecRestoreArrayRead(coords, &ca));
  PetscCheck(!report->candidates.empty(), comm, PETSC_ERR_ARG_OUTOFRANGE,
             "fem_gpu: nothing to tune: no SCPWI size of the plan's scpwi_work_groups=%s and no tiled schedule fits its wg_max=%d work-items per "
             "group (with eta_simd_min=%g, tiled groups fill whole warps; -mat_fem_gpu_tune_plan \"param ...\")",
             tune_param_value(settings, "scpwi_work_groups").c_str(), settings.limits.wg_max, settings.limits.eta_simd_min);
  PetscCheck(report->best >= 0, comm, PETSC_ERR_LIB, "fem_gpu: no schedule could run: %s", report->candidates.front().error.c_str());
  PetscFunctionReturn(PETSC_SUCCESS);
}

std::string tuned_summary(const TuneReport &report, const TuneTarget &target, double budget_seconds)
{
  const TimedCandidate &best = report.candidates[static_cast<size_t>(report.best)];
  std::ostringstream os;
  const std::size_t timed = candidates_timed(report);
  os << "tuned: " << timed << " candidates of " << report.space_size << (report.space_truncated ? "+" : "")
     << " timed in " << report.compile_seconds + report.timing_seconds << " s; best " << to_string(best.schedule) << " at "
     << best.median_ms << " ms (ranked with " << target.params_source << ")";
  if (report.budget_spent)
    os << "; the tuning budget of " << budget_seconds << " s was spent with " << report.candidates.size() - timed
       << " of the plan's " << report.candidates.size() << " candidates untimed: the fastest so far is kept (-mat_fem_gpu_tune_budget)";
  return os.str();
}

// A cached schedule for `key` that the backend can run, into *chosen (*hit); otherwise
// *note says why not. A bad or foreign file, or an entry the backend cannot run, is a
// miss (PetscInfo says which), never an error.
PetscErrorCode lookup_cached(Mat A, MatFEMGPUContext *ctx, const TuneTarget &target, const std::string &path, const TuningKey &key,
                             Schedule *chosen, bool *hit, std::string *note)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)A);
  const int Q = ctx->op.tab->n_points();
  // Against the shared memory the tuner's candidates were held to (the device's: on CUDA its
  // opt-in limit, above 48 KiB), so that a winner it stored is read back, not retuned.
  auto check = [&](const Schedule &s) {
    validate(s, *ctx->op.ir, Q, static_cast<long long>(target.params.local_max_per_group));
    if (target.can_run) target.can_run(s);
  };
  CacheLookup found;
  PetscFunctionBegin;
  FEMGPU_CXX(comm, found = lookup_tuning(path, key, check));
  *hit = found.status == CacheStatus::Hit;
  if (!*hit) {
    *note = "tune cache: " + found.why;
    PetscCall(PetscInfo(A, "fem_gpu tune cache %s: %s (%s); tuning\n", path.c_str(), to_string(found.status), found.why.c_str()));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  *chosen = *found.schedule;
  ctx->tuning.median_seconds = found.entry.median_seconds;
  std::ostringstream os;
  os << "tune: from cache " << path << ": " << found.entry.schedule << " at " << found.entry.median_seconds * 1e3 << " ms (tuned "
     << found.entry.date << ", " << found.entry.candidates_timed << " candidates timed)";
  ctx->tuning.summary = os.str();
  if (ctx->options.tune_monitor) PetscCall(PetscPrintf(comm, "  fem_gpu tune: cache hit in %s: %s\n", path.c_str(), found.entry.schedule.c_str()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Stores the tuned schedule; a file that cannot or must not be written is reported
// (PetscInfo, the monitor, MatView's summary) and the solve goes on with the schedule.
PetscErrorCode store_tuned(Mat A, MatFEMGPUContext *ctx, const std::string &path, const TuningEntry &entry)
{
  std::string failed;
  PetscFunctionBegin;
  failed = store_tuning(path, entry);
  ctx->tuning.summary += failed.empty() ? "; saved to " + path : "; not saved: " + failed;
  if (!failed.empty()) PetscCall(PetscInfo(A, "fem_gpu tune cache: tuned schedule used but not saved: %s\n", failed.c_str()));
  if (ctx->options.tune_monitor)
    PetscCall(PetscPrintf(PetscObjectComm((PetscObject)A), "  fem_gpu tune: %s\n", failed.empty() ? ("saved to " + path).c_str() : ("not saved: " + failed).c_str()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// First-time tuning takes seconds to minutes inside the user's first solve: say so, once
// per tuning, on stdout (rank 0), with what is tuned, where, and where the result is kept.
PetscErrorCode announce_tuning(MPI_Comm comm, const MatFEMGPUContext *ctx, const TuneTarget &target, const std::string &path)
{
  const Element &e = ctx->op.signature.element;
  PetscFunctionBegin;
  PetscCall(PetscPrintf(comm, "fem_gpu: tuning the %s kernel of %s (P%d%s on %ss, %" PetscInt_FMT " cells on rank 0) on %s device %s; %s\n",
                        ctx->op.residual ? "residual" : "operator", ctx->op.form_source.c_str(), e.degree, e.components > 1 ? " vector" : "",
                        cell_name(ctx->op.signature.cell), ctx->op.maps().n_cells, target.backend.c_str(), target.device.c_str(),
                        path.empty() ? "the result is not cached (-mat_fem_gpu_tune_cache)" : ("later runs read the result from " + path).c_str()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode MatFEMGPUTuneSchedule(Mat A, MatFEMGPUContext *ctx, const TuneTarget &target, Schedule *chosen,
                                     std::unique_ptr<ActionBackend> *tuned)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)A);
  std::string note, path;
  bool hit = false;
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(FEMGPU_Tune, A, 0, 0, 0));
  path = cache_path(ctx, &note);
  if (path.empty()) PetscCall(PetscInfo(A, "fem_gpu %s\n", note.c_str()));
  const TuneSettings settings = settings_for(comm, ctx);
  TuningKey key = key_for(ctx, target);
  key.tuning_settings = tuning_settings_text(settings);
  if (!path.empty() && ctx->options.retune) note = "-mat_fem_gpu_retune: cache entry ignored";
  if (!path.empty() && !ctx->options.retune) PetscCall(lookup_cached(A, ctx, target, path, key, chosen, &hit, &note));
  if (hit) {
    PetscCall(PetscLogEventEnd(FEMGPU_Tune, A, 0, 0, 0));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  // First-time tuning in a stage of its own; the lookup's event ends first, so no event
  // spans the push (a miss counts FEMGPUTune twice: the lookup and the tuning).
  PetscCall(PetscLogEventEnd(FEMGPU_Tune, A, 0, 0, 0));
  ScopedLogStage stage;
  PetscCall(stage.push(kStageTuning));
  PetscCall(PetscLogEventBegin(FEMGPU_Tune, A, 0, 0, 0));
  if (ctx->options.tune_monitor) PetscCall(PetscPrintf(comm, "  fem_gpu tune: %s; tuning\n", note.c_str()));
  PetscCall(announce_tuning(comm, ctx, target, path));
  TunerOutcome outcome;
  PetscCall(run_tuner(ctx, comm, target, settings, &outcome));
  const TuneReport &report = outcome.report;
  const TimedCandidate &best = report.candidates[static_cast<size_t>(report.best)];
  *chosen = best.schedule.with_precision(MatFEMGPURequestedPrecision(ctx->options.schedule));
  ctx->tuning.median_seconds = best.median_ms * 1e-3;
  const std::string summary = tuned_summary(report, target, settings.budget_seconds);
  ctx->tuning.summary = summary + "\n" + note;
  PetscCall(PetscInfo(A, "fem_gpu %s\n", ctx->tuning.summary.c_str()));
  if (ctx->options.tune_monitor) PetscCall(PetscPrintf(comm, "  fem_gpu tune: %s\n", summary.c_str()));
  if (!path.empty())
    PetscCall(store_tuned(A, ctx, path, {key, to_string(*chosen), ctx->tuning.median_seconds, static_cast<int>(candidates_timed(report)), utc_date_now()}));
  *tuned = std::move(outcome.backend);
  PetscCall(PetscLogEventEnd(FEMGPU_Tune, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
