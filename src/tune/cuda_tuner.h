// Tuning on the GPU (the paper's section 3.2.6 and 5): rank the pruned search space
// with the cost model, compile the b best and SCPWI in parallel (NVRTC), time each on
// the real operands (warm-ups, then at least `min_runs` runs or `min_seconds`, CUDA
// events), keep the fastest. A candidate that fails to compile, load or run scores
// infinity and tuning goes on.
//
// Takes: the IR, its tables, device-resident operands, the device and settings.
// Returns: every timed candidate with its evidence and the index of the best, plus the
// best kernel, loaded and ready to launch.
// Does not: cache results (tuning_cache.h does) or know PETSc.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "runtime/cuda_action.h"
#include "tune/cost_model.h"

namespace femgpu {

struct TuneSettings {
  SearchLimits limits;
  std::size_t candidates = 9;  // b
  int warmups = 5;
  int min_runs = 15;
  double min_seconds = 0.2;
  int max_runs = 400;
  int compile_threads = 8;
  bool include_scpwi = true;
  // Also time the model's best of each N_WI class (the paper's high-order winners use 2-6).
  std::vector<int> items_per_cell_classes{2, 3, 4, 5, 6, 8, 16, 32};
  std::function<void(const std::string &)> monitor;  // one line per timed candidate
};

struct TimedCandidate {
  Schedule schedule = Schedule::single_cell_per_work_item();
  double model_seconds = 0;  // t_heur per cell (tiled candidates)
  double median_ms = 0, mean_ms = 0;
  int runs = 0;
  std::string error;  // why it could not run (then median_ms is infinity)
  int registers = 0, local_bytes = 0;
  long long shared_bytes = 0;
};

struct TuneReport {
  std::vector<TimedCandidate> candidates;
  int best = -1;
  std::size_t space_size = 0;
  bool space_truncated = false;
  double compile_seconds = 0, timing_seconds = 0;
  std::unique_ptr<CudaKernel> best_kernel;
};

// The schedules to time: SCPWI and the cost model's best b tiled candidates.
std::vector<TimedCandidate> tuning_candidates(const ActionIR &ir, int Q, const DeviceParams &device, const TuneSettings &s,
                                              std::size_t *space_size, bool *truncated);

// Times one loaded kernel on `data`: median and mean milliseconds per launch.
TimedCandidate time_kernel(const CudaKernel &k, const DeviceActionData &data, const TuneSettings &s);

// Compiles every candidate's schedule with NVRTC for `info`'s architecture, `threads`
// at a time (no device context needed). A candidate that fails keeps a null kernel and
// its error.
std::vector<std::unique_ptr<CudaKernel>> compile_candidates(const ActionIR &ir, const Tabulation &tab, std::vector<TimedCandidate> &candidates,
                                                            const cuda::DeviceInfo &info, int threads);

// Loads and times each compiled kernel in order (time_kernel), keeping model_seconds;
// failures (and, once `stop` returns true, the rest) score infinity with their reason.
// Returns the index of the fastest, or -1. Rethrows cuda::DeviceOutOfMemory.
int time_candidates(std::vector<TimedCandidate> &candidates, std::vector<std::unique_ptr<CudaKernel>> &kernels,
                    const DeviceActionData &data, const TuneSettings &settings, const std::function<bool()> &stop = {});

TuneReport tune_cuda(const ActionIR &ir, const Tabulation &tab, const DeviceActionData &data, const cuda::DeviceInfo &info,
                     const DeviceParams &device, const TuneSettings &settings);

}  // namespace femgpu
