// Build each candidate as an OpenCL backend, time it by wall clock, keep the fastest;
// the rounds of its plan (tune_plan.h's default_opencl_plan: the local search; no twins,
// as OpenCL does not report register spills).
#include "tune/opencl_tuner.h"

#include <vector>

#include "tune/tune_plan.h"

namespace femgpu {

OpenCLTuneReport tune_opencl(const ActionIR &ir, const Tabulation &tab, const ActionArrays &arrays, std::size_t n_out, Precision precision,
                             const DeviceParams &device, const TuneSettings &settings)
{
  OpenCLTuneReport report;
  PlanContext ctx;
  ctx.ir = &ir;
  ctx.Q = tab.n_points();
  ctx.test_identity = tab.test_identity;
  ctx.device = device;
  ctx.precision = precision;
  ctx.settings = &settings;
  std::vector<std::unique_ptr<ActionBackend>> backends;  // in the report's order
  std::vector<double> out(n_out);
  const TuneClock clock;  // each round's end is run_plan's
  bool timed_one = false;  // the budget never stops the first candidate
  // OpenCL's timer: build each candidate as a backend and time it by wall clock. No
  // spills are known, so a round's screen is not applied.
  const RoundTimer time_round = [&](TuneReport *into, std::vector<TimedCandidate> candidates, bool, double budget) {
    TuneReport round;
    round.candidates = std::move(candidates);
    const std::size_t first = backends.size();
    backends.resize(first + round.candidates.size());
    time_candidates(
        &round,
        [&](size_t i) {
          const Schedule &s = round.candidates[i].schedule;
          std::unique_ptr<ActionBackend> &b = backends[first + i];
          b = make_opencl_backend(ir, tab, s);  // validates; the first apply builds
          TimedCandidate c = time_wall_clock([&] { b->apply(arrays, n_out, out.data()); }, settings);
          c.shared_bytes = shared_memory_bytes(s, ir);
          timed_one = true;
          return c;
        },
        settings, nullptr, [&] { return timed_one && clock.past(budget); }, kBudgetSpent);
    append_round(into, std::move(round));
  };
  run_plan(settings_plan(settings, default_opencl_plan()), ctx, &report, time_round);
  if (report.best >= 0) report.best_backend = std::move(backends[static_cast<size_t>(report.best)]);
  return report;
}

}  // namespace femgpu
