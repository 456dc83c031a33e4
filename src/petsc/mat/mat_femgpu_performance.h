// MatView's performance lines (mat_femgpu_performance.cpp).
#pragma once

#include <petscmat.h>

#include <string>

namespace femgpu {

struct MatFEMGPUContext;  // mat_context.h

// Measured GFLOP/s and GDoF/s, the roofline (Eq. 16).
PetscErrorCode MatFEMGPUDescribePerformance(Mat A, MatFEMGPUContext *ctx, std::string *text);

}  // namespace femgpu
