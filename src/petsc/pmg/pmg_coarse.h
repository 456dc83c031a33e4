// The p-multigrid's coarse level (pc_femgpu_pmg.cpp): the coarse KSP's defaults, and the
// P1 level's fem_gpu Mat assembled and its solver set up, on the device where the level's
// Vecs live there, else on the host; or, with -pc_fem_gpu_pmg_coarse chebyshev, the level
// left unassembled as the KSP's operator (its solver set up with the levels, so a device
// failure there falls back with them: pc_femgpu_pmg.cpp).
//
// Takes: the coarse KSP (PCMG's, with PMGSetCoarseDefaults' defaults), the P1 level's Mat
// and DM, and whether that Mat is also the PC's operator (a P1 operator: no level above).
// Does: MatConvert to aijcusparse (CUDA Vecs) or aij, in place after the first time; the
// rigid-body modes as GAMG's near-null space for a vector field of the mesh's dimension
// (pmg_rigid_body.h; set once: the mesh does not move and MAT_REUSE_MATRIX keeps it); the
// KSP's operators; and, where the matrix is on the device or its values come from a
// device kernel, the KSP's setup (its options read first, as PCMG would) as a step that
// falls back to the host (pmg_device_failure.h): after a device failure on any rank, every
// rank builds the level again on the host: the cell matrices from the CPU reference, an aij
// matrix, the solver reset and set up there, with a PetscInfo line. The operator is the
// same, so the iterations are too; later setups stay on the host.
#pragma once

#include <petscksp.h>

namespace femgpu {

struct PMGCoarse {
  enum class Choice { Auto, Gamg, Chebyshev };
  Choice choice = Choice::Auto;  // -pc_fem_gpu_pmg_coarse
  bool assembled = true;         // what the choice gave at the last build: GAMG (true), or the level left a fem_gpu Mat
  Mat A = nullptr;               // the assembled P1 operator (owned)
  bool on_host = false;          // after a device failure: every later assembly stays on the host
};

// The coarse KSP's defaults (PCMG reads its -mg_coarse_* options after them): assembled,
// two GAMG cycles (with aggressive coarsening for a vector field of `components`);
// unassembled, 30 Chebyshev/Jacobi iterations.
PetscErrorCode PMGSetCoarseDefaults(KSP ksp, const PMGCoarse &coarse, PetscInt components);

// coarse->assembled from coarse->choice; auto by the P1 level's global nodes and the mesh's
// dimension (pmg_coarse_rule.h), with a PetscInfo line. Collective.
PetscErrorCode PMGChooseCoarse(PC pc, Mat level, DM level_dm, PetscInt components, PMGCoarse *coarse);

// Unassembled: the level is the KSP's operator (its values move with its state). Assembled:
// as above.
PetscErrorCode PMGSetUpCoarse(PC pc, KSP ksp, Mat level, DM level_dm, bool level_is_operator, PMGCoarse *coarse);

extern PetscLogEvent FEMGPU_PMGCoarse, FEMGPU_PMGRigidBody;

}  // namespace femgpu
