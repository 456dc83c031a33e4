// Solver operations of a fem_gpu Mat (mat_femgpu_solver.cpp): diagonal, transpose,
// duplicate, copy, symmetry.
#pragma once

#include <petscmat.h>

namespace femgpu {

struct MatFEMGPUContext;  // mat_context.h

// Installs them at MatCreate.
PetscErrorCode MatFEMGPUSetSolverOperations(Mat A);
// At setup: the operator's symmetry, declared or checked on a cell matrix.
PetscErrorCode MatFEMGPUDetectSymmetry(Mat A, MatFEMGPUContext *ctx);

}  // namespace femgpu
