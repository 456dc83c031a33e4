// Timed candidates as the tuner's first round leaves them, for the tests of its second
// round (the shared-DOF, warp-scatter and interleaved-table twins).
#pragma once

#include <limits>
#include <string>

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

}  // namespace femgpu::test
