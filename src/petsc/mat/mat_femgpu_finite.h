// -mat_fem_gpu_check_finite (mat_femgpu_finite.cpp).
#pragma once

#include <petscmat.h>

#include <vector>

namespace femgpu {

struct MatFEMGPUContext;  // mat_context.h

// Unless *done or the option is off, when `inputs`, the bound coefficients and the
// linearization point are finite, an error if `output` (of `operation`) is not; then
// *done. Collective on A.
PetscErrorCode MatFEMGPUCheckFinite(Mat A, MatFEMGPUContext *ctx, const char *operation, const std::vector<Vec> &inputs, Vec output, bool *done);

}  // namespace femgpu
