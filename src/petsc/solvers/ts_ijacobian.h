// TS glue: the names a form uses for what TS gives at each stage, and the wrapper of the
// DM's local IJacobian (ts_ijacobian.cpp).
#pragma once

#include <petscdm.h>
#include <petscmat.h>

#include "form/time_dependent.h"

namespace femgpu {

constexpr const char *kTimeShiftConstant = kTimeShiftName;  // TS's shift a in a * dF/du_t + dF/du
constexpr const char *kTimeConstant = kTimeName;             // the stage time

// Wraps the DM's local IJacobian when it is PETSc's DMPlexTSComputeIJacobianFEM (once).
PetscErrorCode MatFEMGPUWrapDMIJacobian(DM dm);

// An error when J's form names TS's shift where no TS gives one (a SNES program's
// Jacobian, or with what = "residual" its residual).
PetscErrorCode MatFEMGPUCheckNoTimeShift(Mat J, const char *what = "Jacobian");

}  // namespace femgpu
