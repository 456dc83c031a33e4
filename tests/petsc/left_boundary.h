// The "left" label of the PETSc-driven tests: the boundary faces whose centroid lies on
// x = x_min, closed under closure, for essential conditions on part of the boundary.
// A face's centroid is the mean of its vertices, placed by its cell's coordinate field
// (DMPlexReferenceToCoordinates): that works whatever the coordinate layout, cellwise
// P2 coordinates from a Gmsh file included (where faces hold no coordinates of their own).
#pragma once

#include <petscdmplex.h>

#include <cmath>

#include "petsc/base/petsc_compat.h"  // PETSC_SUCCESS on PETSc 3.18

// The x of the centroid of boundary face f (one supporting cell): its vertices are the
// cell's closure vertices at the same places, reference vertex k being the k-th.
inline PetscErrorCode FaceCentroidX(DM dm, PetscInt f, PetscReal *x)
{
  PetscInt dim, vStart, vEnd, n_cell = 0, n_face = 0, *cell_closure = nullptr, *face_closure = nullptr, k = 0;
  const PetscInt *support;
  PetscReal ref[4 * 3], real[4 * 3];
  PetscFunctionBegin;
  PetscCall(DMGetDimension(dm, &dim));
  PetscCall(DMPlexGetDepthStratum(dm, 0, &vStart, &vEnd));
  PetscCall(DMPlexGetSupport(dm, f, &support));
  PetscCall(DMPlexGetTransitiveClosure(dm, support[0], PETSC_TRUE, &n_cell, &cell_closure));
  PetscCall(DMPlexGetTransitiveClosure(dm, f, PETSC_TRUE, &n_face, &face_closure));
  PetscInt n_vertices = 0;
  for (PetscInt i = 0; i < n_cell; ++i) {
    const PetscInt p = cell_closure[2 * i];
    if (p < vStart || p >= vEnd) continue;
    bool on_face = false;
    for (PetscInt j = 0; j < n_face; ++j) on_face = on_face || face_closure[2 * j] == p;
    if (on_face) {  // reference vertex k of the simplex [-1, 1]^dim
      for (PetscInt d = 0; d < dim; ++d) ref[n_vertices * dim + d] = (k > 0 && d == k - 1) ? 1.0 : -1.0;
      ++n_vertices;
    }
    ++k;
  }
  PetscCall(DMPlexRestoreTransitiveClosure(dm, f, PETSC_TRUE, &n_face, &face_closure));
  PetscCall(DMPlexRestoreTransitiveClosure(dm, support[0], PETSC_TRUE, &n_cell, &cell_closure));
  PetscCall(DMPlexReferenceToCoordinates(dm, support[0], n_vertices, ref, real));
  *x = 0;
  for (PetscInt v = 0; v < n_vertices; ++v) *x += real[v * dim] / static_cast<PetscReal>(n_vertices);
  PetscFunctionReturn(PETSC_SUCCESS);
}

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
      PetscReal x;
      PetscCall(FaceCentroidX(dm, f[i], &x));
      if (std::abs(x - lo[0]) < 1e-10 * (hi[0] - lo[0])) PetscCall(DMLabelSetValue(left, f[i], 1));
    }
    PetscCall(ISRestoreIndices(faces, &f));
    PetscCall(ISDestroy(&faces));
  }
  PetscCall(DMPlexLabelComplete(dm, left));
  PetscFunctionReturn(PETSC_SUCCESS);
}
