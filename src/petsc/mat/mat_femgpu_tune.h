// Tuning a fem_gpu Mat's schedule with the persistent cache (mat_femgpu_tune.cpp), and
// what tuning needs from a backend (TuneTarget: filled by mat_femgpu_backend.cpp). The one
// header of src/petsc/ that includes the tuner's.
#pragma once

#include <petscmat.h>

#include <functional>
#include <memory>
#include <string>

#include "fem/action_arrays.h"
#include "runtime/action_backend.h"
#include "tune/tuner.h"

namespace femgpu {

struct MatFEMGPUContext;  // mat_context.h

// A tuner's answer: every timed candidate, and the fastest one's backend made from the
// kernel that was timed (no second compile or upload of the program); null where none
// ran or the timed kernel is not the one the Mat runs (CUDA times FP64 for an fp32 request).
struct TunerOutcome {
  TuneReport report;
  std::unique_ptr<ActionBackend> backend;
};

// What tuning needs from a backend: the cache key's device part and its tuner.
struct TuneTarget {
  std::string backend;  // "opencl", "cuda"
  std::string device, device_version, driver_version, nvrtc_version = "none";
  DeviceParams params;         // for the cost model's ranking; its local_max_per_group is the shared memory every schedule for this target is held to (candidates, cache entries)
  std::string params_source;   // e.g. "probe cache ...", "defaults (no probe for OpenCL)"
  // Times the candidates on arrays with n_out outputs (random values, this Mat's maps).
  std::function<TunerOutcome(const ActionArrays &arrays, size_t n_out, const TuneSettings &settings)> tune;
  // Throws std::invalid_argument for a schedule this backend cannot run (a cached entry
  // holding one is skipped and retuned); unset: validate() against the form only.
  std::function<void(const Schedule &)> can_run;
};

// The schedule for -mat_fem_gpu_strategy auto: from the tuning cache when it holds a
// valid entry for this form, device and size, else tuned with target.tune (and stored);
// then *tuned is the tuner's backend of it (TunerOutcome), left null on a cache hit.
// The FEMGPUTune event covers lookup and tuning.
PetscErrorCode MatFEMGPUTuneSchedule(Mat A, MatFEMGPUContext *ctx, const TuneTarget &target, Schedule *chosen,
                                     std::unique_ptr<ActionBackend> *tuned);

}  // namespace femgpu
