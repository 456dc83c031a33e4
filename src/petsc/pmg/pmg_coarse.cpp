// The p-multigrid's coarse level, with its fallback to the host (pmg_coarse.h).
#include "petsc/pmg/pmg_coarse.h"

#include <petsc/private/pcimpl.h>
#include <petscdmplex.h>

#include <string>

#include "petsc/mat/mat_context.h"
#include "petsc/mat/mat_femgpu.h"
#include "petsc/pmg/pmg_rigid_body.h"

namespace femgpu {

PetscLogEvent FEMGPU_PMGCoarse, FEMGPU_PMGRigidBody;

namespace {

// The first error raised while the handler is pushed: its code and message.
struct Caught {
  PetscErrorCode code = PETSC_SUCCESS;
  std::string message;
};

PetscErrorCode catch_first(MPI_Comm, int, const char *, const char *, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
{
  auto *caught = static_cast<Caught *>(ctx);
  if (p == PETSC_ERROR_INITIAL && caught->code == PETSC_SUCCESS) {
    caught->code = n;
    caught->message = mess ? mess : "";
  }
  return n;
}

bool device_failure(PetscErrorCode e) { return e == PETSC_ERR_GPU || e == PETSC_ERR_GPU_RESOURCE || e == PETSC_ERR_MEM || e == PETSC_ERR_LIB; }

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

PetscErrorCode PMGSetUpCoarse(PC pc, KSP ksp, Mat level, DM level_dm, bool level_is_operator, PMGCoarse *coarse)
{
  MatFEMGPUContext *ctx;
  VecType vtype;
  MPI_Comm comm = PetscObjectComm((PetscObject)pc);
  PetscFunctionBegin;
  PetscCall(MatFEMGPUGetContext(level, &ctx));
  PetscCall(DMGetVecType(level_dm, &vtype));
  const bool cuda_vecs = std::string(vtype).find("cuda") != std::string::npos;
  MatType type = cuda_vecs && !coarse->on_host ? MATAIJCUSPARSE : MATAIJ;
  const bool on_device = !coarse->on_host && (cuda_vecs || ctx->device.backend->name() != "cpu");
  if (!on_device) {  // nothing to fall back from: PCMG sets the solver up, errors as they come
    PetscCall(assemble(ksp, level, level_dm, level_is_operator, type, coarse));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  Caught caught;
  PetscCall(PetscPushErrorHandler(catch_first, &caught));
  PetscErrorCode e = assemble(ksp, level, level_dm, level_is_operator, type, coarse);
  if (!e && !pc->setupcalled) e = KSPSetFromOptions(ksp);  // as PCMG's first setup would, after this
  if (!e) e = KSPSetUp(ksp);
  PetscCall(PetscPopErrorHandler());
  if (e && !caught.code) caught.code = e;
  // 0: set up; 1: a device failure; 2: another error. Every rank takes the worst.
  int local = !e ? 0 : device_failure(caught.code) ? 1 : 2, worst = 0;
  PetscCallMPI(MPI_Allreduce(&local, &worst, 1, MPI_INT, MPI_MAX, comm));
  if (local == 2) SETERRQ(PETSC_COMM_SELF, caught.code, "%s", caught.message.c_str());
  PetscCheck(worst < 2, comm, PETSC_ERR_LIB, "fem_gpu_pmg: the coarse level's setup failed on another rank");
  if (worst == 0) PetscFunctionReturn(PETSC_SUCCESS);
  if (local == 1)
    PetscCall(PetscInfo(pc, "fem_gpu_pmg: the coarse level failed on the device (PETSc error %d: %s); it is built again on the host\n",
                        static_cast<int>(caught.code), caught.message.c_str()));
  PetscCall(PetscInfo(pc, "fem_gpu_pmg: the coarse level on the host: an aij matrix of the same operator (cell matrices from the CPU reference), its solver set up there\n"));
  PetscCall(KSPReset(ksp));  // the solver's half-built state; its type and options stay
  PetscCall(MatDestroy(&coarse->A));
  coarse->on_host = ctx->host_assembly = true;
  PetscCall(assemble(ksp, level, level_dm, level_is_operator, MATAIJ, coarse));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
