// Compile in parallel, load and time: CUDA's CandidateTimer and tune_cuda (cuda_tuner.h).
#include "runtime/cuda_tuner.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <sstream>
#include <thread>

#include "fem/sliced_pattern.h"
#include "kernel/build.h"
#include "tune/candidate_timer.h"
#include "tune/compile_estimate.h"
#include "tune/compile_queue.h"
#include "tune/compile_workers.h"
#include "tune/tune_plan.h"
#include "tune/twins.h"

namespace femgpu {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0)
{
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Why a register-bound twin is not timed: its kernel (loaded here; a failing load throws)
// uses more local memory (spills) than its unbounded original in `timed` did. Empty where
// it is timed, or is no bound twin.
std::string spills_more(const std::vector<TimedCandidate> &timed, const Schedule &twin, CudaKernel &kernel)
{
  const TimedCandidate *original = twin.groups_per_sm() > 0 ? unbounded_original(timed, twin) : nullptr;
  if (!original) return {};
  kernel.load();
  const cuda::KernelResources &r = kernel.resources();
  if (r.local_bytes <= original->local_bytes) return {};
  return "not timed: bounded to " + std::to_string(r.registers) + " registers, it uses " + std::to_string(r.local_bytes) +
         " B of local memory (its original " + std::to_string(original->local_bytes) + " B)";
}

// spills_more over a compiled round: a load that fails is that twin's error, except out
// of memory, which ends tuning as in timing.
void skip_spilling_bounds(const std::vector<TimedCandidate> &timed, std::vector<TimedCandidate> &round,
                          std::vector<std::unique_ptr<CudaKernel>> &kernels)
{
  for (size_t i = 0; i < kernels.size(); ++i) {
    if (!kernels[i]) continue;
    try {
      const std::string why = spills_more(timed, round[i].schedule, *kernels[i]);
      if (!why.empty()) round[i].error = why;
    } catch (const std::exception &e) {
      if (dynamic_cast<const cuda::DeviceOutOfMemory *>(&e) != nullptr) throw;
      round[i].error = e.what();
    }
  }
}

// The cell-matrix entries assembling may hold: the cell matrices (FP64) and their
// summation map (int64) take 8 bytes an entry each, 8 GB apiece here, on the device and
// (the map) on the host, whose threads build the pattern (fem/sliced_pattern.h: about 4 s
// per 1e8 entries on one core). On the H200 host, tuning 3D P1 with 2.9e8 entries took
// 8.5 s and with 9e8 14.4 s. The cell-matrix kernel indexes at most 2^31 - 1.
constexpr double kAssembledMaxCellEntries = 1e9;

// Why the assembled operator is not timed, or "" where it may win. Its SpMV reads each
// nonzero (an 8-byte value and a 4-byte column) and x and y (24 bytes a row) at least
// once, so at the device's bandwidth it takes at least that long; where that is not below
// the fastest kernel so far it cannot win, and assembling it (the pattern on the host,
// then the cell matrices) would only spend tuning time. The nonzeros are estimated from a
// sample of rows (fem/sliced_pattern.h), in time linear in the map. With a budget
// (`seconds_left` finite), neither is one whose setup would run past the budget for too
// small a prospect (assembled_budget_reason).
std::string assembled_prospect(const ActionIR &ir, const DeviceActionData &data, const DeviceParams &device, double fastest_ms,
                               double seconds_left)
{
  const ActionArrays &a = data.host_arrays();
  const int w = cell_width(ir);
  const double cell_entries = static_cast<double>(a.n_cells) * w * w;
  std::ostringstream why;
  if (cell_entries > kAssembledMaxCellEntries) {
    why << "not timed: its cell matrices hold " << cell_entries << " entries, above the " << kAssembledMaxCellEntries << " assembling may hold";
    return why.str();
  }
  const int *trial_map = a.trial.map ? a.trial.map : a.test_map;
  const double nonzeros = estimate_nonzeros(a.n_cells, w, a.test_map, trial_map, data.n_out());
  const double bytes = 12 * nonzeros + 24 * static_cast<double>(data.n_out());
  const double ms = bytes / device.beta_global * 1e3;
  if (!(ms < fastest_ms)) {
    why << "not timed: its SpMV reads at least " << bytes / 1e6 << " MB (about " << nonzeros << " nonzeros), " << ms << " ms at "
        << device.beta_global / 1e12 << " TB/s, not below the fastest so far (" << fastest_ms << " ms)";
    return why.str();
  }
  return assembled_budget_reason(cell_entries, ms, fastest_ms, seconds_left);
}

// Compiled kernels the budget left untimed get one look (cutoff 1: two launches, timed in
// full only when faster than the fastest so far) until `stop`: their compile is paid for,
// and at high order a batch's winner may follow a slow first candidate (hyperelasticity 2D
// P7 on an H100 kept a 290 ms tiled kernel while its batch held tensor-core ones).
void glance(TuneReport &round, std::vector<std::unique_ptr<CudaKernel>> &more, const DeviceActionData &data, const TuneSettings &timing,
            const std::function<bool()> &stop, double *fastest_ms)
{
  std::vector<std::size_t> left;
  for (std::size_t i = 0; i < round.candidates.size(); ++i)
    if (round.candidates[i].error == kBudgetSpent && more[i]) left.push_back(i);
  if (left.empty()) return;
  TuneSettings quick = timing;
  quick.cutoff = 1;
  std::vector<TimedCandidate> sub;
  std::vector<std::unique_ptr<CudaKernel>> kernels_left;
  for (std::size_t i : left) {
    sub.push_back(round.candidates[i]);
    sub.back().error.clear();
    kernels_left.push_back(std::move(more[i]));
  }
  const int best = time_compiled_candidates(sub, kernels_left, data, quick, stop, fastest_ms, kBudgetSpent);
  for (std::size_t j = 0; j < left.size(); ++j) round.candidates[left[j]] = sub[j], more[left[j]] = std::move(kernels_left[j]);
  const auto b = static_cast<std::size_t>(best);
  if (best >= 0 && (round.best < 0 || sub[b].median_ms < round.candidates[static_cast<std::size_t>(round.best)].median_ms))
    round.best = static_cast<int>(left[b]);
  round.budget_spent = true;
}

// What timing one compiled candidate of a budgeted round is expected to take, kept from
// the budget when its compile is queued (compile_queue.h): a module load and either two
// launches (cut) or the protocol's warm-ups and at least min_seconds = 0.2 s of runs. Not
// yet measured on a GPU.
constexpr double kTimingReserveSeconds = 0.5;

// The end of a budgeted round's timing in order, this long before the budget's: the glance
// at the compiled candidates left over runs in what remains, and stops at the budget. On
// the H200 (7b8a845), with the glance after the budget, 13 of 61 cases tuned in 10.0-10.5 s
// of a 10 s budget; a glance is a module load and two launches. Not yet measured on a GPU.
constexpr double kGlanceReserveSeconds = 0.3;

// Each candidate's kernel AST and compile estimate (compile_estimate.h), on `threads`
// threads: building a kernel takes up to 30 ms (hyperelasticity), a first list holds 40-60
// candidates, and the compiles wait for the estimates; each compile then takes its AST
// from `built` instead of building it again. One whose kernel cannot be built is
// estimated at 0 with no AST: its compile fails at once with the reason.
std::vector<double> compile_estimates(const ActionIR &ir, const Tabulation &tab, const std::vector<TimedCandidate> &candidates, int threads,
                                      std::vector<std::unique_ptr<kernel::Kernel>> *built)
{
  std::vector<double> out(candidates.size(), 0);
  built->clear();
  built->resize(candidates.size());
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i = next++; i < candidates.size(); i = next++) {
      try {
        (*built)[i] = std::make_unique<kernel::Kernel>(kernel::build_kernel(ir, tab, candidates[i].schedule));
        out[i] = compile_estimate_seconds(*(*built)[i]);
      } catch (const std::exception &) {
        out[i] = 0;
      }
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < std::min<int>(threads, static_cast<int>(candidates.size())); ++t) pool.emplace_back(work);
  work();
  for (std::thread &t : pool) t.join();
  return out;
}

