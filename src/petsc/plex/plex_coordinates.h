// Where femgpu's coordinate nodes sit in a cell's closure of the coordinate section.
//
// Takes: a DMPlex and the width of its cells' coordinate closures (nodes x dim).
// Returns: for femgpu's coordinate entry i*dim + c (node i of the P_k Lagrange element in
// PetscFE's continuous order, fem/tabulation.h lagrange_nodes; component c), its position
// in the closure that DMPlexVecGetClosure returns on the coordinate DM. PETSc keeps
// coordinates continuous (vertices, or a continuous P2 field: the closure is already in
// that order) or cellwise in a discontinuous Lagrange field (its Gmsh reader does so for
// 6-node triangles and 10-node tetrahedra: every cell holds its own nodes, in the lattice
// order of the discontinuous element). The order is read from the coordinate field's
// PetscFE itself, tabulated at femgpu's nodes: a Lagrange basis is 1 at its own node and
// 0 at the others, so each node finds its basis function.
// Does not: read coordinates. Periodic meshes (coordinates localized to the cells that
// wrap around, in a second coordinate DM) are refused by plex_check_coordinate_layout.
#pragma once

#include <petscdmplex.h>

#include <vector>

namespace femgpu {

PetscErrorCode plex_coordinate_closure_order(DM dm, PetscInt width, std::vector<int> *order);

// Collective. An error where femgpu cannot read the coordinates through the coordinate
// DM's local vector alone: periodic (localized) coordinates.
PetscErrorCode plex_check_coordinate_layout(DM dm);

}  // namespace femgpu
