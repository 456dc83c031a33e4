// Transfers between two Lagrange spaces on the same cells (p-multigrid levels, and a
// coefficient moved to a lower degree), as generated kernels.
//
// Takes: the shape of one cell's transfer table T (row basis x column basis, scalar,
// applied to each component alike) and a direction (fem/transfer_arrays.h).
// Returns: a Kernel (kernel_ast.h), FP64, named femgpu_transfer, whose arguments are, in
// this order:
//   n_cells            int
//   g_table            real*  T, row-major: N_ROW_BASIS x N_COL_BASIS
//   g_row_map          int*   n_cells x N_ROW_DOFS (basis-major, component-minor)
//   g_col_map          int*   n_cells x N_COL_DOFS
//   g_row_weight       real*  one per entry of the row vector
//   g_in, g_out        real*
// Forward:   out[row_map] += row_weight * (T in[col_map]), per cell (atomic adds);
// Transpose: out[col_map] += T^T (row_weight * in[row_map]), per cell.
// Negative map entries read as zero and receive nothing. With row_weight = 1 / (number
// of cells sharing the row DOF), Forward is the interpolation of a continuous function
// (every cell computes the same value of a shared DOF) and Transpose its exact transpose.
// Launch as the diagonal kernel: (block_x, block_y) work-items, ceil(n_cells /
// cells_per_group) groups.
// Does not: know PETSc or the levels; reference_transfer.h is its CPU twin.
#pragma once

#include "fem/transfer_arrays.h"
#include "kernel/kernel_ast.h"

namespace femgpu::kernel {

Kernel build_transfer(const TransferShape &shape, TransferDirection direction);

}  // namespace femgpu::kernel
