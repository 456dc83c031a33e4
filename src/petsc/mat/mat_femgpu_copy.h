// A fem_gpu Mat's entries into an assembled Mat the caller made (mat_femgpu_copy.cpp):
// MatCopy into a Mat that is not a shell, and the MatAXPY edits of an assembled copy.
#pragma once

#include <petscmat.h>

namespace femgpu {

// M += a X for the replay of MatAXPY(A, a, X): X assembled (MatConvert to aij), an
// error naming A and the first entry where X has entries outside M's pattern.
PetscErrorCode MatFEMGPUReplayAXPY(Mat A, PetscScalar a, Mat X, Mat M);
// MatCopy(A, B) into a B that is not a shell: B zeroed, then the operator's entries (its
// edits replayed) added; B's nonzero pattern must hold them, or grows under
// DIFFERENT_NONZERO_PATTERN.
PetscErrorCode MatFEMGPUCopyToAssembled(Mat A, Mat B, MatStructure str);
// How many structural entries of X, over all ranks, are not in Y's nonzero pattern, and
// the first (lowest row) one's row and column (-1 where none). Collective.
PetscErrorCode MatFEMGPUPatternMissing(Mat Y, Mat X, PetscInt *missing, PetscInt *row, PetscInt *column);

}  // namespace femgpu
