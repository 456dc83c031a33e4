// The device backends' setup phases as PETSc log events (see setup_phase_events.h).
#include "petsc/base/setup_phase_events.h"

#include <petscmat.h>

#include "petsc/base/petsc_compat.h"

#include "runtime/setup_phases.h"

namespace femgpu {

namespace {

PetscLogEvent kernel_make_event, kernel_load_event, device_data_event;

// The hook cannot return an error: a failure to log is not a failure of the work, so
// PETSc's error code is dropped here (the runtime's own errors are exceptions).
void log_setup_phase(SetupPhase phase, bool begin)
{
  const PetscLogEvent e = phase == SetupPhase::KernelMake ? kernel_make_event : phase == SetupPhase::KernelLoad ? kernel_load_event : device_data_event;
  if (begin) (void)PetscLogEventBegin(e, 0, 0, 0, 0);
  else (void)PetscLogEventEnd(e, 0, 0, 0, 0);
}

// PETSc's own count of bytes between host and device (the CpuToGpu/GpuToCpu columns).
void log_copy(bool to_device, double bytes)
{
  (void)bytes;  // PETSc without a device logs no copies (the calls are macros there)
  if (to_device) (void)PetscLogCpuToGpu(bytes);
  else (void)PetscLogGpuToCpu(bytes);
}

}  // namespace

PetscErrorCode RegisterSetupPhaseEvents()
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventRegister("FEMGPUKernelMake", MAT_CLASSID, &kernel_make_event));
  PetscCall(PetscLogEventRegister("FEMGPUKernelLoad", MAT_CLASSID, &kernel_load_event));
  PetscCall(PetscLogEventRegister("FEMGPUDeviceData", MAT_CLASSID, &device_data_event));
  set_setup_phase_hook(log_setup_phase);
  set_copy_hook(log_copy);
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
