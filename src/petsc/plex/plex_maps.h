// Indirection maps from DMPlex closures, computed once on the host.
//
// Takes: a DMPlex with one PetscFE (Lagrange) field and its coordinate DM.
// Returns: for each cell, the local-vector index of every closure DOF, in the order of
// the PetscFE basis (node-major, component-minor: entry j*C + c), exactly as
// DMPlexVecGetClosure orders a cell's values (plex_closure.h: from the section offsets and
// the closure's points and orientations, checked against DMPlexVecGetClosure). Constrained DOFs are -1 in `free` (they take no
// part in the action, as in the assembled matrix) and kept in `all` (coefficients read
// them). The coordinate map holds, per node of femgpu's P1 or P2 coordinate element (in
// its basis order, wherever the coordinate section keeps the node: continuous, or cellwise
// as PETSc's Gmsh reader keeps 6-node triangles; plex_coordinates.h), the index of its
// first coordinate in the local coordinate array (the others follow it).
// Does not: touch vectors' values, or support periodic (localized) coordinates
// (plex_form_signature refuses them).
#pragma once

#include <petscdmplex.h>

#include "petsc/base/petsc_compat.h"

#include <memory>
#include <vector>

#include "fem/device_copies.h"
#include "form/form.h"
#include "petsc/plex/index_array.h"
#include "petsc/plex/plex_closure.h"

namespace femgpu {

struct PlexMaps {
  PetscInt n_cells = 0;
  PetscInt width = 0;              // closure DOFs of a cell: n_basis * C
  IndexArray free;                 // n_cells x width, constrained = -1
  IndexArray all;                  // n_cells x width
  PetscInt coordinate_width = 0;   // coordinate nodes per cell
  // n_cells x coordinate_width: each node's first coordinate. Shared (not copied) with the
  // maps of another DM on the same mesh (plex_maps_share_mesh: a p-multigrid level's).
  std::shared_ptr<const IndexArray> coordinates = std::make_shared<const IndexArray>();
  PetscInt local_size = 0;         // storage of the local section
  // On one rank: each local-vector index's index in the global Vec (constrained = -1),
  // and `free` renumbered by it, so a GPU MatMult can read x and add into y without
  // DMGlobalToLocal/DMLocalToGlobal (and MatConvert needs no ISLocalToGlobalMapping).
  IndexArray global_of_local;  // local_size entries
  IndexArray local_of_global;  // global_size entries: the inverse (dm_scatter.h)
  IndexArray global_free;
  PetscInt global_size = 0;
  bool from_patterns = false;      // both closures came from the fast path (plex_closure.h)
  // What belongs to the mesh, not the field: the cells' closure keys and what the
  // coordinate map was read from (PETSc ids, unique in the process, and the state).
  std::shared_ptr<const CellKeyHashes> cell_keys;
  PetscObjectId coordinate_section_id = 0, coordinates_id = 0;
  PetscObjectState coordinates_state = -1;
  bool coordinates_from_patterns = false;
  // Shared maps (plex_shared_maps) list their index arrays here, which never change once
  // built, so that every kernel, diagonal and transfer reading them on a device reads one
  // copy there (device_copies.h); null on maps built for one caller.
  std::shared_ptr<DeviceCopies> device_copies;
};

// The form signature the DM implies: cell type, element degree and components of its
// single field, coordinate degree. Errors name what is unsupported.
PetscErrorCode plex_form_signature(DM dm, FormSignature *signature);

// `mesh` (optional): maps of another DM on the same mesh; its cell keys and coordinate map
// are taken where the cones, the coordinate section and the coordinates are the same.
// Also sets the DM's section SF where it has none (section_sf.h; on one rank the global
// numbering is read from it). Collective.
PetscErrorCode plex_build_maps(DM dm, PlexMaps *maps, const PlexMaps *mesh = nullptr);

// The DM's maps, built once and shared by every fem_gpu Mat on it (the whole-problem
// path's residual and Jacobian, a MatDuplicate): kept on the DM (PetscObjectCompose) with
// the section and coordinates they were built from, built again when either changed.
// The DM holds them until it is destroyed or they are rebuilt.
PetscErrorCode plex_shared_maps(DM dm, std::shared_ptr<const PlexMaps> *maps);

// `to` is a DM on the mesh of `from` (DMClone: the same cones and coordinates, another
// field, as a p-multigrid level): its maps, when built, take the mesh's parts from the
// maps `from` has now (plex_build_maps' `mesh`). Nothing is done where `from` has none.
PetscErrorCode plex_maps_share_mesh(DM from, DM to);

}  // namespace femgpu
