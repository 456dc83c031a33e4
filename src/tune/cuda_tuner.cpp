// Rank, compile in parallel, load and time: the tuner of cuda_tuner.h.
#include "tune/cuda_tuner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <future>
#include <limits>
#include <sstream>

#include "probe/probe_analysis.h"  // median
#include "tune/tune_plan.h"

namespace femgpu {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0)
{
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Loads each register-bound twin in `round` and marks it not to be timed where its kernel
// uses more local memory (spills) than its unbounded original in `timed` did; a load
// that fails is that twin's error, except out of memory, which ends tuning as in timing.
void skip_spilling_bounds(const std::vector<TimedCandidate> &timed, std::vector<TimedCandidate> &round,
                          std::vector<std::unique_ptr<CudaKernel>> &kernels)
{
  for (size_t i = 0; i < kernels.size(); ++i) {
    TimedCandidate &twin = round[i];
    const TimedCandidate *original = twin.schedule.groups_per_sm() > 0 ? unbounded_original(timed, twin.schedule) : nullptr;
    if (!kernels[i] || !original) continue;
    try {
      kernels[i]->load();
    } catch (const std::exception &e) {
      if (dynamic_cast<const cuda::DeviceOutOfMemory *>(&e) != nullptr) throw;
      twin.error = e.what();
      continue;
    }
    const cuda::KernelResources &r = kernels[i]->resources();
    if (r.local_bytes > original->local_bytes)
      twin.error = "not timed: bounded to " + std::to_string(r.registers) + " registers, it uses " + std::to_string(r.local_bytes) +
                   " B of local memory (its original " + std::to_string(original->local_bytes) + " B)";
  }
}

}  // namespace

TimedCandidate time_kernel(const CudaKernel &k, const DeviceActionData &data, const TuneSettings &s, double cutoff_ms)
{
  TimedCandidate c;
  c.schedule = k.schedule();
  c.registers = k.resources().registers;
  c.local_bytes = k.resources().local_bytes;
  c.shared_bytes = k.shared_bytes();
  int warmups = s.warmups;
  if (std::isfinite(cutoff_ms)) {
    // The first launch loads the module's code lazily; the second is the check. Both
    // count as warm-ups.
    cuda::EventSeries check(2);
    k.launch(data);
    check.record(0);
    k.launch(data);
    check.record(1);
    check.synchronize(1);
    warmups -= 2;
    if (check.ms(0) > cutoff_ms) {
      c.cut = true;
      c.runs = 1;
      c.median_ms = c.mean_ms = check.ms(0);
      return c;
    }
  }
  for (int i = 0; i < warmups; ++i) k.launch(data);
  cuda::synchronize();
  // Runs are queued back to back in batches, an event between each two, behind one
  // untimed lead launch: the GPU never waits for the host inside a timed run, so a run's
  // time is its kernel's (and the GPU's gap between kernels), not the host's launch
  // latency. Timed one launch at a time, the 34 us P1 kernels read 1.5-3 us (5-9%) slower
  // than ncu's duration of the same kernel (bench/experiments/h200_p1_scpwi_gathers.txt).
  constexpr int kBatch = 16;
  cuda::EventSeries events(kBatch + 1);
  std::vector<double> ms;
  double total = 0;
  while ((static_cast<int>(ms.size()) < s.min_runs || total < s.min_seconds * 1e3) && static_cast<int>(ms.size()) < s.max_runs) {
    const int done = static_cast<int>(ms.size());
    const int batch = std::min({kBatch, done < s.min_runs ? s.min_runs - done : kBatch, s.max_runs - done});
    k.launch(data);  // the lead
    events.record(0);
    for (int i = 0; i < batch; ++i) {
      k.launch(data);
      events.record(i + 1);
    }
    events.synchronize(batch);
    for (int i = 0; i < batch; ++i) {
      ms.push_back(events.ms(i));
      total += ms.back();
    }
  }
  c.runs = static_cast<int>(ms.size());
  c.median_ms = median(ms);
  c.mean_ms = total / static_cast<double>(ms.size());
  return c;
}

