// Tuning on the OpenCL backend (PoCL on machines without a GPU, or an OpenCL GPU): the
// OpenCL implementation of the tuner's CandidateTimer (tune/candidate_timer.h), which
// builds each candidate of the tuner's rounds as an OpenCL backend and times it by wall
// clock on the given arrays (warm-ups, then a median). The first warm-up builds the
// program; every run includes the backend's host<->device copies, as a MatMult through
// this backend does.
//
// Takes: the IR, its tables, host arrays with n_out outputs, DeviceParams (the Mat
// passes the OpenCL probe's, opencl_probe.h), settings.
// Returns: the report and the fastest candidate's backend, ready to apply.
// Does not: choose candidates or rounds (tune/), cache (tuning_cache.h) or know PETSc.
#pragma once

#include <memory>

#include "runtime/action_backend.h"
#include "tune/tuner.h"

namespace femgpu {

struct OpenCLTuneReport : TuneReport {
  std::unique_ptr<ActionBackend> best_backend;
};

OpenCLTuneReport tune_opencl(const ActionIR &ir, const Tabulation &tab, const ActionArrays &arrays, std::size_t n_out,
                             Precision precision, const DeviceParams &device, const TuneSettings &settings);

}  // namespace femgpu
