// The p-multigrid's coarse level (pc_femgpu_pmg.cpp): the P1 level's fem_gpu Mat assembled
// and its solver set up, on the device where the level's Vecs live there, else on the host.
//
// Takes: the coarse KSP (PCMG's, with its defaults: pc_femgpu_pmg.cpp), the P1 level's Mat
// and DM, and whether that Mat is also the PC's operator (a P1 operator: no level above).
// Does: MatConvert to aijcusparse (CUDA Vecs) or aij, in place after the first time; the
// rigid-body modes as GAMG's near-null space for a vector field of the mesh's dimension
// (pmg_rigid_body.h; set once: the mesh does not move and MAT_REUSE_MATRIX keeps it); the
// KSP's operators; and, where the matrix is on the device or its values come from a
// device kernel, the KSP's setup (its options read first, as PCMG would) under an error
// handler that catches what fails there.
// A device failure (PETSc's CUDA or cuSPARSE errors, device memory, femgpu's kernels:
// PETSC_ERR_GPU, PETSC_ERR_GPU_RESOURCE, PETSC_ERR_MEM, PETSC_ERR_LIB) on any rank makes
// every rank build the level again on the host: the cell matrices from the CPU reference,
// an aij matrix, the solver reset and set up there, with a PetscInfo line naming the
// error. The operator is the same, so the iterations are too; later setups stay on the
// host. Any other error is raised again with its message. -log_view's counts of the
// events the failure interrupted are not balanced.
// Does not: catch a failure on one rank inside a collective call the others wait in (a
// hang PETSc's own error handling has too), or fall back for the levels above P1.
#pragma once

#include <petscksp.h>

namespace femgpu {

struct PMGCoarse {
  Mat A = nullptr;       // the assembled P1 operator (owned)
  bool on_host = false;  // after a device failure: every later assembly stays on the host
};

PetscErrorCode PMGSetUpCoarse(PC pc, KSP ksp, Mat level, DM level_dm, bool level_is_operator, PMGCoarse *coarse);

extern PetscLogEvent FEMGPU_PMGCoarse, FEMGPU_PMGRigidBody;

}  // namespace femgpu
