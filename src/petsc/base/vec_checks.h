// The Vec arguments of femgpu's Mat operations and local callbacks, checked before
// anything is read or written.
//
// Takes: the Mat (or DM), the operation's name, the argument's name, the Vec. Returns: a
// PETSc error naming all of them and both sizes, or nothing. Why: the operations read
// and write the Vecs' arrays through closure maps sized by the Mat's DM, so a shorter
// Vec is written past its end; PETSc 3.18 checks no size in MatGetDiagonal() and only
// some in MatMultAdd() and MatMultTransposeAdd(), and its local-size checks fail on some
// ranks only (a hang where the others go on).
// Does not: check that a Vec of the right layout belongs to the Mat's DM (any Vec of the
// layout is valid input), nor the values in it.
#pragma once

#include <petscdm.h>
#include <petscmat.h>

#include "petsc/base/petsc_compat.h"

namespace femgpu {

enum class MatSide { rows, columns };

// `v`, argument `argument` of `operation` (e.g. "MatGetDiagonal()", "d") on A, has the
// global size and parallel layout of A's rows or columns. A different global size is
// PETSC_ERR_ARG_SIZ; the same global size with another distribution over the ranks, or
// another number of ranks, is PETSC_ERR_ARG_INCOMP. Every rank reaches the same verdict
// (layouts hold every rank's range), so the error is collective and no rank goes on alone.
PetscErrorCode check_vec_layout(Mat A, const char *operation, const char *argument, Vec v, MatSide side);

// `v` is a local Vec of `dm`: its size is the storage size of the DM's local section
// (PETSC_ERR_ARG_SIZ naming both otherwise). Local Vecs live on one rank: not collective.
PetscErrorCode check_local_vec(DM dm, const char *operation, const char *argument, Vec v);

}  // namespace femgpu
