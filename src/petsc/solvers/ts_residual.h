// TS glue for the residual: -dm_fem_gpu_form_file F in a TS program makes the DM's local
// IFunction F(t, U, U_t) femgpu's (ts_residual.cpp).
#pragma once

#include <petscdm.h>
#include <petscmat.h>

namespace femgpu {

// Replaces the DM's local IFunction when it is PETSc's DMPlexTSComputeIFunctionFEM (an
// error names a program's own); a second call finds femgpu's and returns.
PetscErrorCode MatFEMGPUWrapDMIFunction(DM dm, const char *file);

// Binds TS's U_t (a local vector of A's DM, boundary values inserted) to the form's time
// derivative coefficient (w_t of w, form/time_dependent.h), as MatFEMGPUSetLinearizationPoint
// binds U to w; a copy, read again at the next apply.
PetscErrorCode MatFEMGPUSetTimeDerivative(Mat A, Vec x_t_local);

}  // namespace femgpu
