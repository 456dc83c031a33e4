// The p-multigrid's coarse level, with its fallback to the host (pmg_coarse.h).
#include "petsc/pmg/pmg_coarse.h"

#include <petsc/private/pcimpl.h>
#include <petscdmplex.h>

#include <string>

#include "petsc/mat/mat_context.h"
#include "petsc/mat/mat_femgpu.h"
#include "petsc/pmg/pmg_coarse_rule.h"
#include "petsc/pmg/pmg_device_failure.h"
#include "petsc/pmg/pmg_rigid_body.h"

namespace femgpu {

PetscLogEvent FEMGPU_PMGCoarse, FEMGPU_PMGRigidBody;

namespace {

// The assembled matrix, its near-null space (the first time) and the KSP's operators.
PetscErrorCode assemble(KSP ksp, Mat level, DM dm, bool level_is_operator, MatType type, PMGCoarse *coarse)
{
  MatFEMGPUContext *ctx;
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(FEMGPU_PMGCoarse, level, 0, 0, 0));
  PetscCall(MatFEMGPUGetContext(level, &ctx));
  const bool first = !coarse->A;
  PetscCall(MatConvert(level, type, first ? MAT_INITIAL_MATRIX : MAT_REUSE_MATRIX, &coarse->A));
  const Element &element = ctx->op.signature.element;
  if (first && element.components > 1 && element.components == ctx->op.ir->dim) {
    MatNullSpace rigid;
    PetscCall(PetscLogEventBegin(FEMGPU_PMGRigidBody, level, 0, 0, 0));
    if (element.degree == 1 && ctx->op.signature.coordinate_degree == 1) PetscCall(PMGRigidBodyModes(dm, ctx, &rigid));
    else PetscCall(DMPlexCreateRigidBody(dm, 0, &rigid));  // a ladder ending above P1, or curved cells
    PetscCall(PetscLogEventEnd(FEMGPU_PMGRigidBody, level, 0, 0, 0));
    PetscCall(MatSetNearNullSpace(coarse->A, rigid));
    PetscCall(MatNullSpaceDestroy(&rigid));
  }
  PetscCall(KSPSetOperators(ksp, level_is_operator ? level : coarse->A, coarse->A));
  PetscCall(PetscLogEventEnd(FEMGPU_PMGCoarse, level, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode PMGChooseCoarse(PC pc, Mat level, DM level_dm, PetscInt components, PMGCoarse *coarse)
{
  PetscInt rows, dim;
  PetscFunctionBegin;
  if (coarse->choice != PMGCoarse::Choice::Auto) {
    coarse->assembled = coarse->choice == PMGCoarse::Choice::Gamg;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatGetSize(level, &rows, nullptr));
  PetscCall(DMGetDimension(level_dm, &dim));
  const double nodes = static_cast<double>(rows) / static_cast<double>(components > 0 ? components : 1);
  coarse->assembled = !pmg_auto_chebyshev(nodes, static_cast<int>(dim));
  PetscCall(PetscInfo(pc, "fem_gpu_pmg: -pc_fem_gpu_pmg_coarse auto: %s for a P1 level of %.0f nodes in %" PetscInt_FMT "D\n",
                      coarse->assembled ? "gamg" : "chebyshev", nodes, dim));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PMGSetCoarseDefaults(KSP ksp, const PMGCoarse &coarse, PetscInt components)
{
  PC sub;
  PetscFunctionBegin;
  PetscCall(KSPGetPC(ksp, &sub));
  if (!coarse.assembled) {
    // A fixed polynomial (a linear operator, as CG's preconditioner must be) in the Jacobi-
    // scaled P1 operator: its interval reaches down to 1/50 of the largest eigenvalue (not
    // the smoothers' 1/10: a solve, not a smoother; docs/pmg.md has the choice's numbers).
    PetscCall(KSPSetType(ksp, KSPCHEBYSHEV));
    PetscCall(KSPChebyshevEstEigSet(ksp, 0.0, 0.02, 0.0, 1.1));
    PetscCall(KSPSetTolerances(ksp, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT, 30));
    PetscCall(KSPSetNormType(ksp, KSP_NORM_NONE));
    PetscCall(PCSetType(sub, PCJACOBI));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  // Two GAMG cycles on the P1 level (with one, CG counts grew with the mesh: docs/pmg.md).
  PetscCall(KSPSetType(ksp, KSPRICHARDSON));
  PetscCall(KSPSetTolerances(ksp, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT, 2));
  PetscCall(KSPSetNormType(ksp, KSP_NORM_NONE));
  PetscCall(PCSetType(sub, PCGAMG));
  // Aggressive coarsening (MIS-2, not the squared graph) for a vector field only (the
  // reasons and numbers in docs/pmg.md); PETSc 3.18's GAMG reads its own default.
  PetscCall(PCGAMGSetAggressiveLevels(sub, components > 1 ? 1 : 0));
#if !PETSC_VERSION_LT(3, 20, 0)
  PetscCall(PCGAMGSetAggressiveSquareGraph(sub, PETSC_FALSE));
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PMGSetUpCoarse(PC pc, KSP ksp, Mat level, DM level_dm, bool level_is_operator, PMGCoarse *coarse)
{
  MatFEMGPUContext *ctx;
  VecType vtype;
  PetscFunctionBegin;
  if (!coarse->assembled) {  // nothing to assemble or fall back from: PCMG sets the solver up with the levels
    PetscCall(KSPSetOperators(ksp, level, level));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatFEMGPUGetContext(level, &ctx));
  PetscCall(DMGetVecType(level_dm, &vtype));
  const bool cuda_vecs = std::string(vtype).find("cuda") != std::string::npos;
  MatType type = cuda_vecs && !coarse->on_host ? MATAIJCUSPARSE : MATAIJ;
  const bool on_device = !coarse->on_host && (cuda_vecs || ctx->device.backend->name() != "cpu");
  if (!on_device) {  // nothing to fall back from: PCMG sets the solver up, errors as they come
    PetscCall(assemble(ksp, level, level_dm, level_is_operator, type, coarse));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  bool failed;
  PetscCall(PMGTryOnDevice(
    pc, "the coarse level",
    [&]() -> PetscErrorCode {
      PetscCall(assemble(ksp, level, level_dm, level_is_operator, type, coarse));
      if (!pc->setupcalled) PetscCall(KSPSetFromOptions(ksp));  // as PCMG's first setup would, after this
      PetscCall(KSPSetUp(ksp));
      return PETSC_SUCCESS;
    },
    &failed));
  if (!failed) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscInfo(pc, "fem_gpu_pmg: the coarse level on the host: an aij matrix of the same operator (cell matrices from the CPU reference), its solver set up there\n"));
  PetscCall(KSPReset(ksp));  // the solver's half-built state; its type and options stay
  PetscCall(MatDestroy(&coarse->A));
  coarse->on_host = ctx->host_assembly = true;
  PetscCall(assemble(ksp, level, level_dm, level_is_operator, MATAIJ, coarse));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
