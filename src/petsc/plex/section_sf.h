// The DM's section SF (what DMGlobalToLocal and DMLocalToGlobal move values through),
// built from the sections' arrays.
//
// Why: PETSc builds it at the first DMGlobalToLocal (DMGetSectionSF ->
// PetscSFSetGraphSection) with nine section calls per point of the mesh: about 4M points
// at a million P2 unknowns in 3D, the largest part of the first residual evaluation
// outside femgpu's kernels and maps. The same walk over the arrays PETSc keeps (as the
// closure maps read them: section_arrays.h) gives the same graph.
//
// Takes: a DMPlex whose local and global sections are set up.
// Does: where the DM has no section SF graph yet, sets one equal to PETSc's own: the same
// leaves in the same order (every local DOF that is not constrained, point by point), the
// same roots (owned DOFs in this rank's part of the global Vec, ghosts' on their owners),
// the same checks. Collective (the global Vec's layout).
// Does not: replace a section SF the DM has, or build one for a DM without a local section.
#pragma once

#include <petscdm.h>

namespace femgpu {

PetscErrorCode plex_set_section_sf(DM dm);

// The graph PETSc's PetscSFSetGraphSection gives `sf` for these sections, built as above
// (the test compares the two).
PetscErrorCode plex_section_sf_graph(PetscSF sf, PetscSection local, PetscSection global);

}  // namespace femgpu
