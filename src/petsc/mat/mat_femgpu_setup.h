// Setup of a fem_gpu Mat (mat_femgpu_setup.cpp): form -> IR -> tables -> maps -> backend,
// once the DM and the form are known; and MatView.
#pragma once

#include <petscmat.h>

namespace femgpu {

// Sets A up on first use (later calls return at once); errors name what is missing.
PetscErrorCode MatFEMGPUSetUp(Mat A);
PetscErrorCode MatView_FEMGPU(Mat A, PetscViewer viewer);

}  // namespace femgpu
