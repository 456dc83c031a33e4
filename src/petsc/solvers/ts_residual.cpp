// The residual F(t, U, U_t) of an unchanged DMPlex + TS program from one form file:
// -dm_fem_gpu_form_file F.ufl makes the DM's local IFunction the kernel of the file's
// F(w; v) with w bound to U, w_t to U_t and the constant t to the stage time; the IJacobian
// Mats (-dm_mat_type fem_gpu) take derivative(F, w) + shift * derivative(F, w_t) from the
// same file (form/time_dependent.h, bound per stage by ts_ijacobian.cpp).
//
// Takes: a DM whose local IFunction is PETSc's DMPlexTSComputeIFunctionFEM (set by
// DMTSSetIFunctionLocal, as PETSc's ts/tutorials/ex45 does). Does: replaces it by femgpu's,
// which adds F cell by cell into the local residual through a fem_gpu Mat in residual mode
// (snes_residual.cpp's, with the same -mat_fem_gpu_* options). TS hands it U and U_t as
// local vectors whose essential boundary values at time t the program's boundary hook
// (DMTSSetBoundaryLocal, e.g. DMPlexTSComputeBoundary from the DM's DMAddBoundary) has
// inserted, and sums the local residual into the global one, as for PETSc's own.
// A form without w_t is a steady residual F(t, w) (a PetscInfo line says so); a form whose
// F names TS's `shift`, which an IFunction has no value for, is an error.
// Does not: replace the boundary hook (PETSc inserts the values), nor a program's own IFunction.
#include "petsc/solvers/ts_residual.h"

#include <petscdmplex.h>
#include <petscts.h>

#include "femgpu.h"
#include "form/time_dependent.h"
#include "petsc/base/composed_object.h"
#include "petsc/base/vec_checks.h"
#include "petsc/mat/mat_context.h"
#include "petsc/mat/mat_femgpu.h"
#include "petsc/mat/mat_femgpu_setup.h"
#include "petsc/solvers/snes_residual.h"

namespace femgpu {

namespace {

using LocalIFunction = PetscErrorCode (*)(DM, PetscReal, Vec, Vec, Vec, void *);

struct TimeResidual {
  Mat residual = nullptr;  // the DM holds it (snes_residual.cpp's MatFEMGPUCreateDMResidual)
  bool checked = false;    // the form's names were checked at the first evaluation
};

constexpr const char *kTimeResidualKey = "femgpu_time_residual";
constexpr const char *kWhere = "the IFunction of -dm_fem_gpu_form_file";

// At the first evaluation, once the form is lowered: F must not name TS's shift; F without
// a time derivative is said to be steady.
PetscErrorCode check_names(Mat residual)
{
  MatFEMGPUContext *ctx;
  PetscFunctionBegin;
  PetscCall(MatFEMGPUGetContext(residual, &ctx));
  PetscCheck(!uses_constant(*ctx->op.form, kTimeShiftName), PetscObjectComm((PetscObject)residual), PETSC_ERR_ARG_WRONG,
             "fem_gpu: the residual F of -dm_fem_gpu_form_file %s names the constant '%s', TS's shift a of the IJacobian dF/dw + a dF/dw_t: "
             "TS gives an IFunction F(t, w, w_t) no shift. Write the time derivative as the coefficient w_t (e.g. w_t*v*dx for the unknown w); "
             "femgpu derives the IJacobian from it",
             ctx->op.form_source.c_str(), kTimeShiftName);
  bool has_rate = false;
  for (const auto &kv : ctx->op.coefficients) has_rate = has_rate || (ctx->op.time_derivative && kv.second.vec == ctx->op.time_derivative);
  if (!has_rate)
    PetscCall(PetscInfo(residual,
                        "fem_gpu: the residual of %s has no time derivative (a coefficient w_t of its unknown w): F(t, w) is a steady "
                        "residual, its IJacobian dF/dw has no shift term\n",
                        ctx->op.form_source.c_str()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The form's time, where it names one.
PetscErrorCode bind_time(Mat residual, PetscReal time)
{
  MatFEMGPUContext *ctx;
  PetscFunctionBegin;
  PetscCall(MatFEMGPUGetContext(residual, &ctx));
  for (const ConstantInfo &c : ctx->op.ir->constants)
    if (c.name == kTimeName) PetscCall(MatFEMGPUSetConstant(residual, c.name.c_str(), time));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ifunction_local(DM dm, PetscReal time, Vec x_local, Vec x_t_local, Vec f_local, void *ctx)
{
  auto *wrapped = static_cast<TimeResidual *>(ctx);
  PetscFunctionBegin;
  PetscCall(check_local_vec(dm, kWhere, "x_local", x_local));
  PetscCall(check_local_vec(dm, kWhere, "x_t_local", x_t_local));
  PetscCall(check_local_vec(dm, kWhere, "f_local", f_local));
  PetscCall(MatFEMGPUSetLinearizationPoint(wrapped->residual, x_local));
  PetscCall(MatFEMGPUSetTimeDerivative(wrapped->residual, x_t_local));
  PetscCall(MatFEMGPUSetUp(wrapped->residual));  // binds w, w_t; lowers F
  if (!wrapped->checked) PetscCall(check_names(wrapped->residual));
  wrapped->checked = true;
  PetscCall(bind_time(wrapped->residual, time));
  PetscCall(VecSet(f_local, 0.0));
  PetscCall(MatFEMGPUApplyLocal(wrapped->residual, x_local, f_local));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode MatFEMGPUSetTimeDerivative(Mat A, Vec x_t_local)
{
  MatFEMGPUContext *ctx;
  PetscFunctionBegin;
  PetscCall(MatFEMGPUGetContext(A, &ctx));
  if (!ctx->op.time_derivative) {
    PetscCall(VecDuplicate(x_t_local, &ctx->op.time_derivative));
    PetscCall(VecSetDM(ctx->op.time_derivative, nullptr));  // the DM holds the Mat (MatFEMGPUSetLinearizationPoint)
  }
  PetscCall(VecCopy(x_t_local, ctx->op.time_derivative));  // a new state: the action re-reads it
  ctx->zeroed = false;
  PetscCall(PetscObjectStateIncrease((PetscObject)A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatFEMGPUWrapDMIFunction(DM dm, const char *file)
{
  LocalIFunction program = nullptr;
  void *program_ctx = nullptr;
  PetscFunctionBegin;
  PetscCall(DMTSGetIFunctionLocal(dm, &program, &program_ctx));
  if (program == ifunction_local) PetscFunctionReturn(PETSC_SUCCESS);  // already femgpu's
  PetscCheck(program == DMPlexTSComputeIFunctionFEM, PetscObjectComm((PetscObject)dm), PETSC_ERR_ARG_WRONGSTATE,
             "-dm_fem_gpu_form_file %s: the DM's IFunction is the program's own function, not PETSc's DMPlexTSComputeIFunctionFEM; femgpu "
             "replaces only PETSc's (set by DMTSSetIFunctionLocal(dm, DMPlexTSComputeIFunctionFEM, ctx))",
             file);
  auto *wrapped = new TimeResidual;
  PetscCall(compose_owned((PetscObject)dm, kTimeResidualKey, wrapped));
  PetscCall(MatFEMGPUCreateDMResidual(dm, file, &wrapped->residual));
  PetscCall(DMTSSetIFunctionLocal(dm, ifunction_local, wrapped));
  PetscCall(PetscInfo(dm, "fem_gpu: the DM's IFunction is F of %s, with w bound to U, w_t to U_t and '%s' to the time\n", file, kTimeName));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
