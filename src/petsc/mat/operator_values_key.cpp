// A fem_gpu operator's values key (operator_values_key.h).
#include "petsc/mat/operator_values_key.h"

#include <cmath>
#include <cstdint>

#include "ir/action_ir.h"
#include "petsc/mat/mat_context.h"
#include "petsc/mat/mat_femgpu.h"

namespace femgpu {

PetscErrorCode MatFEMGPUOperatorValuesKey(Mat A, std::vector<double> *key)
{
  MatFEMGPUContext *ctx;
  PetscFunctionBegin;
  PetscCall(MatFEMGPUGetContext(A, &ctx));
  key->clear();
  if (!ctx->set_up || ctx->fields || !ctx->op.facets.empty() || ctx->op.on_facets || !ctx->op.ir) {
    key->push_back(NAN);
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  const ActionIR &ir = *ctx->op.ir;
  key->push_back(ctx->setups);
  key->push_back(ctx->zeroed ? 1 : 0);
  const std::vector<bool> read = constants_read(ir);
  for (size_t i = 0; i < ir.constants.size() && i < ctx->op.constants.size(); ++i)
    if (read[i]) key->push_back(ctx->op.constants[i]);
  for (size_t i = 0; i < ir.coefficients.size(); ++i) {
    if (ir.group_of_function(coefficient_function(static_cast<int>(i))) < 0) continue;  // not read
    auto it = ctx->op.coefficients.find(ir.coefficients[i].name);
    if (it == ctx->op.coefficients.end() || !it->second.vec) {
      key->push_back(NAN);
      continue;
    }
    PetscObjectState state;
    PetscCall(PetscObjectStateGet((PetscObject)it->second.vec, &state));
    key->push_back(static_cast<double>(reinterpret_cast<std::uintptr_t>(it->second.vec)));
    key->push_back(static_cast<double>(state));
  }
  for (const ShellEdit &edit : ctx->shell_edits.list) {
    if (edit.kind != ShellEdit::Kind::affine) {
      key->push_back(NAN);
      continue;
    }
    key->push_back(PetscRealPart(edit.scale));
    key->push_back(PetscRealPart(edit.shift));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
