// The DMPlex room's log events, so that -log_view shows the one-time work on the mesh
// and the boundary values inserted at every residual apart from the kernels:
//   FEMGPUPlexMaps  the DM's closure maps built (plex_shared_maps: once per section and
//                   coordinates, shared by the residual and the Jacobian)
//   FEMGPUSectionSF the DM's section SF set from the sections' arrays (section_sf.h: with
//                   the maps, where the DM has none yet)
//   FEMGPUBdPlan    the plan of essential values built (boundary_values_hook.h: once per maps)
//   FEMGPUBdValues  the plan's values evaluated and written into a local vector (each
//                   DMPlexInsertBoundaryValues femgpu answers)
//   FEMGPUDMCopy    a one-rank global <-> local copy through the maps (dm_scatter.h), on
//                   the host or the device, where PETSc's DMGlobalToLocal would run
#pragma once

#include <petscsys.h>

namespace femgpu {

extern PetscLogEvent FEMGPU_PlexMaps, FEMGPU_SectionSF, FEMGPU_BoundaryPlan, FEMGPU_BoundaryValues, FEMGPU_DMCopy;

// Registers the events above (DM_CLASSID); called once with the Mat's events.
PetscErrorCode PlexRegisterLogEvents();

}  // namespace femgpu
