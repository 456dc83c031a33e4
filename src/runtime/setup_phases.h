// The one-time work of the CUDA backends (OpenCL's is not named yet), named so that a
// host program can see it in its own profiler: making a kernel (generating its source,
// compiling it or finding its binary in the cache), loading it on the device, and copying
// an operator's or a transfer's data to the device. The PETSc layer points the hook at
// log events (FEMGPUKernelMake, FEMGPUKernelLoad, FEMGPUDeviceData), so -log_view and
// -log_trace split a first MatMult, diagonal or transfer into these parts. Scopes are
// only on the calling thread's path (the tuner's parallel compiles have none). A second
// hook hears the bytes each copy between host and device moves (PETSc's CpuToGpu and
// GpuToCpu columns of the event it falls in).
//
// Takes: a hook (none by default: a scope then costs one load of a pointer).
// Does not: time anything itself or know PETSc.
#pragma once

#include <cstddef>

namespace femgpu {

enum class SetupPhase { KernelMake, KernelLoad, DeviceData };

using SetupPhaseHook = void (*)(SetupPhase phase, bool begin);

// Sets the hook every SetupPhaseScope calls (nullptr: none). Not thread-safe: set once,
// before the first backend is made.
void set_setup_phase_hook(SetupPhaseHook hook);

using CopyHook = void (*)(bool to_device, double bytes);

// Sets the hook note_copy calls (nullptr: none); as set_setup_phase_hook.
void set_copy_hook(CopyHook hook);

// A copy of `bytes` to the device (to_device) or from it, for the copy hook.
void note_copy(bool to_device, std::size_t bytes);

// Calls the hook with begin = true when made and begin = false when destroyed (also when
// an exception leaves the scope, so the host's events stay nested).
class SetupPhaseScope {
 public:
  explicit SetupPhaseScope(SetupPhase phase);
  ~SetupPhaseScope();
  SetupPhaseScope(const SetupPhaseScope &) = delete;
  SetupPhaseScope &operator=(const SetupPhaseScope &) = delete;

 private:
  SetupPhase phase_;
  SetupPhaseHook hook_;  // the hook when made: the end goes to the same one
};

}  // namespace femgpu
