// Unchanged DMPlex + SNES programs with -dm_mat_type fem_gpu (snes_jacobian.cpp).
#pragma once

#include <petscsnes.h>

namespace femgpu {

// The SNES options checker (SNESAddOptionsChecker, femgpu_register.cpp): the DM's residual
// becomes femgpu's under -dm_fem_gpu_form_file (snes_residual.h), and when the DM makes
// fem_gpu matrices its local Jacobian (and TS's IJacobian) the fem_gpu operator.
PetscErrorCode MatFEMGPUSNESOptionsChecker(SNES snes);

}  // namespace femgpu
