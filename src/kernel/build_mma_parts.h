// The tensor-core kernel's test side (build_mma.cpp builds the kernel,
// build_mma_quadrature.cpp these): step 2c, the quadrature product Y += Psi^T x s_f into
// each warp's r_y, and step 3, Y's atomic scatter. Kernels of an identity test table
// have neither.
//
// Takes: an ActionIR. Returns: kernel AST blocks that read the names and sizes the kernel
// body declares (r_warp, r_lane*, r_q0, r_cell0, r_y, s_f, g_tables ...).
// Does not: declare sizes or check the schedule (build_mma does).
#pragma once

#include "ir/action_ir.h"
#include "kernel/kernel_ast.h"

namespace femgpu::kernel::mma {

// 2c, row tile by row tile (MmaQuadOrder::Rows).
Block quadrature(const ActionIR &ir);
// 2c, step by step of 4 points (MmaQuadOrder::Steps): each s_f fragment loaded once a step.
Block quadrature_by_steps(const ActionIR &ir);
// 3. One atomic add per (test basis function, cell, component) of Y.
Block scatter();

}  // namespace femgpu::kernel::mma
