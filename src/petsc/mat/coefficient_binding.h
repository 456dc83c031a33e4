// Binding a fem_gpu Mat's coefficients at setup (coefficient_binding.cpp).
#pragma once

#include <petscmat.h>

namespace femgpu {

struct MatFEMGPUContext;  // mat_context.h

// Binds every coefficient the form uses: the Vec given, SNES's linearization point, or a
// field of the DM's auxiliary vector; errors name what is missing.
PetscErrorCode MatFEMGPUBindCoefficients(Mat A, MatFEMGPUContext *ctx);

}  // namespace femgpu
