// The PETSc-driven tests' solve comparison: the operator under test solved by the KSP the
// options prefixed solve_ configure (e.g. CG with fem_gpu_pmg), PETSc's assembled matrix
// by LU, on the same right-hand side.
#pragma once

#include <petscksp.h>

#include "petsc/base/petsc_compat.h"  // PETSC_SUCCESS on PETSc 3.18

// y = A^-1 b by the KSP of the options prefixed solve_; z = J^-1 b by LU.
inline PetscErrorCode solve_both(Mat A, Mat J, Vec b, Vec y, Vec z)
{
  KSP ksp, lu;
  PC pc;
  PetscFunctionBegin;
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)A), &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetTolerances(ksp, 1e-13, 1e-50, PETSC_DEFAULT, 500));
  PetscCall(KSPSetOptionsPrefix(ksp, "solve_"));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSolve(ksp, b, y));
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)A), &lu));
  PetscCall(KSPSetOperators(lu, J, J));
  PetscCall(KSPSetType(lu, KSPPREONLY));
  PetscCall(KSPGetPC(lu, &pc));
  PetscCall(PCSetType(pc, PCLU));
  PetscCall(KSPSolve(lu, b, z));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(KSPDestroy(&lu));
  PetscFunctionReturn(PETSC_SUCCESS);
}
