#include "petsc/mat/mat_femgpu_shell_edits.h"

#include <petsc/private/matimpl.h>

#include "femgpu.h"
#include "petsc/mat/mat_context.h"
#include "petsc/mat/mat_femgpu.h"
#include "petsc/mat/mat_femgpu_copy.h"

namespace femgpu {

namespace {

PetscErrorCode edits_of(Mat A, ShellEdits **edits)
{
  MatFEMGPUContext *ctx;
  PetscFunctionBegin;
  PetscCall(MatFEMGPUGetContext(A, &ctx));
  *edits = &ctx->shell_edits;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A copy of v (null for null), owned by the edit.
PetscErrorCode copy_of(Vec v, Vec *copy)
{
  PetscFunctionBegin;
  *copy = nullptr;
  if (!v) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecDuplicate(v, copy));
  PetscCall(VecCopy(v, *copy));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// X -> scale X + shift I after what the list holds; merged into a last affine edit.
void add_affine(ShellEdits *e, PetscScalar scale, PetscScalar shift)
{
  if (e->list.empty() || e->list.back().kind != ShellEdit::Kind::affine) e->list.push_back(ShellEdit{});
  ShellEdit &last = e->list.back();
  last.scale *= scale;
  last.shift = last.shift * scale + shift;
}

PetscErrorCode Scale_FEMGPU(Mat A, PetscScalar a)
{
  ShellEdits *e = nullptr;
  PetscFunctionBegin;
  PetscCall(edits_of(A, &e));
  PetscCall(e->scale(A, a));
  add_affine(e, a, 0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode Shift_FEMGPU(Mat A, PetscScalar a)
{
  ShellEdits *e = nullptr;
  PetscFunctionBegin;
  PetscCall(edits_of(A, &e));
  PetscCall(e->shift(A, a));
  add_affine(e, 1, a);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DiagonalScale_FEMGPU(Mat A, Vec left, Vec right)
{
  ShellEdits *e = nullptr;
  ShellEdit edit;
  PetscFunctionBegin;
  PetscCall(edits_of(A, &e));
  PetscCall(e->diagonal_scale(A, left, right));
  edit.kind = ShellEdit::Kind::diagonal_scale;
  PetscCall(copy_of(left, &edit.left));
  PetscCall(copy_of(right, &edit.right));
  e->list.push_back(edit);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DiagonalSet_FEMGPU(Mat A, Vec D, InsertMode mode)
{
  ShellEdits *e = nullptr;
  ShellEdit edit;
  PetscFunctionBegin;
  PetscCall(edits_of(A, &e));
  PetscCall(e->diagonal_set(A, D, mode));
  edit.kind = ShellEdit::Kind::diagonal_set;
  edit.mode = mode;
  PetscCall(copy_of(D, &edit.left));
  e->list.push_back(edit);
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MATSHELL's MatAXPY of Y with itself is a MatScale, which records itself.
PetscErrorCode AXPY_FEMGPU(Mat Y, PetscScalar a, Mat X, MatStructure str)
{
  ShellEdits *e = nullptr;
  ShellEdit edit;
  PetscFunctionBegin;
  PetscCall(edits_of(Y, &e));
  PetscCall(e->axpy(Y, a, X, str));
  if (X == Y) PetscFunctionReturn(PETSC_SUCCESS);
  edit.kind = ShellEdit::Kind::axpy;
  edit.scale = a;
  edit.x = X;
  PetscCall(PetscObjectReference((PetscObject)X));
  e->list.push_back(edit);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode add_zero_rows(ShellEdits *e, ShellEdit::Kind kind, PetscInt n, const PetscInt rows[], PetscScalar diagonal)
{
  ShellEdit edit;
  PetscFunctionBegin;
  edit.kind = kind;
  edit.shift = diagonal;
  edit.rows.assign(rows, rows + n);
  e->list.push_back(edit);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ZeroRows_FEMGPU(Mat A, PetscInt n, const PetscInt rows[], PetscScalar diagonal, Vec x, Vec b)
{
  ShellEdits *e = nullptr;
  PetscFunctionBegin;
  PetscCall(edits_of(A, &e));
  PetscCall(e->zero_rows(A, n, rows, diagonal, x, b));
  PetscCall(add_zero_rows(e, ShellEdit::Kind::zero_rows, n, rows, diagonal));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ZeroRowsColumns_FEMGPU(Mat A, PetscInt n, const PetscInt rows[], PetscScalar diagonal, Vec x, Vec b)
{
  ShellEdits *e = nullptr;
  PetscFunctionBegin;
  PetscCall(edits_of(A, &e));
  PetscCall(e->zero_rows_columns(A, n, rows, diagonal, x, b));
  PetscCall(add_zero_rows(e, ShellEdit::Kind::zero_rows_columns, n, rows, diagonal));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MATSHELL forgets its scalings and shifts at a final assembly; so does the list.
PetscErrorCode AssemblyEnd_FEMGPU(Mat A, MatAssemblyType type)
{
  ShellEdits *e = nullptr;
  PetscFunctionBegin;
  PetscCall(edits_of(A, &e));
  if (e->assembly_end) PetscCall(e->assembly_end(A, type));
  if (type == MAT_FINAL_ASSEMBLY) PetscCall(MatFEMGPUClearShellEdits(e));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Into another shell (a fem_gpu Mat): MATSHELL's copy, which calls MatCopy_FEMGPU;
// into anything else: the assembled operator.
PetscErrorCode Copy_FEMGPU(Mat A, Mat B, MatStructure str)
{
  ShellEdits *e = nullptr;
  PetscBool shell;
  PetscFunctionBegin;
  PetscCall(edits_of(A, &e));
  PetscCall(MatIsShell(B, &shell));
  if (shell) PetscCall(e->copy(A, B, str));
  else PetscCall(MatFEMGPUCopyToAssembled(A, B, str));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// One edit on the assembled M; *symmetric is cleared where it may break symmetry.
PetscErrorCode replay(Mat A, const ShellEdit &edit, Mat M, bool *symmetric)
{
  PetscFunctionBegin;
  switch (edit.kind) {
  case ShellEdit::Kind::affine:
    if (edit.scale != (PetscScalar)1) PetscCall(MatScale(M, edit.scale));
    if (edit.shift != (PetscScalar)0) PetscCall(MatShift(M, edit.shift));
    break;
  case ShellEdit::Kind::diagonal_scale:
    PetscCall(MatDiagonalScale(M, edit.left, edit.right));
    *symmetric = false;
    break;
  case ShellEdit::Kind::diagonal_set:
    PetscCall(MatDiagonalSet(M, edit.left, edit.mode));
    break;
  case ShellEdit::Kind::axpy: {
    PetscCall(MatFEMGPUReplayAXPY(A, edit.scale, edit.x, M));
    PetscBool set, x_symmetric;
    PetscCall(MatIsSymmetricKnown(edit.x, &set, &x_symmetric));
    *symmetric = *symmetric && set && x_symmetric;
    break;
  }
  case ShellEdit::Kind::zero_rows:
    PetscCall(MatZeroRows(M, static_cast<PetscInt>(edit.rows.size()), edit.rows.data(), edit.shift, nullptr, nullptr));
    *symmetric = false;
    break;
  case ShellEdit::Kind::zero_rows_columns:
    PetscCall(MatZeroRowsColumns(M, static_cast<PetscInt>(edit.rows.size()), edit.rows.data(), edit.shift, nullptr, nullptr));
    break;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode MatFEMGPUWrapShellEdits(Mat A, ShellEdits *e)
{
  PetscFunctionBegin;
  e->scale = A->ops->scale;
  e->shift = A->ops->shift;
  e->diagonal_scale = A->ops->diagonalscale;
  e->diagonal_set = A->ops->diagonalset;
  e->axpy = A->ops->axpy;
  e->zero_rows = A->ops->zerorows;
  e->zero_rows_columns = A->ops->zerorowscolumns;
  e->assembly_end = A->ops->assemblyend;
  e->copy = A->ops->copy;
  // Wrapped only where MATSHELL has the operation: where it has not, PETSc's generic
  // code runs, through MatMult or MatSetValues, and changes nothing to record.
  if (e->scale) A->ops->scale = Scale_FEMGPU;
  if (e->shift) A->ops->shift = Shift_FEMGPU;
  if (e->diagonal_scale) A->ops->diagonalscale = DiagonalScale_FEMGPU;
  if (e->diagonal_set) A->ops->diagonalset = DiagonalSet_FEMGPU;
  if (e->axpy) A->ops->axpy = AXPY_FEMGPU;
  if (e->zero_rows) A->ops->zerorows = ZeroRows_FEMGPU;
  if (e->zero_rows_columns) A->ops->zerorowscolumns = ZeroRowsColumns_FEMGPU;
  A->ops->assemblyend = AssemblyEnd_FEMGPU;
  if (e->copy) A->ops->copy = Copy_FEMGPU;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatFEMGPUClearShellEdits(ShellEdits *e)
{
  PetscFunctionBegin;
  for (ShellEdit &edit : e->list) {
    PetscCall(VecDestroy(&edit.left));
    PetscCall(VecDestroy(&edit.right));
    PetscCall(MatDestroy(&edit.x));
  }
  e->list.clear();
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatFEMGPUCopyShellEdits(const ShellEdits &from, ShellEdits *to)
{
  PetscFunctionBegin;
  if (&from == to) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatFEMGPUClearShellEdits(to));
  for (const ShellEdit &edit : from.list) {
    ShellEdit copy = edit;
    PetscCall(copy_of(edit.left, &copy.left));
    PetscCall(copy_of(edit.right, &copy.right));
    if (copy.x) PetscCall(PetscObjectReference((PetscObject)copy.x));
    to->list.push_back(copy);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatFEMGPUReplayShellEdits(Mat A, const ShellEdits &e, Mat M, bool *symmetric)
{
  PetscFunctionBegin;
  for (const ShellEdit &edit : e.list) PetscCall(replay(A, edit, M, symmetric));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
