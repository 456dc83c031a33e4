// femgpu-bench -rerank: the cost model's terms for schedules that were timed, so a
// model change can be judged against measurements without a GPU
// (records/rerank_eval.py reads the output; bench/experiments/
// model_barriers_offline.txt and study/h200_study_spearman_t_sync_offline.txt use it).
//
// Takes: lines "operator|dim|degree|schedule|..." (e.g. "laplace|3|5|tiled nc=128 ... fp64|3.68");
// the device parameters (a probe cache JSON); barrier costs in ns.
// Returns: each tiled line with "|t_memory|n_sync" and one t_heur per barrier cost appended
// (seconds per cell); lines of other schedules, blank lines and '#' comments are skipped.
// Throws: std::runtime_error naming the line that is malformed or whose schedule does
// not fit its case (schedule.h's validate, tile sizes only: shared memory is not checked).
// Does not: open a GPU (it lowers each case's form on the CPU).
#pragma once

#include <iosfwd>
#include <vector>

#include "tune/cost_model.h"

namespace femgpu {

void rerank(std::istream &in, std::ostream &out, const DeviceParams &device, const std::vector<double> &barrier_ns);

}  // namespace femgpu
