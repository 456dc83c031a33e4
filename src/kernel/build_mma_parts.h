// The tensor-core kernel's parts (build_mma.cpp builds the kernel): its thread indices and
// per-cell values (build_mma.cpp), the test side (build_mma_quadrature.cpp: step 2c, the
// quadrature product Y += Psi^T x s_f into each warp's r_y, and step 3, Y's atomic
// scatter; kernels of an identity test table have neither), and the whole body of a
// kernel whose operands stay in registers (build_mma_registers.cpp).
//
// Takes: an ActionIR. Returns: kernel AST blocks that read the names and sizes the kernel
// body declares (r_warp, r_lane*, r_q0, r_cell0, r_y, s_f, g_tables ...).
// Does not: declare sizes or check the schedule (build_mma does).
#pragma once

#include "fem/action_tables.h"
#include "ir/action_ir.h"
#include "kernel/kernel_ast.h"
#include "schedule/mma_layout.h"

namespace femgpu::kernel::mma {

// r_thread, r_lane, r_warp, r_lane_row (lane / 4), r_lane_col (lane % 4), r_cell0.
Block thread_indices();
// Work-items r_thread < N_C: cell r_cell0 + r_thread's coordinates, affine Jacobian and
// held per-cell values of the pointwise program into s_cell (CELL_STRIDE words a cell).
Block cell_values(const ActionIR &ir, const Tabulation &tab);
// The held per-cell values of cell slot r_slot, read back from s_cell as r_t<node>.
Block held_cell_reads(const ActionIR &ir);
// MmaOperands::Registers (schedule.h), test table the identity: the kernel's body; `own`
// how it adds to the cell's own DOFs (build_common.h's own_dofs_of).
Block registers_body(const ActionIR &ir, const Tabulation &tab, const MmaLayout &l, OwnDofs own);

// 2c, row tile by row tile (MmaQuadOrder::Rows).
Block quadrature(const ActionIR &ir);
// 2c, step by step of 4 points (MmaQuadOrder::Steps): each s_f fragment loaded once a step.
Block quadrature_by_steps(const ActionIR &ir);
// 3. One atomic add per (test basis function, cell, component) of Y.
Block scatter();

}  // namespace femgpu::kernel::mma
