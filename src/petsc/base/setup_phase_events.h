// The device backends' one-time work as PETSc log events (runtime/setup_phases.h):
// FEMGPUKernelMake (a kernel's source generated, compiled or found in the cache),
// FEMGPUKernelLoad (its binary loaded on the device), FEMGPUDeviceData (an operator's or a
// transfer's data copied to the device). They nest inside the event that needed them
// (FEMGPUSetUp, FEMGPUApply, FEMGPUDiagonal, FEMGPUPMGTransfers, ...).
#pragma once

#include <petscsys.h>

namespace femgpu {

// Registers the three events and points the runtime's hook at them; once per process
// (MatFEMGPURegisterLogEvents calls it).
PetscErrorCode RegisterSetupPhaseEvents();

}  // namespace femgpu
