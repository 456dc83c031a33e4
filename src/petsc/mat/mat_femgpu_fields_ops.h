// The operations of a fem_gpu Mat over a DM with several fields (mat_femgpu_fields_ops.cpp),
// on the blocks mat_femgpu_fields.h makes.
#pragma once

#include <petscdm.h>
#include <petscmat.h>

namespace femgpu {

struct MatFEMGPUContext;  // mat_context.h

PetscErrorCode MatFEMGPUFieldsApply(Mat A, MatFEMGPUContext *ctx, Vec x, Vec y, bool add);
PetscErrorCode MatFEMGPUFieldsDiagonal(MatFEMGPUContext *ctx, Vec d);
PetscErrorCode MatFEMGPUFieldsView(MatFEMGPUContext *ctx, PetscViewer viewer);
PetscErrorCode MatCreateSubMatrix_FEMGPU(Mat A, IS is_row, IS is_col, MatReuse reuse, Mat *B);
// MatFEMGPUSetConstant / MatFEMGPUSetCoefficient on a Mat whose blocks exist: the same
// on every block's fem_gpu Mat (a diagonal block, an off-diagonal block's residual).
PetscErrorCode MatFEMGPUFieldsSetConstant(MatFEMGPUContext *ctx, const char name[], PetscReal value);
PetscErrorCode MatFEMGPUFieldsSetCoefficient(MatFEMGPUContext *ctx, const char name[], Vec w);
// Block (i, j) with its trial coefficient bound to w_j (a global Vec of field j's sub-DM).
PetscErrorCode MatFEMGPUOffDiagonalBlock(Mat residual, DM test_dm, Vec w_j, Mat *block);

}  // namespace femgpu