// CUDA's timer of a plan's rounds (tune/candidate_timer.h): compile a round in parallel
// (NVRTC needs no device), skip the bound twins that spill more than their originals
// where the round asks, time the rest. With a budget (TuneSettings::budget_seconds) a
// round's compiles go through the compile queue (compile_queue.h: a candidate starts only
// if its estimated compile and timing still fit), each kernel is timed in order as soon
// as it is built, and the cutoff is on (kBudgetCutoff) where the plan sets none.
struct CudaCandidateTimer final : CandidateTimer<CudaKernel> {
  const ActionIR &ir;
  const Tabulation &tab;
  const DeviceActionData &data;
  const cuda::DeviceInfo &info;
  const DeviceParams &device;
  const TuneSettings &settings;
  TuneSettings timing;
  TuneClock clock;
  double round_budget = 0;  // the round's end, seconds since tuning started (run_plan; 0: none)
  double fastest_ms = std::numeric_limits<double>::infinity();  // of all rounds, for the cutoff
  CompileRatio compile_ratio;                                    // of all rounds, for the queue
  std::vector<std::unique_ptr<CudaKernel>> kernels;              // in the report's order

  std::size_t kept() const override { return kernels.size(); }
  std::unique_ptr<CudaKernel> take_kernel(std::size_t index) override { return std::move(kernels.at(index)); }

