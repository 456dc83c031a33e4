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

#include <cstdint>
#include <map>
#include <vector>

#include "petsc/base/petsc_compat.h"
#include "petsc/plex/index_array.h"

namespace femgpu {

// Each cell's closure-key hash and the first cell of each distinct hash: the walk over the
// cones that the field's and the coordinates' closures share (a DM and its coordinate DM
// have the same cones), so it is done once when both are built.
struct CellKeyHashes {
  const PetscInt *cones = nullptr;  // the cone array the hashes were computed from
  PetscInt cStart = 0, cEnd = 0;
  DefaultInitVector<std::uint64_t> codes;  // per cell
  std::map<std::uint64_t, PetscInt> first;
  // -1 if every mesh point's key equals its hash's first point's (in its depth stratum);
  // else a cell (cStart), and no cell is placed by these hashes: a hash collision, or
  // cones that do not point one depth down. Checked once here, so each closure built from
  // these hashes (the field's, the coordinates', a p-multigrid level's) does not walk the
  // keys again.
  PetscInt collision = -1;
};

// `from_patterns` (optional) says whether the fast path gave the indices (false: it fell
// back to plex_closure_indices_by_vec). `hashes` (optional) keeps the cells' key hashes
// for a later call on the same cones, or supplies them from an earlier one.
PetscErrorCode plex_closure_indices(DM dm, PetscSection section, PetscInt cStart, PetscInt cEnd, PetscInt *width, IndexArray *indices,
                                    bool *from_patterns = nullptr, CellKeyHashes *hashes = nullptr);

}  // namespace femgpu
