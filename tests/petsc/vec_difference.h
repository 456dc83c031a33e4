// The PETSc-driven tests' vector comparison: |a - b|_inf / |b|_inf (|a - b|_inf when b is 0).
#pragma once

#include <petscvec.h>

#include "petsc/base/petsc_compat.h"  // PETSC_SUCCESS on PETSc 3.18

inline PetscErrorCode relative_difference(Vec a, Vec b, PetscReal *error)
{
  Vec d;
  PetscReal nd, nb;
  PetscFunctionBegin;
  PetscCall(VecDuplicate(a, &d));
  PetscCall(VecWAXPY(d, -1.0, b, a));
  PetscCall(VecNorm(d, NORM_INFINITY, &nd));
  PetscCall(VecNorm(b, NORM_INFINITY, &nb));
  *error = nb > 0 ? nd / nb : nd;
  PetscCall(VecDestroy(&d));
  PetscFunctionReturn(PETSC_SUCCESS);
}
