// The DMPlex room's log events (plex_events.h).
#include "petsc/plex/plex_events.h"

#include <petscdm.h>

#include "petsc/base/petsc_compat.h"

namespace femgpu {

PetscLogEvent FEMGPU_PlexMaps, FEMGPU_SectionSF, FEMGPU_BoundaryPlan, FEMGPU_BoundaryValues, FEMGPU_DMCopy;

PetscErrorCode PlexRegisterLogEvents()
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventRegister("FEMGPUPlexMaps", DM_CLASSID, &FEMGPU_PlexMaps));
  PetscCall(PetscLogEventRegister("FEMGPUSectionSF", DM_CLASSID, &FEMGPU_SectionSF));
  PetscCall(PetscLogEventRegister("FEMGPUBdPlan", DM_CLASSID, &FEMGPU_BoundaryPlan));
  PetscCall(PetscLogEventRegister("FEMGPUBdValues", DM_CLASSID, &FEMGPU_BoundaryValues));
  PetscCall(PetscLogEventRegister("FEMGPUDMCopy", DM_CLASSID, &FEMGPU_DMCopy));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
