// Unchanged DMPlex + TS programs with -dm_mat_type fem_gpu: the IJacobian
// shift * dF/du_t + dF/du is the fem_gpu operator of the form file, whose constant
// `shift` is bound to TS's shift and `t` to the stage time at every evaluation.
//
// Why this mechanism: implicit TS methods ask the DM for the IJacobian through its local
// callback (DMTSSetIJacobianLocal, usually PETSc's DMPlexTSComputeIJacobianFEM, which
// assembles element matrices). TS's SNES runs femgpu's SNES options checker
// (snes_jacobian.cpp), which calls MatFEMGPUWrapDMIJacobian: when the DM makes fem_gpu
// matrices, PETSc's callback is wrapped. TS zeroes the Jacobian (MatZeroEntries) and then
// calls the wrapper with the stage's state (boundary values inserted), its time
// derivative, the time and the shift: the wrapper binds them, and the assembled
// preconditioning matrix P != J (if any) is still the program's own.
// The residual F(t, u, u_t) from a form file is ts_residual.cpp's; then the form of the
// IJacobian Mats is derivative(F, w) + shift * derivative(F, w_t) of that file, and U_t is
// bound to its w_t here too. A program's own IJacobian callback is left as it is.
#include <petscdmplex.h>
#include <petscts.h>

#include "femgpu.h"
#include "petsc/base/composed_object.h"
#include "petsc/mat/mat_context.h"
#include "petsc/mat/mat_femgpu.h"
#include "petsc/mat/mat_femgpu_setup.h"
#include "petsc/solvers/jacobian_compare.h"
#include "petsc/solvers/ts_ijacobian.h"
#include "petsc/solvers/ts_residual.h"

