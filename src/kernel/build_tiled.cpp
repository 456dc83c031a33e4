// Algorithm 4 (parametric multi-level tiling). A group holds N_C cells x N_WI
// work-items (x: work-item within a cell, y: cell). For each quadrature tile of T^Q
// points: evaluation in row tiles (T_e^r points) x column tiles (T_e^c basis
// functions) with the tables prefetched into s_buf; the pointwise program writes e_j to
// s_e[N_C][QUAD_TILE][N_EVAL]; then quadrature in T_q^r test rows x T_q^c points with
// the test tables prefetched into the same s_buf (Eq. 5), and an atomic scatter. Table
// rows and the cells' slices of s_e have odd strides (schedule.h's odd_stride).
// Tables::Interleaved stores a tile's derivative tables side by side instead
// ([row][column][derivative], schedule.h), for paired 16-byte shared loads.
// Every loop bound that contains a barrier is uniform over the group; work-items of
// cells past n_cells are predicated off but still reach every barrier.
// Dofs::Registers: each work-item gathers the column tile's DOFs into its own register
// array r_<f>_tile (the paper's private memory). Dofs::Shared: the cell's N_WI
// work-items gather it together into s_<f>_tile[N_C][DOF_STRIDE_<F>], before the
// barrier that already follows the table prefetch; DOF_STRIDE is odd, so the cells of
// a warp read distinct banks and the work-items of one cell read the same word.
// Loops::Unrolled: every loop that indexes a work-item's private arrays carries
// #pragma unroll (they are constant-bound), and the quadrature loop runs points outside
// rows, so each e_j is read from s_e once per point for all of the work-item's rows.
// With Dofs::Shared as well, the evaluation loop likewise runs columns outside rows, so
// each DOF value is read from the shared tile once per column.
// This file declares the sizes and the kernel's body; build_tiled_evaluation.cpp and
// build_tiled_quadrature.cpp build its two phases, build_tiled_parts.h what they share.
#include <limits>
#include <stdexcept>

#include "kernel/build.h"
#include "kernel/build_common.h"
#include "kernel/build_tiled_parts.h"
#include "kernel/kernel_abi.h"

