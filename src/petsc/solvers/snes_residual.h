// -dm_fem_gpu_form_file: a DM's residual from a UFL form (snes_residual.cpp).
#pragma once

#include <petscdm.h>

namespace femgpu {

// The DM's residual becomes femgpu's (called by the SNES checker and by
// FEMGPUDMSetFromOptions); nothing without the option. The residual Mat is composed on the
// DM under mat/dm_residual.h's key, where its Jacobians' setup reads it.
PetscErrorCode MatFEMGPUWrapDMResidual(DM dm);

}  // namespace femgpu
