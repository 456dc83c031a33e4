// Timed candidates as the tuner's first round leaves them, for the tests of its second
// round (the shared-DOF, warp-scatter and interleaved-table twins), and the twins a move
// of the plan makes of them.
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "tune/tune_moves.h"
#include "tune/tuner.h"

namespace femgpu::test {

// A candidate that ran in `ms` (model time proportional to it), or, with an error, one
// that did not run; `spill` bytes of local memory.
inline TimedCandidate timed_candidate(const Schedule &s, double ms, const std::string &error = "", int spill = 0)
{
  TimedCandidate c;
  c.schedule = s;
  c.local_bytes = spill;
  c.median_ms = error.empty() ? ms : std::numeric_limits<double>::infinity();
  c.error = error;
  c.model_seconds = ms * 1e-9;
  return c;
}

// The twins that the plan's move `name` (tune_moves.h) makes of `timed` with count n, as
// a plan round makes them, for the form `ir` where the move asks about the form.
inline std::vector<TimedCandidate> move_twins(const std::string &name, const std::vector<TimedCandidate> &timed, std::size_t n,
                                              const ActionIR *ir = nullptr)
{
  PlanContext ctx;
  ctx.ir = ir;
  return move_candidates(name, n, ctx, timed);
}

}  // namespace femgpu::test
