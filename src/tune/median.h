// The median of repeated timings: what a candidate's time is (the tuner's protocol and the
// CUDA timing), and what the device probe and femgpu-bench's SpMV baseline report. Here in
// tune/, with the tuner that ranks by it and below every other stage that times something
// (runtime, probe, tools).
//
// Takes: the times. Returns: their median (the mean of the middle two for an even count).
// Throws: std::invalid_argument for no values. Does not: time anything.
#pragma once

#include <vector>

namespace femgpu {

double median(std::vector<double> xs);

}  // namespace femgpu
