// MatConvert of a fem_gpu Mat to assembled types (mat_femgpu_assembly.cpp).
#pragma once

#include <petscmat.h>

namespace femgpu {

// Installs MatConvert at MatCreate.
PetscErrorCode MatFEMGPUSetAssemblyOperations(Mat A);
extern PetscLogEvent FEMGPU_Assembly;

}  // namespace femgpu
