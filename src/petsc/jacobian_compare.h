// The fem_gpu operator against an assembled matrix of the same operator, on random vectors:
// what -mat_fem_gpu_check_jacobian measures (SNES and TS glue).
#pragma once

#include <petscmat.h>

namespace femgpu {

// worst = max over 3 random x of |J x - A x| / |A x|.
PetscErrorCode MatFEMGPUCompareWithAssembled(Mat J, Mat assembled, PetscReal *worst);

}  // namespace femgpu
