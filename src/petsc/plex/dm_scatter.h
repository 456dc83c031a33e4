// DMGlobalToLocal (INSERT_VALUES) and DMLocalToGlobal (ADD_VALUES) for a DM femgpu has
// mapped: on one rank through the maps' numbering (plex_maps.h: the local index of every
// global DOF), as a loop on host Vecs, so that neither the section SF's setup nor its
// scatters run; on several ranks, where the maps hold no inverse, and for CUDA Vecs
// (a device index copy was written but not yet run on a GPU), PETSc's own calls.
//
// Takes: the DM, its maps (the DM's shared maps, plex_shared_maps: current, of every cell;
// null: PETSc's calls), a global and a local Vec of the DM.
// Does: exactly what PETSc's calls do on one rank: the local Vec's constrained entries are
// left as they were (global -> local), and the global Vec gets the unconstrained local
// entries added (local -> global).
// Does not: build the maps, or insert boundary values.
#pragma once

#include <petscdm.h>

#include <memory>

#include "petsc/plex/plex_maps.h"

namespace femgpu {

PetscErrorCode plex_global_to_local(DM dm, const std::shared_ptr<const PlexMaps> &maps, Vec global, Vec local);
PetscErrorCode plex_local_to_global_add(DM dm, const std::shared_ptr<const PlexMaps> &maps, Vec local, Vec global);

}  // namespace femgpu