std::vector<std::unique_ptr<CudaKernel>> compile_candidates(const ActionIR &ir, const Tabulation &tab, std::vector<TimedCandidate> &candidates,
                                                            const cuda::DeviceInfo &info, int threads)
{
  std::vector<std::unique_ptr<CudaKernel>> kernels(candidates.size());
  const size_t batch = static_cast<size_t>(std::max(1, threads));
  for (size_t start = 0; start < kernels.size(); start += batch) {
    std::vector<std::future<std::unique_ptr<CudaKernel>>> jobs;
    for (size_t i = start; i < std::min(kernels.size(), start + batch); ++i)
      jobs.push_back(std::async(std::launch::async, [&, i] {
        return std::make_unique<CudaKernel>(ir, tab, candidates[i].schedule, info.arch(), info.shared_per_group_optin,
                                            info.max_threads_per_group);
      }));
    for (size_t i = start; i < std::min(kernels.size(), start + batch); ++i) {
      try {
        kernels[i] = jobs[i - start].get();
      } catch (const std::exception &e) {
        candidates[i].error = e.what();
      }
    }
  }
  return kernels;
}

int time_compiled_candidates(std::vector<TimedCandidate> &candidates, std::vector<std::unique_ptr<CudaKernel>> &kernels,
                             const DeviceActionData &data, const TuneSettings &settings, const std::function<bool()> &stop,
                             double *fastest_ms, const char *stop_reason)
{
  TuneReport report;
  report.candidates.swap(candidates);
  const bool cutting = fastest_ms != nullptr && settings.cutoff > 0;
  auto time = [&](size_t i) {
    if (!kernels[i]) throw std::runtime_error("not compiled");
    kernels[i]->load();
    const double cutoff_ms = cutting ? settings.cutoff * *fastest_ms : std::numeric_limits<double>::infinity();
    TimedCandidate c = time_kernel(*kernels[i], data, settings, cutoff_ms);
    if (fastest_ms != nullptr && !c.cut) *fastest_ms = std::min(*fastest_ms, c.median_ms);
    return c;
  };
  auto out_of_memory = [](const std::exception &e) { return dynamic_cast<const cuda::DeviceOutOfMemory *>(&e) != nullptr; };
  time_candidates(&report, time, settings, out_of_memory, stop, stop_reason);
  candidates.swap(report.candidates);
  return report.best;
}

namespace {

// Compiled kernels the budget left untimed get one look (cutoff 1: two launches, timed in
// full only when faster than the fastest so far): their compile is paid for, and at high
// order a batch's winner may follow a slow first candidate (hyperelasticity 2D P7 on an
// H100 kept a 290 ms tiled kernel while its batch held tensor-core ones).
void glance(TuneReport &round, std::vector<std::unique_ptr<CudaKernel>> &more, const DeviceActionData &data, const TuneSettings &timing,
            double *fastest_ms)
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
  const int best = time_compiled_candidates(sub, kernels_left, data, quick, {}, fastest_ms);
  for (std::size_t j = 0; j < left.size(); ++j) round.candidates[left[j]] = sub[j], more[left[j]] = std::move(kernels_left[j]);
  const auto b = static_cast<std::size_t>(best);
  if (best >= 0 && (round.best < 0 || sub[b].median_ms < round.candidates[static_cast<std::size_t>(round.best)].median_ms))
    round.best = static_cast<int>(left[b]);
  round.budget_spent = true;
}

// CUDA's timer of a plan's rounds (tune_plan.h's RoundTimer): compile a round in parallel
// (NVRTC needs no device), skip the bound twins that spill more than their originals
// where the round asks, time the rest. With a budget (TuneSettings::budget_seconds) a
// round is compiled and timed a compile batch at a time, so that the budget also bounds
// the compiles, and the cutoff is on (kBudgetCutoff) where the plan sets none.
struct CudaRounds {
  const ActionIR &ir;
  const Tabulation &tab;
  const DeviceActionData &data;
  const cuda::DeviceInfo &info;
  const TuneSettings &settings;
  TuneSettings timing;
  TuneClock clock;
  double fastest_ms = std::numeric_limits<double>::infinity();  // of all rounds, for the cutoff
  std::vector<std::unique_ptr<CudaKernel>> kernels;              // in the report's order

  CudaRounds(const ActionIR &ir, const Tabulation &tab, const DeviceActionData &data, const cuda::DeviceInfo &info, const TuneSettings &settings)
      : ir(ir), tab(tab), data(data), info(info), settings(settings), timing(settings), clock(settings.budget_seconds)
  {
    if (timing.budget_seconds > 0 && timing.cutoff == 0) timing.cutoff = kBudgetCutoff;
  }