  CudaCandidateTimer(const ActionIR &ir, const Tabulation &tab, const DeviceActionData &data, const cuda::DeviceInfo &info,
                     const DeviceParams &device, const TuneSettings &settings)
      : ir(ir), tab(tab), data(data), info(info), device(device), settings(settings), timing(settings)
  {
    if (timing.budget_seconds > 0 && timing.cutoff == 0) timing.cutoff = kBudgetCutoff;
    if (timing.budget_seconds > 0 && timing.candidate_seconds == 0) timing.candidate_seconds = kBudgetCandidateSeconds;
  }

  // The budget never stops the first candidate: a budgeted tuning returns a schedule.
  bool spent() const { return std::isfinite(fastest_ms) && clock.past(round_budget); }
  // What is left of the round's budget for a setup and its timing; infinite without one.
  double seconds_left() const
  {
    return round_budget > 0 ? round_budget - clock.elapsed() - kTimingReserveSeconds : std::numeric_limits<double>::infinity();
  }
  // Timing in order ends kGlanceReserveSeconds, or the time one more candidate takes
  // (expected_timing_seconds: more where the fastest runs 60 ms or more a launch), before
  // the round's budget (glance).
  bool timing_spent() const
  {
    return std::isfinite(fastest_ms) && round_budget > 0 &&
           clock.elapsed() + expected_timing_seconds(fastest_ms, kGlanceReserveSeconds) >= round_budget;
  }

  std::unique_ptr<CudaKernel> compile(const Schedule &schedule, std::unique_ptr<kernel::Kernel> built = nullptr) const
  {
    return std::make_unique<CudaKernel>(ir, tab, schedule, info.arch(), info.shared_per_group_optin, info.max_threads_per_group, std::move(built));
  }

  // Without a budget: the whole round compiled, then timed.
  void time_all(TuneReport *into, std::vector<TimedCandidate> candidates, bool screen)
  {
    TuneReport round;
    round.candidates = std::move(candidates);
    auto t0 = std::chrono::steady_clock::now();
    std::vector<std::unique_ptr<CudaKernel>> more = compile_candidates(ir, tab, round.candidates, info, settings.compile_threads);
    round.compile_seconds = seconds_since(t0);
    if (screen) skip_spilling_bounds(into->candidates, round.candidates, more);
    t0 = std::chrono::steady_clock::now();
    round.best = time_compiled_candidates(round.candidates, more, data, timing, {}, &fastest_ms);
    round.timing_seconds = seconds_since(t0);
    for (auto &k : more) kernels.push_back(std::move(k));
    append_round(into, std::move(round));
  }

  // The monitor's line of each candidate the budget left untimed, after the glance: why
  // the queue skipped it (its estimate), or that the clock ran out before its turn.
  void report_untimed(const TuneReport &round, const CompileQueue &queue) const
  {
    if (!timing.monitor) return;
    for (std::size_t i = 0; i < round.candidates.size(); ++i) {
      const TimedCandidate &c = round.candidates[i];
      if (c.error != kBudgetSpent) continue;
      if (queue.skipped(i))
        timing.monitor(to_string(c.schedule) + ": " + kBudgetSpent + ", skipped by its compile estimate (" + queue.skip_reason(i) + ")");
      else timing.monitor(describe(c));
    }
  }

  // A round that starts with the budget spent, or that holds nothing worth timing: every
  // candidate untimed, with its own reason where it has one.
  void leave_untimed(TuneReport *into, TuneReport round)
  {
    for (TimedCandidate &c : round.candidates) {
      if (c.error.empty()) c.error = kBudgetSpent;
      c.median_ms = c.mean_ms = std::numeric_limits<double>::infinity();
      if (timing.monitor) timing.monitor(describe(c));
    }
    kernels.resize(kernels.size() + round.candidates.size());  // none: `kernels` stays in the report's order
    append_round(into, std::move(round));
  }

  // The timing settings whose monitor leaves out the untimed candidates' lines: they are
  // written after the glance (report_untimed).
  TuneSettings without_untimed_lines() const
  {
    TuneSettings quiet = timing;
    if (timing.monitor)
      quiet.monitor = [&monitor = timing.monitor](const std::string &line) {
        if (line.find(kBudgetSpent) == std::string::npos) monitor(line);
      };
    return quiet;
  }

