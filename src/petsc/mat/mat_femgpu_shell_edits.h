// What MatScale, MatShift, MatDiagonalScale, MatDiagonalSet, MatAXPY, MatZeroRows and
// MatZeroRowsColumns did to a fem_gpu Mat, so that an assembled copy of it (MatConvert,
// MatCopy into an assembled Mat) is the operator its MatMult applies.
//
// MATSHELL implements those operations for every shell, fem_gpu included, by wrapping
// MatMult and MatGetDiagonal, and keeps what they did private (PETSc 3.18 has no call to
// read it back). femgpu wraps the operations in turn: each calls MATSHELL's own, then
// records the call, its arguments copied, in the Mat's list of edits; MatAssemblyEnd
// clears the list when MATSHELL clears its state. An assembled copy replays the list on
// its matrix with the same calls, which on an assembled matrix mean the same operator
// by definition. Consecutive MatScale and MatShift calls are kept as one s X + t I.
// Does not: change what MATSHELL does to MatMult and MatGetDiagonal; replay a MatAXPY
// whose X has entries outside the operator's nonzero pattern (an error says so).
#pragma once

#include <petscmat.h>

#include <vector>

#include "petsc/base/petsc_compat.h"

namespace femgpu {

struct ShellEdit {
  enum class Kind { affine, diagonal_scale, diagonal_set, axpy, zero_rows, zero_rows_columns };
  Kind kind = Kind::affine;
  // affine: X -> scale X + shift I; axpy: X + scale Xa; zero rows (and columns): shift
  // on the diagonal.
  PetscScalar scale = 1, shift = 0;
  Vec left = nullptr, right = nullptr;  // diagonal scale: copies (null: none); diagonal set: left is D
  InsertMode mode = ADD_VALUES;         // diagonal set
  Mat x = nullptr;                      // axpy: the Mat added (referenced)
  std::vector<PetscInt> rows;           // zero rows: the global rows this rank gave
};

// A fem_gpu Mat's edits and the MATSHELL operations its wrappers call.
struct ShellEdits {
  std::vector<ShellEdit> list;
  PetscErrorCode (*scale)(Mat, PetscScalar) = nullptr;
  PetscErrorCode (*shift)(Mat, PetscScalar) = nullptr;
  PetscErrorCode (*diagonal_scale)(Mat, Vec, Vec) = nullptr;
  PetscErrorCode (*diagonal_set)(Mat, Vec, InsertMode) = nullptr;
  PetscErrorCode (*axpy)(Mat, PetscScalar, Mat, MatStructure) = nullptr;
  PetscErrorCode (*zero_rows)(Mat, PetscInt, const PetscInt[], PetscScalar, Vec, Vec) = nullptr;
  PetscErrorCode (*zero_rows_columns)(Mat, PetscInt, const PetscInt[], PetscScalar, Vec, Vec) = nullptr;
  PetscErrorCode (*assembly_end)(Mat, MatAssemblyType) = nullptr;
  PetscErrorCode (*copy)(Mat, Mat, MatStructure) = nullptr;  // MATSHELL's MatCopy: into another shell
};

// At MatCreate, after MATSHELL's setup: the wrappers replace MATSHELL's operations (kept
// in `edits`), and MatCopy into a Mat that is not a shell assembles into it.
PetscErrorCode MatFEMGPUWrapShellEdits(Mat A, ShellEdits *edits);
// The edits' PETSc objects released and the list emptied.
PetscErrorCode MatFEMGPUClearShellEdits(ShellEdits *edits);
// B's edits become copies of A's (MatCopy between fem_gpu Mats, as MATSHELL copies its state).
PetscErrorCode MatFEMGPUCopyShellEdits(const ShellEdits &from, ShellEdits *to);
// A's edits replayed on M, an assembled matrix of A's layouts holding A's entries as
// the form defines them; *symmetric is false where an edit may break symmetry.
PetscErrorCode MatFEMGPUReplayShellEdits(Mat A, const ShellEdits &edits, Mat M, bool *symmetric);

}  // namespace femgpu
