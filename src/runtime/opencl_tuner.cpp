// Build each candidate as an OpenCL backend, time it by wall clock, keep the fastest:
// OpenCL's CandidateTimer (tune/candidate_timer.h) and the rounds of its plan
// (tune_plan.h's default_opencl_plan: the local search; no twins, as OpenCL does not
// report register spills).
#include "runtime/opencl_tuner.h"

#include <vector>

#include "tune/candidate_timer.h"
#include "tune/tune_plan.h"

namespace femgpu {

namespace {

// OpenCL's timer: build each candidate as a backend and time it by wall clock. No spills
// are known, so a round's screen is not applied.
class OpenCLCandidateTimer final : public CandidateTimer<ActionBackend> {
 public:
  OpenCLCandidateTimer(const ActionIR &ir, const Tabulation &tab, const ActionArrays &arrays, std::size_t n_out, const TuneSettings &settings)
      : ir_(ir), tab_(tab), arrays_(arrays), n_out_(n_out), settings_(settings), out_(n_out)
  {
  }

  void time_round(TuneReport *into, std::vector<TimedCandidate> candidates, bool, double budget) override
  {
    TuneReport round;
    round.candidates = std::move(candidates);
    const std::size_t first = backends_.size();
    backends_.resize(first + round.candidates.size());
    time_candidates(
        &round,
        [&](size_t i) {
          const Schedule &s = round.candidates[i].schedule;
          std::unique_ptr<ActionBackend> &b = backends_[first + i];
          b = make_opencl_backend(ir_, tab_, s);  // validates; the first apply builds
          TimedCandidate c = time_wall_clock([&] { b->apply(arrays_, n_out_, out_.data()); }, settings_);
          c.shared_bytes = shared_memory_bytes(s, ir_);
          timed_one_ = true;
          return c;
        },
        settings_, nullptr, [&] { return timed_one_ && clock_.past(budget); }, kBudgetSpent);
    append_round(into, std::move(round));
  }

  std::size_t kept() const override { return backends_.size(); }
  std::unique_ptr<ActionBackend> take_kernel(std::size_t index) override { return std::move(backends_.at(index)); }

 private:
  const ActionIR &ir_;
  const Tabulation &tab_;
  const ActionArrays &arrays_;
  std::size_t n_out_;
  const TuneSettings &settings_;
  std::vector<double> out_;
  std::vector<std::unique_ptr<ActionBackend>> backends_;  // in the report's order
  const TuneClock clock_;   // each round's end is run_plan's
  bool timed_one_ = false;  // the budget never stops the first candidate
};

}  // namespace

OpenCLTuneReport tune_opencl(const ActionIR &ir, const Tabulation &tab, const ActionArrays &arrays, std::size_t n_out, Precision precision,
                             const DeviceParams &device, const TuneSettings &settings)
{
  PlanContext ctx;
  ctx.ir = &ir;
  ctx.Q = tab.n_points();
  ctx.test_identity = tab.test_identity;
  ctx.device = device;
  ctx.precision = precision;
  ctx.settings = &settings;
  OpenCLCandidateTimer timer(ir, tab, arrays, n_out, settings);
  Tuned<ActionBackend> tuned = tune(settings_plan(settings, default_opencl_plan()), ctx, timer);
  return OpenCLTuneReport{std::move(tuned.report), std::move(tuned.kernel)};
}

}  // namespace femgpu