  // With a budget: compiles queued (compile_queue.h) on compile_threads workers, each
  // kernel timed in order once built, the compiles still under way going on meanwhile.
  void time_queued(TuneReport *into, std::vector<TimedCandidate> candidates, bool screen)
  {
    const auto t0 = std::chrono::steady_clock::now();
    TuneReport round;
    round.candidates = std::move(candidates);
    if (spent()) return leave_untimed(into, std::move(round));  // nothing to estimate
    const std::size_t n = round.candidates.size();
    std::vector<Schedule> schedules;
    for (const TimedCandidate &c : round.candidates) schedules.push_back(c.schedule);
    std::vector<std::unique_ptr<CudaKernel>> more(n);
    std::vector<std::string> errors(n);
    const bool first = !std::isfinite(fastest_ms);
    // Only a tuning that has timed nothing yet must start a compile whatever its estimate.
    std::vector<std::unique_ptr<kernel::Kernel>> built;  // each compile takes its own entry
    std::vector<double> estimates = compile_estimates(ir, tab, round.candidates, settings.compile_threads, &built);
    CompileQueue queue(std::move(estimates), round_budget, expected_timing_seconds(fastest_ms, kTimingReserveSeconds), compile_ratio, first);
    CompileWorkers workers(std::move(queue), settings.compile_threads, clock, [&](std::size_t i) {
      try {
        more[i] = compile(schedules[i], std::move(built[i]));
      } catch (const std::exception &e) {
        errors[i] = e.what();
      }
    });
    double waiting = 0;  // of the timer's time, spent waiting for compiles
    auto ready = [&](std::size_t i) {
      const auto w0 = std::chrono::steady_clock::now();
      const bool built = workers.wait(i);
      waiting += seconds_since(w0);
      if (!built) throw std::runtime_error(kBudgetSpent);
      if (!errors[i].empty()) throw std::runtime_error(errors[i]);
      const std::string why = screen && more[i] ? spills_more(into->candidates, schedules[i], *more[i]) : std::string();
      if (!why.empty()) throw std::runtime_error(why);
    };
    const TuneSettings quiet = without_untimed_lines();
    const auto timer_start = std::chrono::steady_clock::now();
    round.best = time_compiled_candidates(round.candidates, more, data, quiet, [this] { return timing_spent(); }, &fastest_ms, kBudgetSpent, ready);
    double timed_seconds = seconds_since(timer_start) - waiting;
    // Waits for the compiles under way, past the budget if one runs long: leaving one
    // running is not safe (compile_workers.h).
    workers.join();
    compile_ratio = workers.queue().ratio();
    const auto glance_start = std::chrono::steady_clock::now();
    glance(round, more, data, quiet, [this] { return spent(); }, &fastest_ms);
    timed_seconds += seconds_since(glance_start);
    report_untimed(round, workers.queue());
    // Compiles and timing overlap: their sum is the round's wall time.
    round.timing_seconds = std::max(0.0, timed_seconds);
    round.compile_seconds = std::max(0.0, seconds_since(t0) - round.timing_seconds);
    for (auto &k : more) kernels.push_back(std::move(k));
    append_round(into, std::move(round));
  }

  // The assembled operator is left untimed where it cannot win (assembled_prospect); a
  // round of nothing else compiles nothing. `budget`: the round's end (RoundTimer).
  void time_round(TuneReport *into, std::vector<TimedCandidate> candidates, bool screen, double budget) override
  {
    round_budget = budget;
    bool any = false;
    for (TimedCandidate &c : candidates) {
      if (c.schedule.strategy() == Strategy::Assembled) c.error = assembled_prospect(ir, data, device, fastest_ms, seconds_left());
      any = any || c.error.empty();
    }
    if (!any) {
      TuneReport round;
      round.candidates = std::move(candidates);
      return leave_untimed(into, std::move(round));
    }
    if (round_budget > 0) time_queued(into, std::move(candidates), screen);
    else time_all(into, std::move(candidates), screen);
  }
};

}  // namespace

CudaTuneReport tune_cuda(const ActionIR &ir, const Tabulation &tab, const DeviceActionData &data, const cuda::DeviceInfo &info,
                         const DeviceParams &device, const TuneSettings &settings)
{
  PlanContext ctx;
  ctx.ir = &ir;
  ctx.Q = tab.n_points();
  ctx.test_identity = tab.test_identity;
  ctx.device = device;  // t_sync counts the groups waiting side by side on this device's SMs
  if (info.multiprocessors > 0) ctx.device.multiprocessors = info.multiprocessors;
  ctx.sm = sm_limits(info);
  ctx.shared_limit = info.shared_per_group_optin;
  ctx.precision = data.precision();
  ctx.settings = &settings;
  CudaCandidateTimer timer(ir, tab, data, info, ctx.device, settings);
  Tuned<CudaKernel> tuned = tune(settings_plan(settings, default_cuda_plan()), ctx, timer);
  return CudaTuneReport{std::move(tuned.report), std::move(tuned.kernel)};
}

}  // namespace femgpu
