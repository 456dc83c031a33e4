// The local section of a p-multigrid level, derived from the fine DM's section.
//
// Takes: the fine DM (one Lagrange field, its local section set up) and a level DM made by
// DMClone of it whose single field is a Lagrange PetscFE of a lower degree, with the fine
// DS's essential boundaries (pmg_levels.cpp).
// Does: sets on the level DM the section DMPlexCreateSection would build (DOF counts and
// offsets per point, constrained DOFs, field name; its chart only the points of the depths
// where the level has DOFs, PETSc's the whole mesh), read from the fine section's arrays:
// each point's DOF count is the level element's for the point's depth, and a point
// constrains the components the fine section constrains there (the same DS boundaries on
// the same label points; a Lagrange element of lower degree has DOFs only on points where
// the fine one has them). PETSc's own build walks every point of the mesh with several
// calls each and completes the labels again: at 843k tetrahedra it was most of a level's
// setup. With the local section it sets the global section PETSc would make from it and
// the point SF (PetscSectionCreateGlobalSection's layout, ghosts included), with no
// section call for a point without DOFs where PETSc's build makes about a dozen.
// Does not: derive where the layout could differ from PETSc's: several fields, anchors,
// a section permutation (-dm_reorder_section), a field label, tensor or ghost cells, an
// uninterpolated mesh, a vector cell height, or a level element with more than one node on
// an edge, face or cell (degree > 2: the DOFs of such a point are permuted by its
// orientation, PETSc's section symmetries). There *derived is false, a PetscInfo line says
// why, and the level DM builds its section itself, as before.
#pragma once

#include <petscdm.h>

namespace femgpu {

PetscErrorCode plex_set_level_section(DM fine, DM level, bool *derived);

}  // namespace femgpu