  // The budget never stops the first candidate: a budgeted tuning returns a schedule.
  bool spent() const { return std::isfinite(fastest_ms) && clock.spent(); }
  // A compile batch cannot be interrupted: the next one starts only if the last batch's
  // compile and timing would still end within the budget (at high order one batch of
  // unrolled kernels took 10-30 s and ran tuning that far past a 10 s budget).
  double last_batch_seconds = 0;
  bool next_batch_fits() const { return !std::isfinite(fastest_ms) || clock.fits(last_batch_seconds); }

  void time_batch(TuneReport *into, std::vector<TimedCandidate> batch, bool screen)
  {
    TuneReport round;
    round.candidates = std::move(batch);
    std::vector<std::unique_ptr<CudaKernel>> more(round.candidates.size());
    if (spent() || !next_batch_fits()) {
      for (TimedCandidate &c : round.candidates) c.error = kBudgetSpent;
    } else {
      const auto t0 = std::chrono::steady_clock::now();
      more = compile_candidates(ir, tab, round.candidates, info, settings.compile_threads);
      round.compile_seconds = seconds_since(t0);
      if (screen) skip_spilling_bounds(into->candidates, round.candidates, more);
    }
    const auto t0 = std::chrono::steady_clock::now();
    // In a compiled batch, a candidate the budget stops here is glanced at below: the
    // monitor gets its line from the glance, not a "not timed" one first.
    const bool compiled = std::any_of(more.begin(), more.end(), [](const std::unique_ptr<CudaKernel> &k) { return k != nullptr; });
    TuneSettings first = timing;
    if (timing.monitor && compiled)
      first.monitor = [&monitor = timing.monitor](const std::string &line) {
        if (line.find(kBudgetSpent) == std::string::npos) monitor(line);
      };
    round.best = time_compiled_candidates(round.candidates, more, data, first, [this] { return spent(); }, &fastest_ms, kBudgetSpent);
    glance(round, more, data, timing, &fastest_ms);
    round.timing_seconds = seconds_since(t0);
    if (compiled) last_batch_seconds = round.compile_seconds + round.timing_seconds;
    for (auto &k : more) kernels.push_back(std::move(k));
    append_round(into, std::move(round));
  }

  void time_round(TuneReport *into, std::vector<TimedCandidate> candidates, bool screen)
  {
    const std::size_t batch = settings.budget_seconds > 0 ? static_cast<std::size_t>(std::max(1, settings.compile_threads)) : candidates.size();
    for (std::size_t begin = 0; begin < candidates.size(); begin += batch) {
      const auto first = candidates.begin() + static_cast<long>(begin);
      const auto last = candidates.begin() + static_cast<long>(std::min(candidates.size(), begin + batch));
      time_batch(into, std::vector<TimedCandidate>(std::make_move_iterator(first), std::make_move_iterator(last)), screen);
    }
  }
};

}  // namespace

CudaTuneReport tune_cuda(const ActionIR &ir, const Tabulation &tab, const DeviceActionData &data, const cuda::DeviceInfo &info,
                         const DeviceParams &device, const TuneSettings &settings)
{
  CudaTuneReport report;
  PlanContext ctx;
  ctx.ir = &ir;
  ctx.Q = tab.n_points();
  ctx.device = device;  // t_sync counts the groups waiting side by side on this device's SMs
  if (info.multiprocessors > 0) ctx.device.multiprocessors = info.multiprocessors;
  ctx.sm = sm_limits(info);
  ctx.shared_limit = info.shared_per_group_optin;
  ctx.precision = data.precision();
  ctx.settings = &settings;
  CudaRounds rounds(ir, tab, data, info, settings);
  const RoundTimer time_round = [&](TuneReport *into, std::vector<TimedCandidate> candidates, bool screen) {
    rounds.time_round(into, std::move(candidates), screen);
  };
  run_plan(settings_plan(settings, default_cuda_plan(settings)), ctx, &report, time_round);
  if (report.best >= 0) report.best_kernel = std::move(rounds.kernels[static_cast<size_t>(report.best)]);
  return report;
}

}  // namespace femgpu
