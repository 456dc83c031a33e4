// The femgpu residual a DM may hold, as a Jacobian's setup reads it (dm_residual.cpp).
//
// -dm_fem_gpu_form_file (solvers/snes_residual.cpp) composes a fem_gpu Mat in residual
// mode on the DM under kDMResidualKey. A Jacobian Mat on that DM, set up here in the room
// below, only reads it: the form file when the Jacobian has none, and the residual's
// constants. So the Mat needs nothing from solvers/: the key is the contract.
// Does not: make, replace or evaluate the residual.
#pragma once

#include <petscdm.h>
#include <petscmat.h>

#include <string>

namespace femgpu {

struct MatFEMGPUContext;  // mat_context.h

// PetscObjectCompose's name of the residual Mat on the DM (the DM holds it).
constexpr const char *kDMResidualKey = "femgpu_residual";

// The form file of -dm_fem_gpu_form_file when the DM's residual is femgpu's, so its
// Jacobian Mats take derivative(F) without -mat_fem_gpu_form_file; unchanged otherwise.
PetscErrorCode MatFEMGPUFormOfDMResidual(DM dm, std::string *text, std::string *source);
// A Jacobian of the same form file as its DM's femgpu residual must have the residual's
// constants (an error names the first that differs); called at setup, once the residual
// has been set up.
PetscErrorCode MatFEMGPUCheckDMResidualConstants(Mat A, const MatFEMGPUContext *ctx);

}  // namespace femgpu
