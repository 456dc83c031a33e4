#include "petsc/mat/dm_residual.h"

#include "form/time_dependent.h"

#include "petsc/mat/mat_context.h"
#include "petsc/mat/mat_femgpu.h"

namespace femgpu {

PetscErrorCode MatFEMGPUFormOfDMResidual(DM dm, std::string *text, std::string *source)
{
  Mat residual = nullptr;
  MatFEMGPUContext *ctx;
  PetscFunctionBegin;
  if (!dm) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectQuery((PetscObject)dm, kDMResidualKey, (PetscObject *)&residual));
  if (!residual) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatFEMGPUGetContext(residual, &ctx));
  *text = ctx->op.form_text;
  *source = ctx->op.form_source;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatFEMGPUCheckDMResidualConstants(Mat A, const MatFEMGPUContext *ctx)
{
  Mat residual = nullptr;
  MatFEMGPUContext *r;
  PetscFunctionBegin;
  if (ctx->op.residual || !ctx->op.dm) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectQuery((PetscObject)ctx->op.dm, kDMResidualKey, (PetscObject *)&residual));
  if (!residual) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatFEMGPUGetContext(residual, &r));
  // Before the residual's first evaluation its constants are not resolved yet (SNES
  // evaluates the residual before the first Jacobian).
  if (!r->set_up || r->op.form_text != ctx->op.form_text) PetscFunctionReturn(PETSC_SUCCESS);
  for (size_t i = 0; i < ctx->op.ir->constants.size(); ++i)
    for (size_t j = 0; j < r->op.ir->constants.size(); ++j) {
      const std::string &name = ctx->op.ir->constants[i].name;
      if (r->op.ir->constants[j].name != name) continue;
      if (name == kTimeName && r->op.time_derivative) continue;  // a TS residual: TS binds the time at every evaluation
      const PetscReal mine = ctx->op.constants[i], theirs = r->op.constants[j];
      PetscCheck(mine == theirs, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_INCOMP,
                 "fem_gpu: the Jacobian's constant '%s' is %g but the residual's is %g (both from %s, the residual by -dm_fem_gpu_form_file): "
                 "Newton's method would solve with the derivative of another problem. Give both the same value, e.g. -mat_fem_gpu_constant_%s %g "
                 "(the residual reads the options, not MatFEMGPUSetConstant() on the Jacobian)",
                 name.c_str(), (double)mine, (double)theirs, ctx->op.form_source.c_str(), name.c_str(), (double)mine);
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
