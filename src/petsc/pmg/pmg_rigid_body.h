// The near-null space of the p-multigrid's coarse level for a vector field (pc_femgpu_pmg.cpp).
//
// The rigid-body modes of a P1 vector field on affine cells, from the closure maps: node
// j of a cell is its vertex j in both the field's and the coordinates' maps, so each
// mode's value at a DOF is a polynomial of that vertex's coordinates. Orthonormalised,
// as GAMG wants them, in host Vecs of the DM's global layout (GAMG reads them on the host). (DMPlexCreateRigidBody projects the modes cell by cell on the
// host: 14 s for 384k tetrahedra on the GPU machine.)
#pragma once

#include <petscdm.h>
#include <petscmat.h>

namespace femgpu {

struct MatFEMGPUContext;  // petsc/mat/mat_context.h

// `ctx`: the P1 level's fem_gpu Mat on `dm` (its closure maps are read).
PetscErrorCode PMGRigidBodyModes(DM dm, const MatFEMGPUContext *ctx, MatNullSpace *modes);

}  // namespace femgpu
