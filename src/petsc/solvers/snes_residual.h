// -dm_fem_gpu_form_file: a DM's residual from a UFL form (snes_residual.cpp).
#pragma once

#include <petscdm.h>

namespace femgpu {

// The DM's residual becomes femgpu's (called by the SNES checker and by
// FEMGPUDMSetFromOptions); nothing without the option. The residual Mat is composed on the
// DM under mat/dm_residual.h's key, where its Jacobians' setup reads it.
PetscErrorCode MatFEMGPUWrapDMResidual(DM dm);
// The residual Mat of the form file `file` on `dm`, which holds it (*residual is borrowed),
// composed under kDMResidualKey (mat/dm_residual.h) for the DM's Jacobians; SNES's and
// TS's residuals (ts_residual.cpp) are made here.
PetscErrorCode MatFEMGPUCreateDMResidual(DM dm, const char *file, Mat *residual);

}  // namespace femgpu
