// Unchanged DMPlex + SNES programs with -dm_mat_type fem_gpu: the Jacobian is the fem_gpu
// operator of the form file, bound to SNES's linearization point, with no CPU assembly.
//
// Why this mechanism: PETSc programs hand the Jacobian to SNES through the DM's local
// Jacobian callback (DMPlexSetSNESLocalFEM sets DMPlexSNESComputeJacobianFEM), which
// zeroes the matrix and assembles element matrices into it. A matrix-free type can take
// neither. SNESAddOptionsChecker runs a function in every SNESSetFromOptions, after the
// program has set its callbacks and before the first Jacobian; there, when the SNES's DM
// makes fem_gpu matrices, the DM's local Jacobian is wrapped. SNES calls the wrapper with
// the current iterate as a local vector whose essential boundary values are already
// inserted (DMPlexSNESComputeBoundaryFEM): the wrapper copies it into the fem_gpu Mat's
// linearization point and bumps the Mat's state (so Jacobi and other PCs set up again).
// An assembled preconditioning matrix P != J is still computed by the program's own
// callback. Programs whose local Jacobian is their own function (not PETSc's
// DMPlexSNESComputeJacobianFEM), or whose DM makes other types, are left as they are.
#include <petscdmplex.h>
#include <petscsnes.h>

#include <string>

#include "femgpu.h"
#include "petsc/base/composed_object.h"
#include "petsc/mat/mat_context.h"
#include "petsc/mat/mat_femgpu.h"
#include "petsc/plex/boundary_values_hook.h"
#include "petsc/solvers/dm_preallocation.h"
#include "petsc/solvers/jacobian_compare.h"
#include "petsc/solvers/snes_dm_global.h"
#include "petsc/solvers/snes_jacobian.h"
#include "petsc/solvers/snes_residual.h"
#include "petsc/solvers/ts_ijacobian.h"

namespace femgpu {

namespace {

using LocalJacobian = PetscErrorCode (*)(DM, Vec, Mat, Mat, void *);

struct WrappedJacobian {
  LocalJacobian program;  // the program's own local Jacobian and its context
  void *program_ctx;
};

constexpr const char *kWrappedKey = "femgpu_wrapped_jacobian";

PetscErrorCode is_fem_gpu(Mat M, PetscBool *yes)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)M, MATFEMGPU, yes));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// -mat_fem_gpu_check_jacobian TOL: on J's first use, the Jacobian PETSc assembles from the
// program's own callback (its PetscDS) against the fem_gpu operator, on 3 random vectors;
// an error names the relative difference when it exceeds TOL. The UFL file and the
// program's pointwise functions are the physics written twice: they must agree.
PetscErrorCode check_against_program(DM dm, Vec x_local, Mat J, const WrappedJacobian *wrapped)
{
  MatFEMGPUContext *ctx;
  Mat assembled;
  PetscReal worst;
  PetscFunctionBegin;
  PetscCall(MatFEMGPUGetContext(J, &ctx));
  if (ctx->options.check_jacobian_tol <= 0 || ctx->jacobian_checked) PetscFunctionReturn(PETSC_SUCCESS);
  ctx->jacobian_checked = true;
  PetscCall(MatFEMGPUCreateAIJOfDM(dm, &assembled));
  PetscCall(wrapped->program(dm, x_local, assembled, assembled, wrapped->program_ctx));
  PetscCall(MatFEMGPUCompareWithAssembled(J, assembled, &worst));
  PetscCall(MatDestroy(&assembled));
  PetscCheck(worst <= ctx->options.check_jacobian_tol, PetscObjectComm((PetscObject)J), PETSC_ERR_USER_INPUT,
             "fem_gpu: -mat_fem_gpu_check_jacobian: the operator of %s differs from the Jacobian the program assembles from its PetscDS by %g "
             "(|J_fem_gpu x - J_assembled x| / |J_assembled x|, worst of 3 random x; tolerance %g): the form file does not match the program's physics",
             ctx->op.form_source.c_str(), (double)worst, (double)ctx->options.check_jacobian_tol);
  PetscCall(PetscInfo(J, "fem_gpu: -mat_fem_gpu_check_jacobian: %s matches the program's Jacobian to %g\n", ctx->op.form_source.c_str(), (double)worst));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode jacobian_local(DM dm, Vec x_local, Mat J, Mat P, void *ctx)
{
  const auto *wrapped = static_cast<const WrappedJacobian *>(ctx);
  PetscBool j_ours, p_ours;
  PetscFunctionBegin;
  PetscCall(is_fem_gpu(J, &j_ours));
  PetscCall(is_fem_gpu(P, &p_ours));
  if (j_ours) {
    PetscCall(MatFEMGPUSetLinearizationPoint(J, x_local));
    PetscCall(MatFEMGPUCheckNoTimeShift(J));
    PetscCall(check_against_program(dm, x_local, J, wrapped));
  }
  if (p_ours && P != J) PetscCall(MatFEMGPUSetLinearizationPoint(P, x_local));
  if (!p_ours) PetscCall(wrapped->program(dm, x_local, P, P, wrapped->program_ctx));  // the assembled P, as the program computes it
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Wraps `dm`'s local Jacobian once; the wrapper's state lives in a container on the DM.
PetscErrorCode wrap_local_jacobian(DM dm)
{
  LocalJacobian program = nullptr;
  void *program_ctx = nullptr;
  PetscFunctionBegin;
  PetscCall(DMSNESGetJacobianLocal(dm, &program, &program_ctx));
  // Only PETSc's own FEM Jacobian, which assembles: a program's own callback may know
  // fem_gpu (bind its coefficients, bump states) and is left as it is.
  if (program != DMPlexSNESComputeJacobianFEM) PetscFunctionReturn(PETSC_SUCCESS);
  auto *wrapped = new WrappedJacobian{program, program_ctx};
  PetscCall(compose_owned((PetscObject)dm, kWrappedKey, wrapped));
  PetscCall(DMSNESSetJacobianLocal(dm, jacobian_local, wrapped));
  PetscCall(MatFEMGPUSetDMGlobalJacobian(dm));  // its global -> local copy without a star forest on one rank
  PetscCall(PetscInfo(dm, "fem_gpu: the DM's local Jacobian is the fem_gpu operator of its form, bound to SNES's iterate\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode MatFEMGPUSNESOptionsChecker(SNES snes)
{
  DM dm;
  MatType type;
  PetscBool ours;
  PetscFunctionBegin;
  PetscCall(SNESGetDM(snes, &dm));  // SNES always has one (a shell DM if the program set none)
  PetscCall(MatFEMGPUWrapDMResidual(dm));
  PetscCall(DMGetMatType(dm, &type));
  PetscCall(PetscStrcmp(type, MATFEMGPU, &ours));
  if (ours) PetscCall(MatFEMGPUSkipDMPreallocation(dm));  // before SNESSetUp's DMCreateMatrix
  if (ours) PetscCall(wrap_local_jacobian(dm));
  if (ours) PetscCall(MatFEMGPUWrapDMIJacobian(dm));  // TS's SNES: ts_ijacobian.cpp
  if (ours) PetscCall(DMFEMGPUInsertBoundaryValuesFromPlan(dm));  // essential values of SNES and TS: plex/boundary_values_hook.h
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
