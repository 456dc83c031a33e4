// A fem_gpu Mat's entries into an assembled Mat the caller made: MatCopy(A, B) into a B
// that is not a shell, and the MatAXPY edits of an assembled copy
// (mat_femgpu_shell_edits.h). Both add an assembled matrix (MatConvert to aij) into the
// target, whose nonzero pattern must hold its entries: where it does not, an error names
// how many are missing and the first one, instead of PETSc's "new nonzero" at some rank.
#include <algorithm>
#include <vector>

#include "femgpu.h"
#include "petsc/base/petsc_compat.h"
#include "petsc/mat/mat_femgpu_copy.h"

namespace femgpu {

namespace {

// X's structural entries of local row r not in Y's row r: *count += their number; the
// first column in *column (if none before).
PetscErrorCode row_missing(Mat Y, Mat X, PetscInt r, PetscInt *count, PetscInt *column)
{
  PetscInt nx, ny;
  const PetscInt *cx, *cy;
  PetscFunctionBegin;
  PetscCall(MatGetRow(Y, r, &ny, &cy, nullptr));
  std::vector<PetscInt> have(cy, cy + ny);
  PetscCall(MatRestoreRow(Y, r, &ny, &cy, nullptr));
  std::sort(have.begin(), have.end());
  PetscCall(MatGetRow(X, r, &nx, &cx, nullptr));
  for (PetscInt k = 0; k < nx; ++k) {
    if (std::binary_search(have.begin(), have.end(), cx[k])) continue;
    if ((*count)++ == 0) *column = cx[k];
  }
  PetscCall(MatRestoreRow(X, r, &nx, &cx, nullptr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode MatFEMGPUPatternMissing(Mat Y, Mat X, PetscInt *missing, PetscInt *row, PetscInt *column)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)X);
  PetscInt start, end, count = 0, first_row = PETSC_MAX_INT, first_column = PETSC_MAX_INT;
  PetscFunctionBegin;
  PetscCall(MatGetOwnershipRange(X, &start, &end));
  for (PetscInt r = start; r < end; ++r) {
    const PetscInt before = count;
    PetscCall(row_missing(Y, X, r, &count, &first_column));
    if (before == 0 && count > 0) first_row = r;
  }
  PetscCallMPI(MPI_Allreduce(&count, missing, 1, MPIU_INT, MPI_SUM, comm));
  PetscCallMPI(MPI_Allreduce(&first_row, row, 1, MPIU_INT, MPI_MIN, comm));
  if (first_row != *row) first_column = PETSC_MAX_INT;  // rows are owned once: one rank has the first
  PetscCallMPI(MPI_Allreduce(&first_column, column, 1, MPIU_INT, MPI_MIN, comm));
  if (*missing == 0) *row = *column = -1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatFEMGPUReplayAXPY(Mat A, PetscScalar a, Mat X, Mat M)
{
  Mat Xa;
  PetscInt missing, row, column;
  MatType type;
  PetscFunctionBegin;
  PetscCall(MatConvert(X, MATAIJ, MAT_INITIAL_MATRIX, &Xa));
  PetscCall(MatFEMGPUPatternMissing(M, Xa, &missing, &row, &column));
  if (missing) {
    PetscCall(MatGetType(X, &type));
    PetscCall(MatDestroy(&Xa));
    SETERRQ(PetscObjectComm((PetscObject)A), PETSC_ERR_SUP,
            "MatConvert() of a fem_gpu Mat after MatAXPY(A, a, X) with X of type %s: X has %" PetscInt_FMT " entries outside the operator's nonzero "
            "pattern (first: row %" PetscInt_FMT ", column %" PetscInt_FMT "), which the assembled copy cannot hold; convert A before MatAXPY() and "
            "add the assembled X to it",
            type, missing, row, column);
  }
  PetscCall(MatAXPY(M, a, Xa, SUBSET_NONZERO_PATTERN));
  PetscCall(MatDestroy(&Xa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatFEMGPUCopyToAssembled(Mat A, Mat B, MatStructure str)
{
  Mat M;
  MatType type;
  PetscInt missing, row, column;
  PetscFunctionBegin;
  PetscCall(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, &M));
  if (str != DIFFERENT_NONZERO_PATTERN) {
    PetscCall(MatFEMGPUPatternMissing(B, M, &missing, &row, &column));
    if (missing) {
      PetscCall(MatGetType(B, &type));
      PetscCall(MatDestroy(&M));
      SETERRQ(PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_INCOMP,
              "MatCopy() of a fem_gpu Mat into a %s Mat: the target's nonzero pattern lacks %" PetscInt_FMT " of the operator's entries (first: row %" PetscInt_FMT
              ", column %" PetscInt_FMT "); make the target with MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, &B) or DMCreateMatrix() of the Mat's DM "
              "with an assembled -dm_mat_type, or pass DIFFERENT_NONZERO_PATTERN to let its pattern grow",
              type, missing, row, column);
    }
  }
  PetscCall(MatZeroEntries(B));
  PetscCall(MatAXPY(B, 1.0, M, str == DIFFERENT_NONZERO_PATTERN ? DIFFERENT_NONZERO_PATTERN : SUBSET_NONZERO_PATTERN));
  PetscCall(MatDestroy(&M));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
