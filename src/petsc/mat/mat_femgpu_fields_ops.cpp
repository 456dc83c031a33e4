// The operations of a multi-field fem_gpu Mat (mat_femgpu_fields.h): MatMult as the sum
// of its blocks on the fields' sub-vectors, the diagonal, MatCreateSubMatrix for the
// fields' index sets, MatView; and the two MATSHELL kinds of block it is made of besides
// fem_gpu Mats: an off-diagonal block (a residual Mat with its trial coefficient) and a
// zero block.
#include <petscdmplex.h>

#include <string>
#include <vector>

#include "femgpu.h"
#include "form/mixed_blocks.h"
#include "petsc/base/vec_checks.h"
#include "petsc/mat/mat_context.h"
#include "petsc/mat/mat_femgpu.h"
#include "petsc/mat/mat_femgpu_fields.h"
#include "petsc/mat/mat_femgpu_fields_ops.h"

namespace femgpu {

namespace {

// An off-diagonal block A_ij: the residual-mode fem_gpu Mat `residual` (on field i's
// sub-DM) whose trial coefficient reads `w` (a global Vec of field j's sub-DM).
struct OffDiagonal {
  Mat residual = nullptr;
  DM test_dm = nullptr;
  Vec w = nullptr;
};

// z = y + A_ij x (y null: z = A_ij x), on Vecs already checked.
PetscErrorCode off_diagonal_apply(Mat B, Vec x, Vec y, Vec z)
{
  OffDiagonal *o;
  Vec unused = nullptr, zl = nullptr;
  PetscFunctionBegin;
  PetscCall(MatShellGetContext(B, &o));
  PetscCall(VecCopy(x, o->w));  // its state changes: the residual Mat reads it again
  PetscCall(DMGetLocalVector(o->test_dm, &unused));  // the residual has no trial function
  PetscCall(DMGetLocalVector(o->test_dm, &zl));
  PetscCall(VecSet(zl, 0.0));
  PetscCall(MatFEMGPUApplyLocal(o->residual, unused, zl));
  if (y && y != z) PetscCall(VecCopy(y, z));
  if (!y) PetscCall(VecSet(z, 0.0));
  PetscCall(DMLocalToGlobal(o->test_dm, zl, ADD_VALUES, z));
  PetscCall(DMRestoreLocalVector(o->test_dm, &zl));
  PetscCall(DMRestoreLocalVector(o->test_dm, &unused));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OffDiagonalMultAdd(Mat B, Vec x, Vec y, Vec z)
{
  PetscFunctionBegin;
  PetscCall(check_vec_layout(B, "MatMultAdd() of an off-diagonal block", "x", x, MatSide::columns));
  PetscCall(check_vec_layout(B, "MatMultAdd() of an off-diagonal block", "y", y, MatSide::rows));
  PetscCall(check_vec_layout(B, "MatMultAdd() of an off-diagonal block", "z", z, MatSide::rows));
  PetscCall(off_diagonal_apply(B, x, y, z));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OffDiagonalMult(Mat B, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(check_vec_layout(B, "MatMult() of an off-diagonal block", "x", x, MatSide::columns));
  PetscCall(check_vec_layout(B, "MatMult() of an off-diagonal block", "y", y, MatSide::rows));
  PetscCall(off_diagonal_apply(B, x, nullptr, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OffDiagonalView(Mat B, PetscViewer viewer)
{
  OffDiagonal *o;
  PetscFunctionBegin;
  PetscCall(MatShellGetContext(B, &o));
  PetscCall(PetscViewerASCIIPrintf(viewer, "fem_gpu off-diagonal block: the residual of its form with the trial part as a coefficient\n"));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(MatView(o->residual, viewer));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OffDiagonalDestroy(Mat B)
{
  OffDiagonal *o;
  PetscFunctionBegin;
  PetscCall(MatShellGetContext(B, &o));
  PetscCall(MatDestroy(&o->residual));
  PetscCall(DMDestroy(&o->test_dm));
  PetscCall(VecDestroy(&o->w));
  delete o;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A zero block's operations: the output is y (or z = y), once the Vecs fit its layouts.
PetscErrorCode ZeroMult(Mat B, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(check_vec_layout(B, "MatMult() of a zero block", "x", x, MatSide::columns));
  PetscCall(check_vec_layout(B, "MatMult() of a zero block", "y", y, MatSide::rows));
  PetscCall(VecSet(y, 0.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ZeroMultTranspose(Mat B, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(check_vec_layout(B, "MatMultTranspose() of a zero block", "x", x, MatSide::rows));
  PetscCall(check_vec_layout(B, "MatMultTranspose() of a zero block", "y", y, MatSide::columns));
  PetscCall(VecSet(y, 0.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ZeroMultAdd(Mat B, Vec x, Vec y, Vec z)
{
  PetscFunctionBegin;
  PetscCall(check_vec_layout(B, "MatMultAdd() of a zero block", "x", x, MatSide::columns));
  PetscCall(check_vec_layout(B, "MatMultAdd() of a zero block", "y", y, MatSide::rows));
  PetscCall(check_vec_layout(B, "MatMultAdd() of a zero block", "z", z, MatSide::rows));
  if (y != z) PetscCall(VecCopy(y, z));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ZeroMultTransposeAdd(Mat B, Vec x, Vec y, Vec z)
{
  PetscFunctionBegin;
  PetscCall(check_vec_layout(B, "MatMultTransposeAdd() of a zero block", "x", x, MatSide::rows));
  PetscCall(check_vec_layout(B, "MatMultTransposeAdd() of a zero block", "y", y, MatSide::columns));
  PetscCall(check_vec_layout(B, "MatMultTransposeAdd() of a zero block", "z", z, MatSide::columns));
  if (y != z) PetscCall(VecCopy(y, z));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ZeroDiagonal(Mat B, Vec d)
{
  PetscFunctionBegin;
  PetscCall(check_vec_layout(B, "MatGetDiagonal() of a zero block", "d", d, MatSide::rows));
  PetscCall(VecSet(d, 0.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A zero block of field i's rows and field j's columns.
PetscErrorCode zero_block(Mat A, const FieldBlocks &f, PetscInt i, PetscInt j, Mat *B)
{
  PetscInt m, n, M, N;
  PetscFunctionBegin;
  PetscCall(ISGetLocalSize(f.is[static_cast<size_t>(i)], &m));
  PetscCall(ISGetLocalSize(f.is[static_cast<size_t>(j)], &n));
  PetscCall(ISGetSize(f.is[static_cast<size_t>(i)], &M));
  PetscCall(ISGetSize(f.is[static_cast<size_t>(j)], &N));
  PetscCall(MatCreateShell(PetscObjectComm((PetscObject)A), m, n, M, N, nullptr, B));
  PetscCall(MatShellSetOperation(*B, MATOP_MULT, (void (*)(void))ZeroMult));
  PetscCall(MatShellSetOperation(*B, MATOP_MULT_TRANSPOSE, (void (*)(void))ZeroMultTranspose));
  PetscCall(MatShellSetOperation(*B, MATOP_MULT_ADD, (void (*)(void))ZeroMultAdd));
  PetscCall(MatShellSetOperation(*B, MATOP_MULT_TRANSPOSE_ADD, (void (*)(void))ZeroMultTransposeAdd));
  if (i == j) PetscCall(MatShellSetOperation(*B, MATOP_GET_DIAGONAL, (void (*)(void))ZeroDiagonal));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The field whose index set is `is`; -1 if none.
PetscErrorCode field_of(const FieldBlocks &f, IS is, PetscInt *field)
{
  PetscFunctionBegin;
  *field = -1;
  for (PetscInt k = 0; k < f.n_fields() && *field < 0; ++k) {
    PetscBool same;
    PetscCall(ISEqual(is, f.is[static_cast<size_t>(k)], &same));
    if (same) *field = k;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The fem_gpu Mat of a block: itself (diagonal) or its residual (off-diagonal).
PetscErrorCode block_operator(Mat B, Mat *op)
{
  PetscBool fem_gpu;
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)B, MATFEMGPU, &fem_gpu));
  if (fem_gpu) {
    *op = B;
  } else {
    OffDiagonal *o;
    PetscCall(MatShellGetContext(B, &o));
    *op = o->residual;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode MatFEMGPUFieldsSetConstant(MatFEMGPUContext *ctx, const char name[], PetscReal value)
{
  PetscFunctionBegin;
  for (Mat B : ctx->fields->blocks) {
    Mat op = nullptr;
    if (!B) continue;
    PetscCall(block_operator(B, &op));
    PetscCall(MatFEMGPUSetConstant(op, name, value));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatFEMGPUFieldsSetCoefficient(MatFEMGPUContext *ctx, const char name[], Vec w)
{
  PetscFunctionBegin;
  for (Mat B : ctx->fields->blocks) {
    Mat op = nullptr;
    if (!B) continue;
    PetscCall(block_operator(B, &op));
    PetscCall(MatFEMGPUSetCoefficient(op, name, w));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatFEMGPUOffDiagonalBlock(Mat residual, DM test_dm, Vec w_j, Mat *block)
{
  PetscInt m, M, n, N;
  PetscFunctionBegin;
  PetscCall(MatGetLocalSize(residual, &m, nullptr));
  PetscCall(MatGetSize(residual, &M, nullptr));
  PetscCall(VecGetLocalSize(w_j, &n));
  PetscCall(VecGetSize(w_j, &N));
  auto *o = new OffDiagonal{residual, test_dm, w_j};
  PetscCall(PetscObjectReference((PetscObject)residual));
  PetscCall(PetscObjectReference((PetscObject)test_dm));
  PetscCall(PetscObjectReference((PetscObject)w_j));
  PetscCall(MatCreateShell(PetscObjectComm((PetscObject)residual), m, n, M, N, o, block));
  PetscCall(MatShellSetOperation(*block, MATOP_MULT, (void (*)(void))OffDiagonalMult));
  PetscCall(MatShellSetOperation(*block, MATOP_MULT_ADD, (void (*)(void))OffDiagonalMultAdd));
  PetscCall(MatShellSetOperation(*block, MATOP_VIEW, (void (*)(void))OffDiagonalView));
  PetscCall(MatShellSetOperation(*block, MATOP_DESTROY, (void (*)(void))OffDiagonalDestroy));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Each field's part of x is taken once (a copy where the fields' DOFs interleave, as
// on several ranks), then every block row adds its blocks into y's part.
PetscErrorCode MatFEMGPUFieldsApply(Mat, MatFEMGPUContext *ctx, Vec x, Vec y, bool add)
{
  const FieldBlocks &f = *ctx->fields;
  std::vector<Vec> xs(static_cast<size_t>(f.n_fields()), nullptr);
  PetscFunctionBegin;
  for (PetscInt j = 0; j < f.n_fields(); ++j) PetscCall(VecGetSubVector(x, f.is[static_cast<size_t>(j)], &xs[static_cast<size_t>(j)]));
  for (PetscInt i = 0; i < f.n_fields(); ++i) {
    Vec yi = nullptr;
    PetscCall(VecGetSubVector(y, f.is[static_cast<size_t>(i)], &yi));
    if (!add) PetscCall(VecSet(yi, 0.0));
    for (PetscInt j = 0; j < f.n_fields(); ++j)
      if (f.block(i, j)) PetscCall(MatMultAdd(f.block(i, j), xs[static_cast<size_t>(j)], yi, yi));
    PetscCall(VecRestoreSubVector(y, f.is[static_cast<size_t>(i)], &yi));
  }
  for (PetscInt j = 0; j < f.n_fields(); ++j) PetscCall(VecRestoreSubVector(x, f.is[static_cast<size_t>(j)], &xs[static_cast<size_t>(j)]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatFEMGPUFieldsDiagonal(MatFEMGPUContext *ctx, Vec d)
{
  const FieldBlocks &f = *ctx->fields;
  PetscFunctionBegin;
  for (PetscInt i = 0; i < f.n_fields(); ++i) {
    Vec di = nullptr;
    PetscCall(VecGetSubVector(d, f.is[static_cast<size_t>(i)], &di));
    if (f.block(i, i)) PetscCall(MatGetDiagonal(f.block(i, i), di));
    else PetscCall(VecSet(di, 0.0));
    PetscCall(VecRestoreSubVector(d, f.is[static_cast<size_t>(i)], &di));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatFEMGPUFieldsView(MatFEMGPUContext *ctx, PetscViewer viewer)
{
  const FieldBlocks &f = *ctx->fields;
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "  %" PetscInt_FMT " fields %s; blocks (test field, trial field):\n", f.n_fields(),
                                   describe_fields(f.elements, f.cell).c_str()));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  for (PetscInt i = 0; i < f.n_fields(); ++i)
    for (PetscInt j = 0; j < f.n_fields(); ++j) {
      PetscCall(PetscViewerASCIIPrintf(viewer, "block (%" PetscInt_FMT ", %" PetscInt_FMT ")%s\n", i, j, f.block(i, j) ? ":" : ": zero"));
      if (!f.block(i, j)) continue;
      PetscCall(PetscViewerASCIIPushTab(viewer));
      PetscCall(MatView(f.block(i, j), viewer));
      PetscCall(PetscViewerASCIIPopTab(viewer));
    }
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatCreateSubMatrix_FEMGPU(Mat A, IS is_row, IS is_col, MatReuse reuse, Mat *B)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)A);
  MatFEMGPUContext *ctx;
  bool multi = false;
  PetscInt i = -1, j = -1;
  PetscFunctionBegin;
  PetscCall(MatFEMGPUGetContext(A, &ctx));
  PetscCall(MatFEMGPUSetUpFields(A, ctx, &multi));
  PetscCheck(multi, comm, PETSC_ERR_SUP,
             "MatCreateSubMatrix() on a %s Mat: supported for the fields of a DM with several fields only (this Mat's DM has one)", MATFEMGPU);
  PetscCall(field_of(*ctx->fields, is_row, &i));
  PetscCall(field_of(*ctx->fields, is_col, &j));
  PetscCheck(i >= 0 && j >= 0, comm, PETSC_ERR_SUP,
             "MatCreateSubMatrix() on a multi-field %s Mat takes the global index sets of single fields (DMCreateFieldIS, or PCFIELDSPLIT with "
             "the DM's fields); the %s index set is not one of its %" PetscInt_FMT " fields'",
             MATFEMGPU, i < 0 ? "row" : "column", ctx->fields->n_fields());
  if (reuse == MAT_REUSE_MATRIX) PetscFunctionReturn(PETSC_SUCCESS);  // the block is its form: nothing changed
  if (ctx->fields->block(i, j)) {
    *B = ctx->fields->block(i, j);
    PetscCall(PetscObjectReference((PetscObject)*B));
  } else {
    PetscCall(zero_block(A, *ctx->fields, i, j, B));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
