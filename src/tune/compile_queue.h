// Which candidates of a budgeted tuning round are compiled (TuneSettings::budget_seconds):
// a work queue in the round's timing order (anytime_order), where a free compile worker
// takes the next candidate only if its compile, as estimated (compile_estimate.h) and
// scaled by what this tuning's compiles took against their estimates, and its timing
// would still end within the budget. A candidate that would not fit is skipped for good
// (left untimed with kBudgetSpent) and a cheaper one after it may still start. A compile
// cannot be interrupted: before, the CUDA tuner started fixed batches of compile_threads
// and a batch took its slowest compile, so the first batch at P6 (unrolled tiled
// kernels) ran a 10 s budget to 27-34 s on the H200 (docs/results.md).
//
// Takes: the estimates, the budget, the time kept for timing each candidate, and the
// clock's readings (`now`, seconds since tuning started) at each decision.
// Returns: the next candidate to start, and why one was skipped.
// Does not: compile, time, read a clock or run threads (compile_workers.h does), so its
// decisions can be replayed with fake times (tests/unit/test_compile_queue.cpp).
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

namespace femgpu {

// What this tuning's compiles took against their estimates; carried from round to round.
struct CompileRatio {
  double measured_seconds = 0, estimated_seconds = 0;
  // measured / estimated, 1 before any compile ended (the estimates are meant for a
  // full batch of parallel compiles on the device, a little long: compile_estimate.cpp),
  // kept within [kMinScale, 8] so that one odd compile does not open or close the whole
  // budget.
  double scale() const;
  // On the H200 host (be07f9b) elasticity 3D P6's SCPWI kernels compiled in an eighth of
  // their estimates; at a floor of 1/8 the queue then expected a tiled local-search
  // neighbour estimated at 12.8 s to take 1.5 s, started it, and tuning took 18.6 s of
  // its 10. The tiled estimates are within 2x of the device host's compiles
  // (tuning/nvrtc_compile_estimates*.txt), so a ratio learnt from other kinds may shorten
  // them by half at most.
  static constexpr double kMinScale = 0.5;
};

class CompileQueue {
 public:
  static constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
  // Compiles estimated below this do not change the ratio (finished()).
  static constexpr double kLearnFromSeconds = 0.5;

  // estimates: each candidate's compile estimate in seconds, in the order they are timed.
  // budget_seconds <= 0: no budget, every candidate starts in order. timing_seconds: what
  // timing one candidate is expected to take once compiled. With `guarantee`, the
  // cheapest to compile of the first `leading` candidates starts even where it does not
  // fit, so a budgeted tuning always returns a schedule; where earlier rounds timed one
  // already, none need be guaranteed.
  CompileQueue(std::vector<double> estimates, double budget_seconds, double timing_seconds, CompileRatio ratio = {},
               bool guarantee = true, std::size_t leading = 3);

  // The next candidate to start at `now`, or kNone once every one has started or been
  // skipped; those it passes over are skipped.
  std::size_t next(double now);
  // Candidate i's compile ended after `seconds`: the ratio learns from it, where its
  // estimate was at least kLearnFromSeconds.
  void finished(std::size_t i, double seconds);

  std::size_t size() const { return estimates_.size(); }
  bool skipped(std::size_t i) const { return !skip_reasons_[i].empty(); }
  // "estimated compile 14.2 s (x1.30 as measured so far) + 0.5 s timing, 3.1 s of the budget left"
  const std::string &skip_reason(std::size_t i) const { return skip_reasons_[i]; }
  double estimate(std::size_t i) const { return estimates_[i]; }
  const CompileRatio &ratio() const { return ratio_; }
  std::size_t guaranteed() const { return guaranteed_; }

 private:
  std::vector<double> estimates_;
  std::vector<std::string> skip_reasons_;
  double budget_, timing_;
  CompileRatio ratio_;
  std::size_t guaranteed_ = kNone, position_ = 0;
};

}  // namespace femgpu
