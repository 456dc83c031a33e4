// DMPlexInsertBoundaryValues on a DM, from femgpu's plan (essential_values.h).
//
// PETSc inserts essential boundary values anew at every call: SNES before each residual
// and Jacobian, TS (DMPlexTSComputeBoundary) before each IFunction and IJacobian, into U
// and, from DMAddBoundary's time-derivative functions, into U_t. At 3D P2 with 843k cells
// one call took 5.2 s on an H100's machine, all of a TS stage's time but 0.1 s.
// DMPlex dispatches both insertions through functions composed on the DM
// ("DMPlexInsertBoundaryValues_C", "DMPlexInsertTimeDerivativeBoundaryValues_C"):
// DMFEMGPUInsertBoundaryValuesFromPlan composes femgpu's in their place, which write the
// same values from a plan built once (again when the DM's closure maps are rebuilt),
// scattered into the local vector where it lives (only the boundary values travel to a
// CUDA Vec), and call PETSc's own for what the plan does not cover: natural or field
// conditions, finite volumes, a Vec that PETSc marks for zero values, boundaries without
// a time derivative, and everything essential_values.h lists as unsupported (a PetscInfo
// line says why).
// Does not: touch a DM of several fields or a field that is not a PetscFE.
#pragma once

#include <petscdm.h>

namespace femgpu {

// Composes femgpu's insertion on `dm` (once; nothing for DMs it does not cover).
PetscErrorCode DMFEMGPUInsertBoundaryValuesFromPlan(DM dm);

}  // namespace femgpu
