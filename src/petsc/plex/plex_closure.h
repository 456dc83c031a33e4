// Closure indices of a DMPlex's cells: for each cell, the local-vector index of every
// closure DOF, in the order DMPlexVecGetClosure returns the values.
//
// Takes: a DMPlex, a local section (the DM's or its coordinate DM's) and a range of cells.
// Returns: n_cells x width indices (constrained DOFs included).
// plex_closure_indices reads them from the section's offsets and each cell's closure
// points and orientations, which it follows from the cones without a call per cell (cells
// whose cones' orientations agree share PETSc's closure pattern, read once), with the
// section's symmetries (PetscSectionGetFieldPointSyms: the dual space's permutation of a
// point's DOFs for its orientation), field by field as DMPlexVecGetClosure does, but
// without a vector or a work array per cell; it checks itself against PETSc's own
// closures (plex_closure_by_vec.h: DMPlexVecGetClosure one cell at a time, the slow way)
// on a sample of cells, and falls back to them where PETSc would do something else
// (meshes that are not interpolated, a closure permutation on the section).
// Does not: support sign flips of DOFs (Lagrange has none; refused with an error).
#pragma once

#include <petscdmplex.h>

#include <memory>
#include <vector>

#include "petsc/base/petsc_compat.h"
#include "petsc/plex/index_array.h"
#include "petsc/plex/plex_cell_keys.h"  // CellKeyHashes

namespace femgpu {

// `from_patterns` (optional) says whether the fast path gave the indices (false: it fell
// back to plex_closure_indices_by_vec). `hashes` (optional): in, the cells' key hashes of
// an earlier call, used where they were walked on these cones and cells; out, the hashes
// used (made here where those were not), for a later call. Hashes are never changed once
// made, so DMs on one mesh share them.
PetscErrorCode plex_closure_indices(DM dm, PetscSection section, PetscInt cStart, PetscInt cEnd, PetscInt *width, IndexArray *indices,
                                    bool *from_patterns = nullptr, std::shared_ptr<const CellKeyHashes> *hashes = nullptr);

}  // namespace femgpu
