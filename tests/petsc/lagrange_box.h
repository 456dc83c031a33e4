// The DM most PETSc-driven tests start from: FEMGPUCreateBoxMesh on [0,1]^dim with
// `faces` intervals per direction, DMSetFromOptions (so -dm_* options apply), one P_degree
// Lagrange field with `components` components, and its DS.
#pragma once

#include <petscdmplex.h>
#include <petscfe.h>

#include "femgpu.h"
#include "petsc/base/petsc_compat.h"  // PETSC_SUCCESS on PETSc 3.18

inline PetscErrorCode CreateLagrangeBox(MPI_Comm comm, PetscInt dim, PetscInt faces, PetscInt components, PetscInt degree, DM *dm)
{
  const PetscInt n[3] = {faces, faces, faces};
  const PetscReal lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  PetscFE fe;
  PetscFunctionBegin;
  PetscCall(FEMGPUCreateBoxMesh(comm, dim, n, lo, hi, dm));
  PetscCall(DMSetFromOptions(*dm));
  PetscCall(PetscFECreateLagrange(comm, dim, components, PETSC_TRUE, degree, PETSC_DETERMINE, &fe));
  PetscCall(DMAddField(*dm, nullptr, (PetscObject)fe));
  PetscCall(DMCreateDS(*dm));
  PetscCall(PetscFEDestroy(&fe));
  PetscFunctionReturn(PETSC_SUCCESS);
}
