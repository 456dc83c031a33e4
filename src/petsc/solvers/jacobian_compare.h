// The fem_gpu operator against an assembled matrix of the same operator, on random vectors:
// what -mat_fem_gpu_check_jacobian measures (SNES and TS glue).
#pragma once

#include <petscdm.h>
#include <petscmat.h>

namespace femgpu {

// An AIJ matrix of the DM's pattern, for the program's own Jacobian to assemble into
// (the DM's matrix type is fem_gpu; it is set back).
PetscErrorCode MatFEMGPUCreateAIJOfDM(DM dm, Mat *assembled);

// worst = max over 3 random x of |J x - A x| / |A x|.
PetscErrorCode MatFEMGPUCompareWithAssembled(Mat J, Mat assembled, PetscReal *worst);

}  // namespace femgpu
