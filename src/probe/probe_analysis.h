// The arithmetic of the device probe, apart from the GPU so it can be tested: where a
// bandwidth-versus-occupancy curve saturates (the median of its timings: tune/median.h).
//
// Takes: a curve of (resident warps per multiprocessor, bytes/s) points.
// Returns: SG_sat (see saturation_warps).
// Throws: std::invalid_argument for empty input, a non-ascending curve, a non-positive
// peak or a fraction outside (0, 1]. Does not: launch or time anything.
#pragma once

#include <vector>

namespace femgpu {

struct BandwidthPoint {
  int warps_per_multiprocessor = 0;
  double bytes_per_second = 0;
};

struct Saturation {
  double warps = 0;      // SG_sat, warps per multiprocessor
  bool reached = false;  // false: extrapolated, no measured point got there
};

// SG_sat: the smallest measured number of resident warps per multiprocessor whose
// bandwidth is at least `fraction` of `peak` (the cost model caps bandwidth at
// beta * N_reside / SG_sat, so SG_sat is where that ramp meets the ceiling). When no
// point gets there, the ramp is extrapolated from the point with the most bandwidth:
// w * fraction * peak / bw(w), with reached = false.
Saturation saturation_warps(const std::vector<BandwidthPoint> &curve, double peak, double fraction = 0.9);

}  // namespace femgpu
