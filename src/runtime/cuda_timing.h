// Timing CUDA candidates: compile many schedules with NVRTC in parallel, and time a
// loaded kernel on the real operands with CUDA events (warm-ups, runs queued back to back,
// the median), with the tuner's cutoff and, under a budget, short timing of slow kernels.
//
// Takes: the IR, its tables, candidates (schedules), device-resident operands, settings.
// Returns: compiled kernels, and each candidate's times or why it did not run.
// Does not: choose candidates or rounds (tune/: the plan, cuda_tuner.h: its CUDA timer) or know PETSc.
#pragma once

#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "runtime/cuda_action.h"
#include "tune/tuner.h"

namespace femgpu {

// Times one loaded kernel on `data`: median and mean milliseconds per launch. Where
// cutoff_ms is finite, its second launch is timed first, and if that took longer the
// candidate is cut (TimedCandidate::cut, one run; tuner.h's TuneSettings::cutoff).
TimedCandidate time_kernel(const CudaKernel &k, const DeviceActionData &data, const TuneSettings &s,
                           double cutoff_ms = std::numeric_limits<double>::infinity());

// Compiles every candidate's schedule with NVRTC for `info`'s architecture, `threads`
// at a time (no device context needed). A candidate that fails keeps a null kernel and
// its error.
std::vector<std::unique_ptr<CudaKernel>> compile_candidates(const ActionIR &ir, const Tabulation &tab, std::vector<TimedCandidate> &candidates,
                                                            const cuda::DeviceInfo &info, int threads);

// Loads and times each compiled kernel in order (time_kernel) through tuner.h's
// time_candidates: failures (and, once `stop` returns true, the rest) score infinity
// with their reason. Returns the index of the fastest, or -1. Rethrows
// cuda::DeviceOutOfMemory. The tuner, -schedule and the studies' wall-time guard use it.
// With `fastest_ms` (the fastest median of earlier rounds, infinity at first; updated),
// settings.cutoff applies; without it every candidate gets the full protocol. Candidates
// left by `stop` carry `stop_reason`. With `ready`, ready(i) is called before kernels[i]
// is looked at: the budgeted tuner waits there for i's compile (compile_workers.h), and a
// throw leaves i untimed with the exception's text as its error.
int time_compiled_candidates(std::vector<TimedCandidate> &candidates, std::vector<std::unique_ptr<CudaKernel>> &kernels,
                             const DeviceActionData &data, const TuneSettings &settings, const std::function<bool()> &stop = {},
                             double *fastest_ms = nullptr, const char *stop_reason = "not timed: stopped",
                             const std::function<void(std::size_t)> &ready = {});

}  // namespace femgpu
