// Kernel builders: an ActionIR, its tables and a schedule -> one kernel AST.
//
// Takes: the IR, its Tabulation (sizes, offsets, P1 gradients) and a Schedule of the
// matching strategy. Returns: a Kernel with the ABI of kernel_abi.h named
// "femgpu_action". Throws std::invalid_argument for an invalid schedule (validate()).
// Does not: print code (emit.h) or pick the schedule.
#pragma once

#include "fem/action_tables.h"
#include "ir/action_ir.h"
#include "kernel/kernel_ast.h"
#include "schedule/schedule.h"

namespace femgpu::kernel {

// Algorithm 3: one cell per work-item, everything in registers (schedule lanes=1).
Kernel build_scpwi(const ActionIR &ir, const Tabulation &tab, const Schedule &schedule);
// SCPWI with one work-item per component of each cell (lanes=C; build_scpwi_lanes.cpp).
Kernel build_scpwi_lanes(const ActionIR &ir, const Tabulation &tab, const Schedule &schedule);
// Algorithm 4: N_c cells x N_WI work-items per group, tiles prefetched into shared memory.
Kernel build_tiled(const ActionIR &ir, const Tabulation &tab, const Schedule &schedule);
// Strategy::TensorCore: N_c cells' contractions as FP64 tensor-core products
// (build_mma.cpp; CUDA only: emit_opencl refuses the products).
Kernel build_mma(const ActionIR &ir, const Tabulation &tab, const Schedule &schedule);
// The one the schedule's strategy and lanes name.
Kernel build_kernel(const ActionIR &ir, const Tabulation &tab, const Schedule &schedule);
// The diagonal of a bilinear form's matrix (build_diagonal.cpp): "femgpu_diagonal",
// FP64, arguments diagonal_arguments(ir); g_out[test DOF] += cell matrix diagonals.
// Throws std::invalid_argument for a rank-1 form.
Kernel build_diagonal(const ActionIR &ir, const Tabulation &tab);
// Every cell's matrix (build_diagonal.cpp): "femgpu_cell_matrix", FP64, arguments
// cell_matrix_arguments(ir); g_out[cell * w * w + i * w + j] = entry (test DOF i,
// trial DOF j), every entry stored (no atomics).
Kernel build_cell_matrix(const ActionIR &ir, const Tabulation &tab);

}  // namespace femgpu::kernel
