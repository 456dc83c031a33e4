// The p-multigrid's finest smoother operator (pmg_fine_view.h).
#include "petsc/pmg/pmg_fine_view.h"

#include "petsc/base/petsc_compat.h"

namespace femgpu {

namespace {

PetscErrorCode fine_view_mult(Mat W, Vec x, Vec y)
{
  Mat op;
  PetscFunctionBegin;
  PetscCall(MatShellGetContext(W, &op));
  PetscCall(MatMult(op, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode fine_view_mult_transpose(Mat W, Vec x, Vec y)
{
  Mat op;
  PetscFunctionBegin;
  PetscCall(MatShellGetContext(W, &op));
  PetscCall(MatMultTranspose(op, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode fine_view_diagonal(Mat W, Vec d)
{
  Mat op;
  PetscFunctionBegin;
  PetscCall(MatShellGetContext(W, &op));
  PetscCall(MatGetDiagonal(op, d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The operator's own Vecs (on the device where its DM's are): the smoother's work vectors
// and Jacobi's diagonal. A shell's default Vecs are host Vecs, and Jacobi's VecPointwiseMult
// on one then copied a million entries between host and device twice an apply (ex45 3D P2
// on an H100: KSPSolve 55 -> 161 ms a step).
PetscErrorCode fine_view_vecs(Mat W, Vec *right, Vec *left)
{
  Mat op;
  PetscFunctionBegin;
  PetscCall(MatShellGetContext(W, &op));
  PetscCall(MatCreateVecs(op, right, left));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode fine_view_destroy(Mat W)
{
  Mat op;
  PetscFunctionBegin;
  PetscCall(MatShellGetContext(W, &op));
  PetscCall(MatDestroy(&op));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode PMGCreateFineView(Mat op, Mat *W)
{
  PetscInt m, n, M, N;
  PetscBool set, flag;
  PetscFunctionBegin;
  PetscCall(MatGetLocalSize(op, &m, &n));
  PetscCall(MatGetSize(op, &M, &N));
  PetscCall(MatCreateShell(PetscObjectComm((PetscObject)op), m, n, M, N, op, W));
  PetscCall(PetscObjectReference((PetscObject)op));
  PetscCall(MatShellSetOperation(*W, MATOP_DESTROY, (void (*)(void))fine_view_destroy));
  PetscCall(PetscObjectSetName((PetscObject)*W, "fem_gpu_pmg fine level"));
  PetscCall(MatShellSetOperation(*W, MATOP_MULT, (void (*)(void))fine_view_mult));
  PetscCall(MatShellSetOperation(*W, MATOP_MULT_TRANSPOSE, (void (*)(void))fine_view_mult_transpose));
  PetscCall(MatShellSetOperation(*W, MATOP_GET_DIAGONAL, (void (*)(void))fine_view_diagonal));
  PetscCall(MatShellSetOperation(*W, MATOP_CREATE_VECS, (void (*)(void))fine_view_vecs));
  PetscCall(MatIsSymmetricKnown(op, &set, &flag));
  if (set) PetscCall(MatSetOption(*W, MAT_SYMMETRIC, flag));
  PetscCall(MatIsSPDKnown(op, &set, &flag));
  if (set) PetscCall(MatSetOption(*W, MAT_SPD, flag));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
