// Cell keys of a DMPlex: the cones PETSc keeps, read in place, and each cell's closure key
// hashed, so cells whose closures follow the same pattern are found without walking every
// cell's closure (plex_closure.cpp reads PETSc's closure once per distinct key).
//
// A point's key: its cone size, its cone's orientations and its cone points' keys. PETSc's
// transitive closure orders points and composes orientations from these alone, so cells
// with equal keys have their closure points at the same cone paths.
// Takes: an interpolated DMPlex (cones one depth down) and its cells [cStart, cEnd).
// Returns: each cell's key hash and the first cell of each hash, or `collision` >= 0
// where the hashes cannot be trusted (then the caller uses PETSc's closures).
#pragma once

#include <petscdmplex.h>

#include <cstdint>
#include <map>

#include "petsc/base/petsc_compat.h"
#include "petsc/plex/index_array.h"
#include "petsc/plex/section_arrays.h"

namespace femgpu {

// The cone arrays of the DM (PETSc's own, read in place): the transitive closure walks
// them without a call per point.
struct Cones {
  SectionArrays layout;  // each point's cone size and offset
  const PetscInt *points = nullptr, *orientations = nullptr;
  const PetscInt *cone(PetscInt p) const { return points + layout.offset(p); }
  const PetscInt *orientation(PetscInt p) const { return orientations + layout.offset(p); }
  PetscInt n(PetscInt p) const { return layout.dof(p); }
};

PetscErrorCode get_cones(DM dm, Cones *cones);

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

// Meshes below this many cells are walked on one thread (threads cost more than they save).
constexpr PetscInt kThreadedCells = 1 << 16;

// Every cell's key hash into `codes` and the first cell of each hash, made bottom-up: each
// depth stratum's points hashed from the stratum below (one visit per mesh point, not one
// per cell and closure path), then each point's key compared with its hash's first point's
// in its stratum. Equal hashes below were found to mean equal keys, so that comparison is
// exact, and a hash collision is found (`collision`: a cell, and the caller falls back to
// PETSc's closures) rather than trusted. So are cones that do not point one depth down
// (not an interpolated mesh's) and cells that are not the top stratum.
PetscErrorCode hash_cells(DM dm, const Cones &cones, PetscInt cStart, PetscInt cEnd, CellKeyHashes *hashed);

}  // namespace femgpu
