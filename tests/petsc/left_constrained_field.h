// A DM from the options holding one Lagrange field of a given degree, with a zero
// essential condition on the "left" boundary (left_boundary.h): the fine level of the
// p-multigrid tests.
#pragma once

#include <petscdmplex.h>
#include <petscfe.h>

#include "femgpu.h"
#include "left_boundary.h"

inline PetscErrorCode LeftConstrainedZero(PetscInt, PetscReal, const PetscReal[], PetscInt Nc, PetscScalar *u, void *)
{
  for (PetscInt c = 0; c < Nc; ++c) u[c] = 0.0;
  return PETSC_SUCCESS;
}

// *components < 1 on entry: the mesh's dimension (a vector field); set on return.
inline PetscErrorCode CreateLeftConstrainedField(MPI_Comm comm, PetscInt degree, PetscInt *components, DM *dm)
{
  PetscInt dim, left = 1;
  PetscFE fe;
  DMLabel label;
  PetscFunctionBegin;
  PetscCall(FEMGPUCreateMeshFromOptions(comm, dm));
  PetscCall(MarkLeftBoundary(*dm));
  PetscCall(DMGetDimension(*dm, &dim));
  if (*components < 1) *components = dim;
  PetscCall(PetscFECreateLagrange(comm, dim, *components, PETSC_TRUE, degree, PETSC_DETERMINE, &fe));
  PetscCall(DMAddField(*dm, nullptr, (PetscObject)fe));
  PetscCall(PetscFEDestroy(&fe));
  PetscCall(DMCreateDS(*dm));
  PetscCall(DMGetLabel(*dm, "left", &label));
  PetscCall(DMAddBoundary(*dm, DM_BC_ESSENTIAL, "left", label, 1, &left, 0, 0, nullptr, (void (*)(void))LeftConstrainedZero, nullptr, nullptr,
                          nullptr));
  PetscFunctionReturn(PETSC_SUCCESS);
}
