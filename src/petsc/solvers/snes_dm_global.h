// SNES's residual and Jacobian callbacks on a DM whose local residual or Jacobian is
// femgpu's (snes_dm_global.cpp).
#pragma once

#include <petscdm.h>

namespace femgpu {

// The DM's global residual callback becomes femgpu's: PETSc's own steps (local vectors,
// boundary values, the local residual, the sum into F) with the global <-> local copies of
// plex/dm_scatter.h. Called where femgpu's local residual was set.
PetscErrorCode MatFEMGPUSetDMGlobalFunction(DM dm);
// The same for the DM's Jacobian callback, where femgpu's local Jacobian was set.
PetscErrorCode MatFEMGPUSetDMGlobalJacobian(DM dm);

}  // namespace femgpu
