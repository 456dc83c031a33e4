// The public C API of the fem_gpu Mat (include/femgpu.h); its options are read in
// mat_femgpu_options.cpp.
#include <cmath>
#include <string>

#include "femgpu.h"
#include "form/form_file.h"
#include "form/quoted_text.h"
#include "petsc/base/petsc_errors.h"
#include "petsc/mat/coefficient_binding.h"
#include "petsc/mat/mat_context.h"
#include "petsc/mat/mat_femgpu.h"
#include "petsc/mat/mat_femgpu_fields_ops.h"
#include "petsc/mat/mat_femgpu_setup.h"

using femgpu::MatFEMGPUContext;

PetscErrorCode MatFEMGPUSetForm(Mat A, const char form_text[], const char source_name[])
{
  MatFEMGPUContext *ctx;
  PetscFunctionBegin;
  PetscAssertPointer(form_text, 2);
  PetscCall(femgpu::MatFEMGPUGetContext(A, &ctx));
  ctx->op.form_text = form_text;
  ctx->op.form_source = source_name && source_name[0] ? source_name : "<form>";
  ctx->set_up = false;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatFEMGPUSetFormFile(Mat A, const char path[])
{
  std::string text;
  PetscFunctionBegin;
  PetscAssertPointer(path, 2);
  // read_form_file rejects NUL bytes, so c_str() below hands on the whole text.
  FEMGPU_CXX(PetscObjectComm((PetscObject)A), text = femgpu::read_form_file(path));
  PetscCall(MatFEMGPUSetForm(A, text.c_str(), femgpu::excerpt(path).c_str()));  // the source name in messages: a long path by its ends
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatFEMGPUSetCoefficient(Mat A, const char name[], Vec w)
{
  MatFEMGPUContext *ctx;
  PetscFunctionBegin;
  PetscAssertPointer(name, 2);
  PetscValidHeaderSpecific(w, VEC_CLASSID, 3);
  PetscCall(femgpu::MatFEMGPUGetContext(A, &ctx));
  femgpu::CoefficientBinding &b = ctx->op.coefficients[name];
  ctx->zeroed = false;  // binding a value after MatZeroEntries gives the form's operator again
  PetscCall(PetscObjectReference((PetscObject)w));
  // The ghosted copy follows the new Vec's DM (a coefficient in its own element may change DM).
  PetscCall(VecDestroy(&b.local));
  PetscCall(VecDestroy(&b.vec));
  b.vec = w;
  b.state = -1;  // read it again at the next apply
  b.auxiliary = false;
  if (ctx->fields) PetscCall(femgpu::MatFEMGPUFieldsSetCoefficient(ctx, name, w));  // its blocks bind their own
  if (ctx->set_up) {
    const std::vector<int> before = b.map;
    PetscCall(femgpu::MatFEMGPUBindCoefficients(A, ctx));  // checks it, and finds its map if in its own element
    // Backends upload maps once: a Vec of another layout sets the Mat up again.
    if (b.map != before) ctx->set_up = false;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatFEMGPUSetConstant(Mat A, const char name[], PetscReal value)
{
  MatFEMGPUContext *ctx;
  PetscFunctionBegin;
  PetscAssertPointer(name, 2);
  PetscCheck(std::isfinite(static_cast<double>(value)), PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_OUTOFRANGE,
             "MatFEMGPUSetConstant(): constant '%s' is %g; it must be a finite number", name, (double)value);
  PetscCall(femgpu::MatFEMGPUGetContext(A, &ctx));
  ctx->op.constants_set[name] = value;
  ctx->zeroed = false;  // binding a value after MatZeroEntries gives the form's operator again
  if (ctx->fields) PetscCall(femgpu::MatFEMGPUFieldsSetConstant(ctx, name, value));  // its blocks hold copies
  if (ctx->set_up) {
    bool found = false;
    for (size_t i = 0; i < ctx->op.ir->constants.size(); ++i)
      if (ctx->op.ir->constants[i].name == name) {
        ctx->op.constants[i] = value;
        found = true;
      }
    PetscCheck(found, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG, "MatFEMGPUSetConstant(): the form has no constant '%s'", name);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatFEMGPUGetInfo(Mat A, PetscInt *n_quadrature_points, PetscInt *n_evaluations, PetscInt *n_eval, PetscLogDouble *flops_per_cell)
{
  MatFEMGPUContext *ctx;
  PetscFunctionBegin;
  PetscCall(femgpu::MatFEMGPUSetUp(A));
  PetscCall(femgpu::MatFEMGPUGetContext(A, &ctx));
  PetscInt evaluations = 0;
  for (const femgpu::EvalGroup &g : ctx->op.ir->groups) evaluations += static_cast<PetscInt>(g.terms.size());
  if (n_quadrature_points) *n_quadrature_points = ctx->op.tab->n_points();
  if (n_evaluations) *n_evaluations = evaluations;
  if (n_eval) *n_eval = ctx->op.ir->n_eval();
  if (flops_per_cell) *flops_per_cell = ctx->op.flops_per_cell;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatFEMGPUGetBackend(Mat A, const char **name)
{
  MatFEMGPUContext *ctx;
  PetscFunctionBegin;
  PetscAssertPointer(name, 2);
  PetscCall(femgpu::MatFEMGPUSetUp(A));
  PetscCall(femgpu::MatFEMGPUGetContext(A, &ctx));
  ctx->device.backend_label = ctx->device.backend->name();
  *name = ctx->device.backend_label.c_str();
  PetscFunctionReturn(PETSC_SUCCESS);
}