namespace femgpu {

namespace {

using LocalIJacobian = PetscErrorCode (*)(DM, PetscReal, Vec, Vec, PetscReal, Mat, Mat, void *);

struct WrappedIJacobian {
  LocalIJacobian program;  // the program's own local IJacobian and its context
  void *program_ctx;
};

constexpr const char *kWrappedKey = "femgpu_wrapped_ijacobian";

PetscErrorCode is_fem_gpu(Mat M, PetscBool *yes)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)M, MATFEMGPU, yes));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The names TS gives values to: a form that names `shift` but has no term in it gets a
// PetscInfo line (its Jacobian has no time-derivative part: a steady problem run by TS).
PetscErrorCode bind_time_constants(Mat J, PetscReal time, PetscReal shift)
{
  MatFEMGPUContext *ctx;
  PetscFunctionBegin;
  PetscCall(MatFEMGPUSetUp(J));
  PetscCall(MatFEMGPUGetContext(J, &ctx));
  bool has_shift = false;
  for (const ConstantInfo &c : ctx->op.ir->constants) {
    if (c.name == kTimeShiftConstant) has_shift = true;
    if (c.name == kTimeShiftConstant) PetscCall(MatFEMGPUSetConstant(J, c.name.c_str(), shift));
    if (c.name == kTimeConstant) PetscCall(MatFEMGPUSetConstant(J, c.name.c_str(), time));
  }
  if (!has_shift && !ctx->time_shift_noted) {
    ctx->time_shift_noted = true;
    PetscCall(PetscInfo(J, "fem_gpu: form %s names no constant '%s': the IJacobian has no time-derivative term (shift * dF/du_t)\n",
                        ctx->op.form_source.c_str(), kTimeShiftConstant));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// -mat_fem_gpu_check_jacobian TOL under TS: the IJacobian PETSc assembles from the program's
// PetscDS at this stage (same time, state and shift) against the fem_gpu operator.
PetscErrorCode check_against_program(DM dm, PetscReal time, Vec x, Vec x_t, PetscReal shift, Mat J, const WrappedIJacobian *wrapped)
{
  MatFEMGPUContext *ctx;
  Mat assembled;
  PetscReal worst;
  PetscFunctionBegin;
  PetscCall(MatFEMGPUGetContext(J, &ctx));
  if (ctx->options.check_jacobian_tol <= 0 || ctx->jacobian_checked) PetscFunctionReturn(PETSC_SUCCESS);
  ctx->jacobian_checked = true;
  PetscCall(MatFEMGPUCreateAIJOfDM(dm, &assembled));
  PetscCall(wrapped->program(dm, time, x, x_t, shift, assembled, assembled, wrapped->program_ctx));
  PetscCall(MatFEMGPUCompareWithAssembled(J, assembled, &worst));
  PetscCall(MatDestroy(&assembled));
  PetscCheck(worst <= ctx->options.check_jacobian_tol, PetscObjectComm((PetscObject)J), PETSC_ERR_USER_INPUT,
             "fem_gpu: -mat_fem_gpu_check_jacobian: the operator of %s differs from the IJacobian the program assembles from its PetscDS "
             "at t = %g, shift = %g by %g (|J_fem_gpu x - J_assembled x| / |J_assembled x|, worst of 3 random x; tolerance %g): the form "
             "file does not match the program's physics (its time-derivative part is shift * dF/du_t: name the constant '%s')",
             ctx->op.form_source.c_str(), (double)time, (double)shift, (double)worst, (double)ctx->options.check_jacobian_tol, kTimeShiftConstant);
  PetscCall(PetscInfo(J, "fem_gpu: -mat_fem_gpu_check_jacobian: %s matches the program's IJacobian to %g at shift %g\n", ctx->op.form_source.c_str(),
                      (double)worst, (double)shift));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode bind_stage(Mat M, PetscReal time, Vec x, Vec x_t, PetscReal shift)
{
  PetscFunctionBegin;
  PetscCall(MatFEMGPUSetLinearizationPoint(M, x));  // a new state, and no longer zeroed
  if (x_t) PetscCall(MatFEMGPUSetTimeDerivative(M, x_t));  // for a form whose dF/dw holds w_t
  PetscCall(bind_time_constants(M, time, shift));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ijacobian_local(DM dm, PetscReal time, Vec x, Vec x_t, PetscReal shift, Mat J, Mat P, void *ctx)
{
  const auto *wrapped = static_cast<const WrappedIJacobian *>(ctx);
  PetscBool j_ours, p_ours;
  PetscFunctionBegin;
  PetscCall(is_fem_gpu(J, &j_ours));
  PetscCall(is_fem_gpu(P, &p_ours));
  if (j_ours) {
    PetscCall(bind_stage(J, time, x, x_t, shift));
    PetscCall(check_against_program(dm, time, x, x_t, shift, J, wrapped));
  }
  if (p_ours && P != J) PetscCall(bind_stage(P, time, x, x_t, shift));
  if (!p_ours) PetscCall(wrapped->program(dm, time, x, x_t, shift, P, P, wrapped->program_ctx));  // the assembled P, as the program computes it
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode MatFEMGPUCheckNoTimeShift(Mat J, const char *what)
{
  MatFEMGPUContext *ctx;
  PetscFunctionBegin;
  PetscCall(MatFEMGPUSetUp(J));
  PetscCall(MatFEMGPUGetContext(J, &ctx));
  for (const ConstantInfo &c : ctx->op.ir->constants)
    PetscCheck(c.name != kTimeShiftConstant, PetscObjectComm((PetscObject)J), PETSC_ERR_ARG_WRONGSTATE,
               "fem_gpu: form %s names the constant '%s', which is TS's shift (the IJacobian's shift * dF/du_t), but this %s is a SNES "
               "program's: no TS gives it a value. Remove the time-derivative term, or solve the problem with TS",
               ctx->op.form_source.c_str(), kTimeShiftConstant, what);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatFEMGPUWrapDMIJacobian(DM dm)
{
  LocalIJacobian program = nullptr;
  void *program_ctx = nullptr;
  PetscFunctionBegin;
  PetscCall(DMTSGetIJacobianLocal(dm, &program, &program_ctx));
  // Only PETSc's own FEM IJacobian, which assembles: a program's own callback may know
  // fem_gpu and is left as it is.
  if (program != DMPlexTSComputeIJacobianFEM) PetscFunctionReturn(PETSC_SUCCESS);
  auto *wrapped = new WrappedIJacobian{program, program_ctx};
  PetscCall(compose_owned((PetscObject)dm, kWrappedKey, wrapped));
  PetscCall(DMTSSetIJacobianLocal(dm, ijacobian_local, wrapped));
  PetscCall(PetscInfo(dm, "fem_gpu: the DM's local IJacobian is the fem_gpu operator of its form, with '%s' bound to TS's shift and '%s' to the time\n",
                      kTimeShiftConstant, kTimeConstant));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
