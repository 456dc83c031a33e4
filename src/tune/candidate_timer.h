// What tuning asks of a backend: compile and time one round of candidates, and keep what
// it compiled. The plan (tune_plan.h: which candidates, which rounds, the budget's share
// of each) is run here, without a device; the CUDA and OpenCL implementations of
// CandidateTimer are in runtime/ (cuda_tuner.h, opencl_tuner.h), the stage after this one.
//
// Takes: a plan, what its moves need (PlanContext) and a backend's CandidateTimer.
// Returns: the report of every candidate and the fastest one's compiled kernel as the
// backend made it (a loaded CUDA kernel, an OpenCL backend): the tuner hands it on without
// looking into it, so the kernel that was timed is the one that runs (no second compile).
// Does not: compile, time or know a device.
#pragma once

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "tune/tune_plan.h"
#include "tune/tuner.h"

namespace femgpu {

// `Kernel`: what the backend compiled for one candidate, opaque here.
template <class Kernel>
class CandidateTimer {
 public:
  virtual ~CandidateTimer() = default;
  // Compiles and times `round`, appending it to *report (append_round), as tune_plan.h's
  // RoundTimer: `screen`, skip the register-bound twins that spill more than their
  // originals; `budget`, the seconds since tuning started by which the round must end (0:
  // none). Keeps one kernel (or none) per candidate, in the report's order.
  virtual void time_round(TuneReport *report, std::vector<TimedCandidate> round, bool screen, double budget) = 0;
  // How many candidates' kernels (or their empty places) it keeps: the report's candidates.
  virtual std::size_t kept() const = 0;
  // Hands over the kernel of the report's candidate `index`; null where none was compiled.
  virtual std::unique_ptr<Kernel> take_kernel(std::size_t index) = 0;
};

// What tuning returns: every candidate with its evidence, and the fastest one's kernel.
template <class Kernel>
struct Tuned {
  TuneReport report;
  std::unique_ptr<Kernel> kernel;  // of report.best; null where nothing ran
};

// Runs `plan` (run_plan) with `timer` timing each round, then takes the fastest
// candidate's kernel from it.
template <class Kernel>
Tuned<Kernel> tune(const TunePlan &plan, const PlanContext &ctx, CandidateTimer<Kernel> &timer)
{
  Tuned<Kernel> out;
  run_plan(plan, ctx, &out.report, [&timer](TuneReport *into, std::vector<TimedCandidate> round, bool screen, double budget) {
    timer.time_round(into, std::move(round), screen, budget);
  });
  if (timer.kept() != out.report.candidates.size())
    throw std::logic_error("tune: " + std::to_string(timer.kept()) + " kernels kept for " + std::to_string(out.report.candidates.size()) + " candidates");
  if (out.report.best >= 0) out.kernel = timer.take_kernel(static_cast<std::size_t>(out.report.best));
  return out;
}

}  // namespace femgpu
