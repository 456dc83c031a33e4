// DMGlobalToLocal (INSERT_VALUES) and DMLocalToGlobal (ADD_VALUES) for a DM femgpu has
// mapped: on one rank through the maps' numbering (plex_maps.h: the local index of every
// global DOF), as a loop on host Vecs or an index kernel on CUDA Vecs
// (runtime/index_copy.h), so that neither the section SF's setup nor its scatters run;
// on several ranks, where the maps hold no inverse, and where one Vec is a CUDA one and
// the other not, PETSc's own calls.
//
// Takes: the DM, its maps (the DM's shared maps, plex_shared_maps: current, of every cell;
// null: PETSc's calls), a global and a local Vec of the DM.
// Does: exactly what PETSc's calls do on one rank: the local Vec's constrained entries are
// left as they were (global -> local), and the global Vec gets the unconstrained local
// entries added (local -> global). The device copy is made at the first copy of CUDA Vecs
// and kept on the DM with the maps it indexes (made again when they are rebuilt).
// Does not: build the maps, or insert boundary values.
#pragma once

#include <petscdm.h>

#include <memory>

#include "petsc/plex/plex_maps.h"

namespace femgpu {

// How the copies between these Vecs run: PETSc's calls, a host loop or a device kernel.
enum class PlexCopy { petsc, host, device };
PetscErrorCode plex_copy_way(const std::shared_ptr<const PlexMaps> &maps, Vec global, Vec local, PlexCopy *way);

PetscErrorCode plex_global_to_local(DM dm, const std::shared_ptr<const PlexMaps> &maps, Vec global, Vec local);
PetscErrorCode plex_local_to_global_add(DM dm, const std::shared_ptr<const PlexMaps> &maps, Vec local, Vec global);

}  // namespace femgpu
