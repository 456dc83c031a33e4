// Setup of a fem_gpu Mat over a DM with several fields (mat_femgpu_fields.h): the
// fields' sub-DMs, the mixed form parsed and checked against them, one Mat per nonzero
// block.
#include "petsc/mat/mat_femgpu_fields.h"

#include <petscdmplex.h>

#include <string>

#include "femgpu.h"
#include "form/mixed_blocks.h"
#include "form/parser.h"
#include "ir/lower.h"
#include "petsc/base/petsc_errors.h"
#include "petsc/plex/plex_maps.h"
#include "petsc/mat/mat_context.h"
#include "petsc/mat/mat_femgpu.h"
#include "petsc/mat/mat_femgpu_fields_ops.h"

namespace femgpu {

PetscErrorCode FieldBlocksDestroy(FieldBlocks *f)
{
  PetscFunctionBegin;
  for (Mat &m : f->blocks) PetscCall(MatDestroy(&m));
  for (DM &d : f->dms) PetscCall(DMDestroy(&d));
  for (IS &is : f->is) PetscCall(ISDestroy(&is));
  PetscFunctionReturn(PETSC_SUCCESS);
}

namespace {

// Each field's sub-DM, index set and element; *sig0: field 0's signature (the parser's).
PetscErrorCode make_fields(DM dm, PetscInt n_fields, FieldBlocks *f, FormSignature *sig0)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < n_fields; ++k) {
    IS is = nullptr;
    DM sub = nullptr;
    FormSignature sig;
    PetscCall(DMCreateSubDM(dm, 1, &k, &is, &sub));
    f->dms.push_back(sub);
    f->is.push_back(is);
    PetscCall(plex_form_signature(sub, &sig));
    f->elements.push_back(sig.element);
    f->cell = sig.cell;
    if (k == 0) *sig0 = sig;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The bilinear form of the Mat's text, on a MixedElement whose parts are the DM's fields.
Form parse_mixed(const MatFEMGPUContext *ctx, const FieldBlocks &f, const FormSignature &sig0)
{
  const std::string dm_fields = "the Mat's DM has " + std::to_string(f.dms.size()) + " fields " + describe_fields(f.elements, f.cell);
  ParsedForms forms;
  try {
    forms = parse_form_text(ctx->op.form_text, ctx->op.form_source, sig0);
  } catch (const FormError &e) {
    throw FormError(std::string(e.what()) + " (" + dm_fields + ": its form needs u and v on a MixedElement of those fields)");
  }
  if (!forms.has_bilinear())
    throw FormError(ctx->op.form_source + ": defines no bilinear form 'a'; " + dm_fields +
                    " and a fem_gpu Mat on it takes a bilinear form on their MixedElement (residuals F on mixed elements are not supported yet)");
  const std::string why = fields_mismatch(forms.a, f.elements);
  if (!why.empty()) throw FormError(ctx->op.form_source + ": the form's fields do not match the DM's: " + why);
  return forms.a;
}

// A fem_gpu Mat on field i's sub-DM for one block, configured as A is (options, prefix,
// constants, coefficients set on A).
PetscErrorCode make_block_operator(Mat A, MatFEMGPUContext *ctx, const FieldBlocks &f, PetscInt i, PetscInt j, const Form &block, Mat *B)
{
  PetscInt n, N;
  const char *prefix;
  MatFEMGPUContext *b;
  PetscFunctionBegin;
  PetscCall(ISGetLocalSize(f.is[static_cast<size_t>(i)], &n));
  PetscCall(ISGetSize(f.is[static_cast<size_t>(i)], &N));
  PetscCall(MatCreate(PetscObjectComm((PetscObject)A), B));
  PetscCall(MatSetSizes(*B, n, n, N, N));
  PetscCall(MatSetType(*B, MATFEMGPU));
  PetscCall(MatSetDM(*B, f.dms[static_cast<size_t>(i)]));
  PetscCall(MatGetOptionsPrefix(A, &prefix));
  PetscCall(MatSetOptionsPrefix(*B, prefix));
  PetscCall(MatFEMGPUGetContext(*B, &b));
  b->options = ctx->options;
  b->op.constants_set = ctx->op.constants_set;
  b->op.form_text = ctx->op.form_text;
  b->op.form_source = ctx->op.form_source + " block (" + std::to_string(i) + ", " + std::to_string(j) + ")";
  b->op.given_form = std::make_shared<const Form>(block);
  b->op.residual = i != j;
  for (const auto &kv : ctx->op.coefficients)
    if (!kv.second.auxiliary) PetscCall(MatFEMGPUSetCoefficient(*B, kv.first.c_str(), kv.second.vec));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Block (i, j) as a Mat of field i's rows and field j's columns, or null when it is zero.
PetscErrorCode make_block(Mat A, MatFEMGPUContext *ctx, const FieldBlocks &f, const Form &form, PetscInt i, PetscInt j, Mat *B)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)A);
  Form block;
  bool zero = false;
  PetscFunctionBegin;
  *B = nullptr;
  FEMGPU_CXX(comm, {
    block = mixed_block(form, static_cast<int>(i), static_cast<int>(j));
    zero = is_zero_form(block);
  });
  if (zero) PetscFunctionReturn(PETSC_SUCCESS);
  if (i == j) {
    PetscCall(make_block_operator(A, ctx, f, i, j, block, B));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  const Element &ei = f.elements[static_cast<size_t>(i)], &ej = f.elements[static_cast<size_t>(j)];
  PetscCheck(ei != ej, comm, PETSC_ERR_SUP,
             "fem_gpu: form %s: block (%" PetscInt_FMT ", %" PetscInt_FMT ") couples two fields with the same element (%s); off-diagonal blocks "
             "between fields of one element are not supported yet (Taylor-Hood P2^d x P1 and other pairs of distinct elements are)",
             ctx->op.form_source.c_str(), i, j, describe_element(ei, f.cell).c_str());
  Mat residual = nullptr;
  Vec w = nullptr;
  PetscCall(make_block_operator(A, ctx, f, i, j, block, &residual));
  PetscCall(DMCreateGlobalVector(f.dms[static_cast<size_t>(j)], &w));
  std::string name;
  FEMGPU_CXX(comm, name = block_trial_coefficient(form, static_cast<int>(j)));
  PetscCall(MatFEMGPUSetCoefficient(residual, name.c_str(), w));
  PetscCall(MatFEMGPUOffDiagonalBlock(residual, f.dms[static_cast<size_t>(i)], w, B));
  PetscCall(MatDestroy(&residual));  // the block holds them
  PetscCall(VecDestroy(&w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode MatFEMGPUSetUpFields(Mat A, MatFEMGPUContext *ctx, bool *multi)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)A);
  DM dm;
  PetscInt n_fields = 0;
  PetscFunctionBegin;
  PetscCall(MatGetDM(A, &dm));
  if (dm) PetscCall(DMGetNumFields(dm, &n_fields));
  *multi = n_fields > 1;
  if (!*multi || ctx->fields) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(!ctx->op.form_source.empty(), comm, PETSC_ERR_ARG_WRONGSTATE,
             "fem_gpu: no form; give -mat_fem_gpu_form_file FILE.ufl or call MatFEMGPUSetFormFile() (a form on the MixedElement of the DM's %" PetscInt_FMT
             " fields)",
             n_fields);
  auto fields = std::shared_ptr<FieldBlocks>(new FieldBlocks, [](FieldBlocks *f) {
    (void)FieldBlocksDestroy(f);
    delete f;
  });
  FormSignature sig0;
  PetscCall(make_fields(dm, n_fields, fields.get(), &sig0));
  Form form;
  FEMGPU_CXX(comm, form = parse_mixed(ctx, *fields, sig0));
  fields->blocks.assign(static_cast<size_t>(n_fields * n_fields), nullptr);
  for (PetscInt i = 0; i < n_fields; ++i)
    for (PetscInt j = 0; j < n_fields; ++j) PetscCall(make_block(A, ctx, *fields, form, i, j, &fields->blocks[static_cast<size_t>(i * n_fields + j)]));
  ctx->fields = fields;
  PetscCall(PetscInfo(A, "fem_gpu: %" PetscInt_FMT " fields, form %s split into blocks\n", n_fields, ctx->op.form_source.c_str()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