namespace femgpu::kernel {

using namespace tiled;

namespace {

int ceil_div(int a, int b) { return (a + b - 1) / b; }

void declare_tiled_sizes(Kernel &k, const ActionIR &ir, const Schedule &s, int Q)
{
  const TileSizes &t = s.tiles();
  const int threads = t.cells_per_group * t.items_per_cell;
  k.sizes.insert(k.sizes.end(), {{"N_C", t.cells_per_group},
                                 {"N_WI", t.items_per_cell},
                                 {"N_THREADS", threads},
                                 {"QUAD_TILE", t.quad_tile},
                                 {"N_QUAD_TILES", ceil_div(Q, t.quad_tile)},
                                 {"EVAL_ROWS", t.eval_rows},
                                 {"EVAL_ROWS_PER_ITEM", ceil_div(t.eval_rows, t.items_per_cell)},
                                 {"QUAD_ROWS", t.quad_rows},
                                 {"QUAD_COLS", t.quad_cols},
                                 {"QUAD_STRIDE", odd_stride(t.quad_cols)},
                                 {"S_E_SLOT", odd_stride(t.quad_tile * ir.n_eval())},
                                 {"N_QUAD_ROW_TILES", ceil_div(ir.n_test_basis, t.quad_rows)},
                                 {"QUAD_ROWS_PER_ITEM", ceil_div(t.quad_rows, t.items_per_cell)},
                                 {"PREFETCH_ROUNDS_TEST", ceil_div(t.quad_rows * t.quad_cols, threads)}});
  for (size_t g = 0; g < ir.groups.size(); ++g) {
    const int cols = t.eval_cols[g], n = ir.groups[g].n_basis;
    k.sizes.insert(k.sizes.end(), {{"EVAL_COLS" + G(static_cast<int>(g)), cols},
                                   {"EVAL_STRIDE" + G(static_cast<int>(g)), odd_stride(cols)},
                                   {"N_EVAL_COL_TILES" + G(static_cast<int>(g)), ceil_div(n, cols)},
                                   {"PREFETCH_ROUNDS" + G(static_cast<int>(g)), ceil_div(t.eval_rows * cols, threads)}});
  }
  for (size_t g = 0; g < ir.groups.size(); ++g)
    for (int f : ir.groups[g].functions) {
      const std::string F = upper(function_stem(f));
      const int words = t.eval_cols[g] * ir.groups[g].element.components;
      k.sizes.insert(k.sizes.end(), {{"DOF_STRIDE_" + F, dof_tile_stride(s, ir, f)}, {"DOF_ROUNDS_" + F, ceil_div(words, t.items_per_cell)}});
    }
  k.sizes.push_back({"S_BUF_WORDS", prefetch_buffer_words(s, ir)});
  k.sizes.push_back({"S_E_WORDS", evaluation_words(s, ir)});
  if (s.cell_values() == CellValues::Shared) k.sizes.push_back({"CELL_STRIDE", cell_value_stride(ir)});
}

// The group's shared arrays: s_buf, s_e, the DOF tiles (Dofs::Shared; inside s_e's
// words where they alias it) and s_cell (CellValues::Shared).
Block declare_shared_arrays(const ActionIR &ir, const Variant &v)
{
  Block b{declare_array(Space::Shared, Type::Real, "s_buf", size("S_BUF_WORDS")),
          declare_array(Space::Shared, Type::Real, "s_e", size("S_E_WORDS"))};
  Ex alias_at = var("s_e");
  if (v.shared)
    for (const EvalGroup &grp : ir.groups)
      for (int f : grp.functions) {
        const Ex words = size("N_C") * size("DOF_STRIDE_" + upper(function_stem(f)));
        if (v.alias) {
          b.push_back(declare_shared_alias(Type::Real, tile_name(f, true), alias_at));
          alias_at = alias_at + words;
        } else {
          b.push_back(declare_array(Space::Shared, Type::Real, tile_name(f, true), words));
        }
      }
  if (v.cells_shared) b.push_back(declare_array(Space::Shared, Type::Real, "s_cell", size("N_C") * size("CELL_STRIDE")));
  return b;
}

// CellValues::Shared: one work-item per cell stores the per-cell values the points read;
// the first barrier of the evaluation phase (after its first table prefetch) comes
// before any point reads them.
Block store_cell_values(const ActionIR &ir)
{
  Block store;
  const std::vector<int> held = held_cell_values(ir.pointwise);
  for (size_t i = 0; i < held.size(); ++i)
    store.push_back(assign(cell_value(static_cast<int>(i)), node_value(ir.pointwise.program, held[i])));
  return {comment("per-cell values the points read, into s_cell (cells=shared)"),
          if_then(var("r_item") < lit(1), store)};  // r_item == 0
}

// One quadrature tile: evaluation into s_e, then quadrature and scatter from it.
Stmt quadrature_tile_loop(const ActionIR &ir, const Variant &v)
{
  const Ex first = var("i_quad_tile") * size("QUAD_TILE");
  Block quad_tile{declare(Space::Register, Type::Int, "r_tile_len", min_of(size("QUAD_TILE"), size("N_QUAD") - first))};
  Block ev = evaluation_phase(ir, v), qp = quadrature_phase(ir, v);
  quad_tile.insert(quad_tile.end(), ev.begin(), ev.end());
  quad_tile.push_back(barrier());  // s_e complete before the quadrature phase reads it
  quad_tile.insert(quad_tile.end(), qp.begin(), qp.end());
  quad_tile.push_back(barrier());  // s_e is rewritten by the next tile
  return loop("i_quad_tile", lit(0), size("N_QUAD_TILES"), quad_tile);
}

Block tiled_body(const ActionIR &ir, const Tabulation &tab, const Variant &v)
{
  const Ex cell = var("r_cell"), active = var("r_active");
  Block b{declare(Space::Register, Type::Int, "r_item", builtin(Builtin::LocalX)),
          declare(Space::Register, Type::Int, "r_slot", builtin(Builtin::LocalY)),
          declare(Space::Register, Type::Int, "r_thread", var("r_slot") * size("N_WI") + var("r_item")),
          declare(Space::Register, Type::Int, "r_cell", size("N_C") * builtin(Builtin::GroupX) + var("r_slot")),
          declare(Space::Register, Type::Int, "r_active", cell < var("n_cells"))};
  auto append = [&](const Block &more) { b.insert(b.end(), more.begin(), more.end()); };
  append(declare_shared_arrays(ir, v));
  if (ir.affine) {
    const Ex n = size("N_DOFS_COORDS");
    append(gather(ir, kCoordinates, "r_coords", cell, active, lit(0), n, n));
    append(affine_jacobian(ir, tab));
  }
  b.push_back(comment("per-cell pointwise nodes, hoisted out of the quadrature loop"));
  // Divisions stay divisions here. The shared reciprocal helped SCPWI at P1 (1.32x,
  // Laplace 3D), but in tiled kernels it moved register allocation across occupancy
  // cliffs: ptxas, elasticity 3D P6 nc=8 nwi=32, 126 -> 148 registers (one group per
  // SM instead of two), which the H200 ran in 62.7 ms instead of 40.2 ms.
  append(pointwise(ir, false, [](int) { return real_lit(0.0); }, real_lit(0.0), false));
  if (v.cells_shared) append(store_cell_values(ir));
  b.push_back(quadrature_tile_loop(ir, v));
  return b;
}

}  // namespace

Kernel build_tiled(const ActionIR &ir, const Tabulation &tab, const Schedule &schedule)
{
  if (schedule.strategy() != Strategy::Tiled) throw std::invalid_argument("build_tiled: schedule is " + to_string(schedule));
  // Shapes only: whether the shared memory fits is the launching backend's check.
  validate(schedule, ir, tab.n_points(), std::numeric_limits<long long>::max());
  const TileSizes &t = schedule.tiles();
  Kernel k = begin_action_kernel(ir, tab, schedule);
  declare_tiled_sizes(k, ir, schedule, tab.n_points());
  k.block_x = t.items_per_cell;
  k.block_y = t.cells_per_group;
  k.cells_per_group = t.cells_per_group;
  k.body = tiled_body(ir, tab,
                      {schedule.dofs() == Dofs::Shared, schedule.loops() == Loops::Unrolled, schedule.tables() == Tables::Interleaved,
                       dofs_alias_evaluations(schedule), schedule.cell_values() == CellValues::Shared});
  apply_scatter(k, schedule);
  return k;
}

}  // namespace femgpu::kernel
