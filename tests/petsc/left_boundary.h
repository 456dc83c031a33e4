// The "left" label of the PETSc-driven tests: the boundary faces whose centroid lies on
// x = x_min, closed under closure, for essential conditions on part of the boundary.
#pragma once

#include <petscdmplex.h>

#include <cmath>

#include "petsc/petsc_compat.h"  // PETSC_SUCCESS on PETSc 3.18

inline PetscErrorCode MarkLeftBoundary(DM dm)
{
  DMLabel boundary, left;
  IS faces;
  PetscReal lo[3], hi[3];
  PetscFunctionBegin;
  PetscCall(DMGetBoundingBox(dm, lo, hi));
  PetscCall(DMCreateLabel(dm, "boundary"));
  PetscCall(DMCreateLabel(dm, "left"));
  PetscCall(DMGetLabel(dm, "boundary", &boundary));
  PetscCall(DMGetLabel(dm, "left", &left));
  PetscCall(DMPlexMarkBoundaryFaces(dm, 1, boundary));
  PetscCall(DMLabelGetStratumIS(boundary, 1, &faces));
  if (faces) {
    PetscInt n;
    const PetscInt *f;
    PetscCall(ISGetLocalSize(faces, &n));
    PetscCall(ISGetIndices(faces, &f));
    for (PetscInt i = 0; i < n; ++i) {
      PetscReal centroid[3];
      PetscCall(DMPlexComputeCellGeometryFVM(dm, f[i], nullptr, centroid, nullptr));
      if (std::abs(centroid[0] - lo[0]) < 1e-10 * (hi[0] - lo[0])) PetscCall(DMLabelSetValue(left, f[i], 1));
    }
    PetscCall(ISRestoreIndices(faces, &f));
    PetscCall(ISDestroy(&faces));
  }
  PetscCall(DMPlexLabelComplete(dm, left));
  PetscFunctionReturn(PETSC_SUCCESS);
}
