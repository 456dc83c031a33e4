// PETSc's own closure indices, one cell at a time: DMPlexVecGetClosure on a local vector
// that holds each entry's own index, so the closure's "values" are its local indices.
//
// Why: it is PETSc's answer for any section and mesh (a closure permutation, a mesh that
// is not interpolated), and slow (a call per cell). plex_closure.cpp's fast closures
// check themselves against it on a sample of cells and fall back to it where they differ.
//
// Takes: a DMPlex, a local section (the DM's or its coordinate DM's), cells.
// Returns: n_cells x width local indices (constrained DOFs included), in the order
// DMPlexVecGetClosure returns the values.
#pragma once

#include <petscdmplex.h>

#include <vector>

#include "petsc/base/petsc_compat.h"
#include "petsc/plex/index_array.h"

namespace femgpu {

// A sequential Vec of the section's storage size holding each entry's own index.
PetscErrorCode plex_index_vector(PetscSection section, Vec *v);

// The closure of `cell` read through DMPlexVecGetClosure from `indices` (plex_index_vector).
PetscErrorCode plex_cell_closure_by_vec(DM dm, PetscSection section, Vec indices, PetscInt cell, std::vector<int> *out);

// Whether `indices` (n_cells x width, cells cStart..cEnd) agree with DMPlexVecGetClosure
// on up to 64 cells spread over the range, the first and last included: a closure
// permutation or another layout would differ on every cell, so a sample finds it.
PetscErrorCode plex_closure_agrees_with_petsc(DM dm, PetscSection section, Vec idx, PetscInt cStart, PetscInt cEnd, PetscInt width, const IndexArray &indices,
                                              bool *agrees);

// Every cell's closure this way; an error where cells' closures differ in size.
PetscErrorCode plex_closure_indices_by_vec(DM dm, PetscSection section, PetscInt cStart, PetscInt cEnd, PetscInt *width, IndexArray *indices);

}  // namespace femgpu
