// A fem_gpu Mat's options (mat_femgpu_options.cpp): MatSetFromOptions.
#pragma once

#include <petscmat.h>

#include "petsc/base/petsc_compat.h"

namespace femgpu {

PetscErrorCode MatSetFromOptions_FEMGPU(Mat A, OptionItems PetscOptionsObject);

}  // namespace femgpu
