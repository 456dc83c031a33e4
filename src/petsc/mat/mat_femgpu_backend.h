// Choosing and building where a fem_gpu Mat runs (mat_femgpu_backend.cpp).
#pragma once

#include <petscmat.h>

namespace femgpu {

struct MatFEMGPUContext;  // mat_context.h

// Chooses and builds the backend (and its schedule) from the context's request.
PetscErrorCode MatFEMGPUMakeBackend(Mat A, MatFEMGPUContext *ctx);

}  // namespace femgpu
