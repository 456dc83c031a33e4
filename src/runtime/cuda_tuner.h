// Tuning on the GPU (the paper's section 3.2.6 and 5): the CUDA implementation of the
// tuner's CandidateTimer (tune/candidate_timer.h), which compiles each round's candidates
// in parallel (NVRTC) and times each on the real operands (warm-ups, then at least
// `min_runs` runs or `min_seconds`, CUDA events); the plan's rounds, the cost model's
// ranking, the twins and the local search are the tuner's (tune/). A candidate that fails
// to compile, load or run scores infinity and tuning goes on. Compiling and timing one
// candidate: cuda_timing.h.
//
// Takes: the IR, its tables, device-resident operands, the device and settings.
// Returns: every timed candidate with its evidence and the index of the best, plus the
// best kernel, loaded and ready to launch.
// Does not: choose candidates or rounds (tune/), cache results (tuning_cache.h does) or
// know PETSc.
#pragma once

#include <memory>

#include "runtime/cuda_action.h"
#include "runtime/cuda_timing.h"
#include "tune/tuner.h"

namespace femgpu {

// tune_cuda's report also hands over the best kernel, loaded.
struct CudaTuneReport : TuneReport {
  std::unique_ptr<CudaKernel> best_kernel;
};

CudaTuneReport tune_cuda(const ActionIR &ir, const Tabulation &tab, const DeviceActionData &data, const cuda::DeviceInfo &info,
                         const DeviceParams &device, const TuneSettings &settings);

}  // namespace femgpu
