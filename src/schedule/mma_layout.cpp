// Shared-memory layout of tensor-core kernels; see mma_layout.h.
#include "schedule/mma_layout.h"

namespace femgpu {

namespace {

int round_up(int n, int m) { return (n + m - 1) / m * m; }

// A column stride of at least `words` (a multiple of 4) that is 4 or 12 modulo 16.
int conflict_free_stride(int words) { return words % 8 == 0 ? words + 4 : words; }

int components_of(const ActionIR &ir, int function)
{
  if (function == kCoordinates) return ir.dim;
  if (function == kTrialFunction) return ir.signature.element.components;
  return ir.coefficients.at(static_cast<size_t>(function - 2)).element.components;
}

}  // namespace

long long MmaLayout::total_words() const
{
  long long words = test_words + cell_words;
  for (const MmaGroupLayout &g : groups) words += g.dof_words + g.eval_words;
  return words;
}

MmaLayout mma_layout(const MmaSizes &sizes, const ActionIR &ir)
{
  MmaLayout l;
  const int cells = sizes.cells_per_group;
  l.point_stride = sizes.quad_tile + 2;
  for (const EvalGroup &grp : ir.groups) {
    MmaGroupLayout g;
    for (int f : grp.functions) {
      g.function_column.push_back(g.columns_per_cell);
      g.columns_per_cell += components_of(ir, f);
    }
    g.columns = cells * g.columns_per_cell;
    g.k_padded = round_up(grp.n_basis, 4);
    g.k_stride = conflict_free_stride(g.k_padded);
    g.derivatives = static_cast<int>(grp.derivatives.size());
    g.dof_words = static_cast<long long>(g.columns) * g.k_stride;
    g.eval_words = static_cast<long long>(g.derivatives) * g.columns * l.point_stride;
    l.groups.push_back(g);
  }
  l.test_columns = cells * ir.signature.element.components;
  l.test_k = static_cast<int>(ir.test_derivatives.size()) * sizes.quad_tile;
  l.test_k_stride = conflict_free_stride(round_up(l.test_k, 4));
  l.test_row_tiles = (ir.n_test_basis + 7) / 8;
  l.cell_stride = odd_stride(static_cast<int>(held_cell_values(ir.pointwise).size()));
  l.test_words = static_cast<long long>(l.test_columns) * l.test_k_stride;
  l.cell_words = static_cast<long long>(cells) * l.cell_stride;
  if (sizes.operands == MmaOperands::Registers) {  // only s_cell is shared (build_mma_registers.cpp)
    for (MmaGroupLayout &g : l.groups) g.dof_words = g.eval_words = 0;
    l.test_words = 0;
  }
  return l;
}

}  // namespace femgpu
