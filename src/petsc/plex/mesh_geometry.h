// Mesh geometry edits for tools and tests: P2 (curved-capable) coordinates, and a
// reproducible random perturbation of the interior coordinate nodes of a box mesh.
//
// Takes: a DMPlex (serial or distributed). Returns: the same DM with new coordinates.
// The perturbation of a node is a hash of its position, so every rank moves a shared
// node alike and a run on n ranks builds the mesh of a run on one. Nodes on the
// bounding box stay put, so the domain is unchanged.
// Does not: check that cells stay positively oriented (keep the amplitude well below
// the cell size; DMPlexCheckGeometry does check).
#pragma once

#include <petscdm.h>

namespace femgpu {

// Coordinates in P_degree Lagrange (degree 1 leaves the DM alone; 2 projects).
PetscErrorCode set_coordinate_degree(DM dm, PetscInt degree);

// Moves every coordinate node strictly inside the bounding box by up to `amplitude`
// in each direction.
PetscErrorCode perturb_interior_coordinates(DM dm, PetscReal amplitude);

}  // namespace femgpu
