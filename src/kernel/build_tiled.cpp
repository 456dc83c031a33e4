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
#include <functional>
#include <stdexcept>

#include "kernel/build.h"

#include <limits>
#include "kernel/build_common.h"
#include "kernel/kernel_abi.h"

namespace femgpu::kernel {

namespace {

int ceil_div(int a, int b) { return (a + b - 1) / b; }

// The loop, marked for full unrolling when the schedule asks for it (Loops::Unrolled).
Stmt private_loop(bool unroll, Stmt for_loop) { return unroll ? unrolled(std::move(for_loop)) : for_loop; }

// The block's top-level loops, marked likewise (a register gather's loop over its tile).
Block private_loops(bool unroll, Block b)
{
  for (Stmt &s : b)
    if (s.kind == Stmt::For) s = private_loop(unroll, std::move(s));
  return b;
}
// r_row: the work-item's i_row-th row of a tile (rows are dealt round-robin over N_WI).
Stmt my_row() { return declare(Space::Register, Type::Int, "r_row", var("i_row") * size("N_WI") + var("r_item")); }

std::string G(int g) { return "_G" + std::to_string(g); }

// The schedule's choices that change the tiled kernel's code (not its sizes).
struct Variant {
  bool shared = false;       // Dofs::Shared
  bool unroll = false;       // Loops::Unrolled
  bool interleaved = false;  // Tables::Interleaved
  bool alias = false;        // the shared DOF tiles live in s_e's words (dofs_alias_evaluations)
  bool cells_shared = false; // CellValues::Shared
};

// Entry (i, j) of derivative table d of a prefetched tile of n_tables tables with rows
// of `stride` words: tables one after another (tile_words apart), or with
// Tables::Interleaved a point's n_tables derivatives side by side, so the unrolled
// loops' reads of an even number of them pair into 16-byte loads.
Ex tile_word(bool interleaved, int n_tables, const Ex &tile_words, const Ex &stride, const Ex &i, const Ex &j, int d)
{
  if (interleaved) return (i * stride + j) * lit(n_tables) + lit(d);
  return lit(d) * tile_words + i * stride + j;
}
std::string acc_name(int g, int t) { return "r_acc_g" + std::to_string(g) + "_t" + std::to_string(t); }

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

// Cooperative copy of a rows x cols tile: the group's work-items stride over its
// entries; copy(i, j) stores entry (i, j).
Block prefetch(const std::string &rounds, const Ex &rows, const Ex &cols, const std::function<Block(Ex, Ex)> &copy)
{
  const Ex k = var("r_k");
  Block inner{declare(Space::Register, Type::Int, "r_i", k / cols), declare(Space::Register, Type::Int, "r_j", k % cols)};
  Block c = copy(var("r_i"), var("r_j"));
  inner.insert(inner.end(), c.begin(), c.end());
  return {loop("i_round", lit(0), size(rounds),
               {declare(Space::Register, Type::Int, "r_k", var("i_round") * size("N_THREADS") + var("r_thread")),
                if_then(k < rows * cols, inner)})};
}

// Per-cell value i of this cell (CellValues::Shared).
Ex cell_value(int i) { return var("s_cell")[var("r_slot") * size("CELL_STRIDE") + lit(i)]; }

std::string tile_name(int f, bool shared) { return (shared ? "s_" : "r_") + function_stem(f) + "_tile"; }

// Entry i of this cell's column tile of function f.
Ex tile_entry(int f, bool shared, const Ex &i)
{
  if (!shared) return var(tile_name(f, false))[i];
  return var(tile_name(f, true))[var("r_slot") * size("DOF_STRIDE_" + upper(function_stem(f))) + i];
}

// One DOF value of the current column, read once from the shared tile (shared, unrolled).
std::string dof_value_name(int f, int c) { return "r_" + function_stem(f) + "_dof" + std::to_string(c); }

// The cell's N_WI work-items gather its column tile of f into shared memory together.
Block gather_shared_tile(const ActionIR &ir, int f, const Ex &first, const Ex &count, const Ex &valid)
{
  const Ex mine = var("r_entry");
  Block one = gather_to(ir, f, [&](const Ex &i) { return tile_entry(f, true, mine + i); }, var("r_cell"), var("r_active"), first + mine,
                        lit(1), valid - mine);
  return {loop("i_part", lit(0), size("DOF_ROUNDS_" + upper(function_stem(f))),
               {declare(Space::Register, Type::Int, "r_entry", var("i_part") * size("N_WI") + var("r_item")),
                if_then(mine < count, one)})};
}

// One column tile of group g: gather the tile's DOFs, prefetch its tables, contract.
Block eval_column_tile(const ActionIR &ir, int g, const Variant &v)
{
  const EvalGroup &grp = ir.groups[static_cast<size_t>(g)];
  const Ex cols = size("EVAL_COLS" + G(g)), n = size("N_BASIS" + G(g)), col0 = var("i_col_tile") * cols;
  const Ex r_cols = var("r_cols"), stride = size("EVAL_STRIDE" + G(g)), tile_words = size("EVAL_ROWS") * stride;
  const int nd = static_cast<int>(grp.derivatives.size());
  Block b{declare(Space::Register, Type::Int, "r_cols", min_of(cols, n - col0))};
  for (int f : grp.functions) {
    const Ex C = lit(function_components(ir, f));
    Block gb = v.shared ? gather_shared_tile(ir, f, col0 * C, cols * C, r_cols * C)
                        : private_loops(v.unroll, gather(ir, f, tile_name(f, false), var("r_cell"), var("r_active"), col0 * C, cols * C, r_cols * C));
    b.insert(b.end(), gb.begin(), gb.end());
  }
  b.push_back(comment("prefetch Phi tiles into s_buf"));
  Block pf = prefetch("PREFETCH_ROUNDS" + G(g), var("r_rows"), r_cols, [&](Ex i, Ex j) {
    Block c;
    for (int d = 0; d < nd; ++d)
      c.push_back(assign(var("s_buf")[tile_word(v.interleaved, nd, tile_words, stride, i, j, d)],
                         var("g_tables")[group_table(g, d) + (var("r_row0") + i) * n + col0 + j]));
    return c;
  });
  b.insert(b.end(), pf.begin(), pf.end());
  b.push_back(barrier());
  const Ex row = var("r_row"), j = var("i_col");
  Block terms;
  for (int d = 0; d < nd; ++d)
    terms.push_back(declare(Space::Register, Type::Real, "r_phi" + std::to_string(d),
                            var("s_buf")[tile_word(v.interleaved, nd, tile_words, stride, row, j, d)]));
  for (size_t t = 0; t < grp.terms.size(); ++t) {
    const EvalTerm &term = grp.terms[t];
    const int C = function_components(ir, term.function);
    const Ex dof = v.shared && v.unroll ? var(dof_value_name(term.function, term.component))
                                        : tile_entry(term.function, v.shared, j * lit(C) + lit(term.component));
    terms.push_back(accumulate(var(acc_name(g, static_cast<int>(t)))[var("i_row")], var("r_phi" + std::to_string(term.derivative)) * dof));
  }
  if (v.shared && v.unroll) {
    // Shared DOFs, unrolled: columns outside rows, so each of the column's DOF values is
    // read from shared memory once for all of the work-item's rows (rows inside would read
    // it once per row and FMA), and held in one register, not a whole tile of them.
    Block column;
    for (int f : grp.functions) {
      const int C = function_components(ir, f);
      for (int c = 0; c < C; ++c)
        column.push_back(declare(Space::Register, Type::Real, dof_value_name(f, c), tile_entry(f, true, j * lit(C) + lit(c))));
    }
    column.push_back(unrolled(loop("i_row", lit(0), size("EVAL_ROWS_PER_ITEM"), {my_row(), if_then(row < var("r_rows"), terms)})));
    b.push_back(unrolled(loop("i_col", lit(0), cols, {if_then(j < r_cols, column)})));
  } else {
    // Columns run to the full tile width so the register tiles are indexed by constants.
    b.push_back(private_loop(v.unroll, loop("i_row", lit(0), size("EVAL_ROWS_PER_ITEM"),
                                            {my_row(), if_then(row < var("r_rows"), {private_loop(v.unroll, loop("i_col", lit(0), cols, {if_then(j < r_cols, terms)}))})})));
  }
  b.push_back(barrier());
  return b;
}

Block evaluate_group(const ActionIR &ir, int g, const Variant &v)
{
  const EvalGroup &grp = ir.groups[static_cast<size_t>(g)];
  Block b{comment("evaluation of group " + std::to_string(g))};
  for (size_t t = 0; t < grp.terms.size(); ++t) {
    const std::string a = acc_name(g, static_cast<int>(t));
    b.push_back(declare_array(Space::Register, Type::Real, a, size("EVAL_ROWS_PER_ITEM")));
    b.push_back(private_loop(v.unroll, loop("i_row", lit(0), size("EVAL_ROWS_PER_ITEM"), {assign(var(a)[var("i_row")], real_lit(0.0))})));
  }
  b.push_back(loop("i_col_tile", lit(0), size("N_EVAL_COL_TILES" + G(g)), eval_column_tile(ir, g, v)));
  return b;
}

// e_j for this work-item's rows of the row tile, into s_e.
Block pointwise_rows(const ActionIR &ir, bool unroll, bool cells_shared)
{
  const Ex row = var("r_row");
  auto eval = [&](int input) {
    return var(acc_name(ir.pointwise.input_group[static_cast<size_t>(input)],
                        ir.pointwise.input_term[static_cast<size_t>(input)]))[var("i_row")];
  };
  Block body;
  if (cells_shared) {
    // The same names as the per-cell registers, in this inner scope: the point code reads
    // these, so the registers die once stored to s_cell.
    const std::vector<int> held = held_cell_values(ir.pointwise);
    for (size_t i = 0; i < held.size(); ++i)
      body.push_back(declare(Space::Register, Type::Real, "r_t" + std::to_string(held[i]), cell_value(static_cast<int>(i))));
  }
  Block pw = pointwise(ir, true, eval, var("g_weights")[var("r_row0") + row], false);
  body.insert(body.end(), pw.begin(), pw.end());
  const Ex point = var("i_row_tile") * size("EVAL_ROWS") + row;  // within the quadrature tile
  for (int j = 0; j < ir.n_eval(); ++j)
    body.push_back(assign(var("s_e")[var("r_slot") * size("S_E_SLOT") + point * size("N_EVAL") + lit(j)],
                          node_value(ir.pointwise.program, ir.pointwise.outputs[static_cast<size_t>(j)])));
  return {comment("pointwise maps e_j into s_e"),
          private_loop(unroll, loop("i_row", lit(0), size("EVAL_ROWS_PER_ITEM"),
                                    {my_row(),
                                     if_then(row < var("r_rows"), body)}))};
}

Block evaluation_phase(const ActionIR &ir, const Variant &v)
{
  const Ex first = var("i_row_tile") * size("EVAL_ROWS");
  Block tile{declare(Space::Register, Type::Int, "r_rows", min_of(size("EVAL_ROWS"), var("r_tile_len") - first)),
             declare(Space::Register, Type::Int, "r_row0", var("i_quad_tile") * size("QUAD_TILE") + first)};
  for (size_t g = 0; g < ir.groups.size(); ++g) {
    Block e = evaluate_group(ir, static_cast<int>(g), v);
    tile.insert(tile.end(), e.begin(), e.end());
  }
  Block pw = pointwise_rows(ir, v.unroll, v.cells_shared);
  tile.insert(tile.end(), pw.begin(), pw.end());
  // A trip count uniform over the group instead of an `if` around barriers: PoCL
  // mis-compiles barriers under conditionals inside loops, and no barrier sits under a
  // condition this way.
  const Ex rows = size("EVAL_ROWS");
  return {declare(Space::Register, Type::Int, "r_row_tiles", (var("r_tile_len") + rows - lit(1)) / rows),
          loop("i_row_tile", lit(0), var("r_row_tiles"), tile)};
}

Block quadrature_column_tile(const ActionIR &ir, const Variant &v)
{
  const Ex qcols = size("QUAD_COLS"), stride = size("QUAD_STRIDE"), tile_words = size("QUAD_ROWS") * stride;
  const int nd = static_cast<int>(ir.test_derivatives.size());
  const Ex col0 = var("i_qcol_tile") * qcols;
  const Ex trow0 = var("i_qrow_tile") * size("QUAD_ROWS");
  Block b{declare(Space::Register, Type::Int, "r_qcols", min_of(qcols, var("r_tile_len") - col0)),
          comment("prefetch Psi tiles into s_buf")};
  Block pf = prefetch("PREFETCH_ROUNDS_TEST", var("r_trows"), var("r_qcols"), [&](Ex i, Ex j) {
    Block c;
    const Ex point = var("i_quad_tile") * size("QUAD_TILE") + col0 + j;
    for (int d = 0; d < nd; ++d)
      c.push_back(assign(var("s_buf")[tile_word(v.interleaved, nd, tile_words, stride, i, j, d)],
                         var("g_tables")[test_table(d) + point * size("N_TEST_BASIS") + trow0 + i]));
    return c;
  });
  b.insert(b.end(), pf.begin(), pf.end());
  b.push_back(barrier());
  const Ex row = var("r_row"), jq = var("i_qcol");
  auto e_entry = [&](int j) { return var("s_e")[var("r_slot") * size("S_E_SLOT") + (col0 + jq) * size("N_EVAL") + lit(j)]; };
  Block terms;
  for (int d = 0; d < nd; ++d)
    terms.push_back(declare(Space::Register, Type::Real, "r_psi" + std::to_string(d),
                            var("s_buf")[tile_word(v.interleaved, nd, tile_words, stride, row, jq, d)]));
  for (int j = 0; j < ir.n_eval(); ++j) {
    const TestTerm &tt = ir.test_terms[static_cast<size_t>(j)];
    // Unrolled: e_j was read once for this point into r_e<j>, outside the row loop.
    const Ex e = v.unroll ? var("r_e" + std::to_string(j)) : e_entry(j);
    terms.push_back(accumulate(var("r_out")[var("i_row") * size("N_COMPONENTS") + lit(tt.component)],
                               var("r_psi" + std::to_string(tt.derivative)) * e));
  }
  if (!v.unroll) {
    b.push_back(loop("i_row", lit(0), size("QUAD_ROWS_PER_ITEM"),
                     {my_row(), if_then(row < var("r_trows"), {loop("i_qcol", lit(0), qcols, {if_then(jq < var("r_qcols"), terms)})})}));
  } else {
    Block point;
    for (int j = 0; j < ir.n_eval(); ++j) point.push_back(declare(Space::Register, Type::Real, "r_e" + std::to_string(j), e_entry(j)));
    point.push_back(unrolled(loop("i_row", lit(0), size("QUAD_ROWS_PER_ITEM"), {my_row(), if_then(row < var("r_trows"), terms)})));
    b.push_back(unrolled(loop("i_qcol", lit(0), qcols, {if_then(jq < var("r_qcols"), point)})));
  }
  b.push_back(barrier());
  return b;
}

Block scatter_rows(const ActionIR &ir, bool unroll)
{
  const int C = ir.signature.element.components;
  const Ex row = var("r_row");
  Block per_component;
  for (int c = 0; c < C; ++c) {
    const Ex entry = (var("i_qrow_tile") * size("QUAD_ROWS") + row) * size("N_COMPONENTS") + lit(c);
    per_component.push_back(declare(Space::Register, Type::Int, "r_dof" + std::to_string(c),
                                    var("g_test_map")[var("r_cell") * size("N_TEST_DOFS") + entry]));
    const Ex dc = var("r_dof" + std::to_string(c));
    per_component.push_back(if_then(dc >= lit(0), {atomic_add(address_of(var("g_out")[dc]),
                                                              var("r_out")[var("i_row") * size("N_COMPONENTS") + lit(c)])}));
  }
  return {comment("scatter: other groups' cells may share DOFs"),
          private_loop(unroll, loop("i_row", lit(0), size("QUAD_ROWS_PER_ITEM"),
                                    {my_row(),
                                     if_then(var("r_active") && (row < var("r_trows")), per_component)}))};
}

Block quadrature_phase(const ActionIR &ir, const Variant &v)
{
  const Ex out_words = size("QUAD_ROWS_PER_ITEM") * size("N_COMPONENTS");
  const Ex trow0 = var("i_qrow_tile") * size("QUAD_ROWS");
  Block row_tile{declare(Space::Register, Type::Int, "r_trows", min_of(size("QUAD_ROWS"), size("N_TEST_BASIS") - trow0)),
                 declare_array(Space::Register, Type::Real, "r_out", out_words),
                 private_loop(v.unroll, loop("i_out", lit(0), out_words, {assign(var("r_out")[var("i_out")], real_lit(0.0))})),
                 declare(Space::Register, Type::Int, "r_qcol_tiles", (var("r_tile_len") + size("QUAD_COLS") - lit(1)) / size("QUAD_COLS")),
                 loop("i_qcol_tile", lit(0), var("r_qcol_tiles"), quadrature_column_tile(ir, v))};
  Block sc = scatter_rows(ir, v.unroll);
  row_tile.insert(row_tile.end(), sc.begin(), sc.end());
  return {comment("quadrature: r_out = Psi e over this quadrature tile"),
          loop("i_qrow_tile", lit(0), size("N_QUAD_ROW_TILES"), row_tile)};
}

Block tiled_body(const ActionIR &ir, const Tabulation &tab, const Variant &v)
{
  const Ex cell = var("r_cell"), active = var("r_active");
  Block b{declare(Space::Register, Type::Int, "r_item", builtin(Builtin::LocalX)),
          declare(Space::Register, Type::Int, "r_slot", builtin(Builtin::LocalY)),
          declare(Space::Register, Type::Int, "r_thread", var("r_slot") * size("N_WI") + var("r_item")),
          declare(Space::Register, Type::Int, "r_cell", size("N_C") * builtin(Builtin::GroupX) + var("r_slot")),
          declare(Space::Register, Type::Int, "r_active", cell < var("n_cells")),
          declare_array(Space::Shared, Type::Real, "s_buf", size("S_BUF_WORDS")),
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
  auto append = [&](const Block &more) { b.insert(b.end(), more.begin(), more.end()); };
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
  if (v.cells_shared) {
    // One work-item per cell stores them; the first barrier of the evaluation phase (after
    // its first table prefetch) comes before any point reads them.
    Block store;
    const std::vector<int> held = held_cell_values(ir.pointwise);
    for (size_t i = 0; i < held.size(); ++i)
      store.push_back(assign(cell_value(static_cast<int>(i)), node_value(ir.pointwise.program, held[i])));
    b.push_back(comment("per-cell values the points read, into s_cell (cells=shared)"));
    b.push_back(if_then(var("r_item") < lit(1), store));  // r_item == 0
  }
  const Ex first = var("i_quad_tile") * size("QUAD_TILE");
  Block quad_tile{declare(Space::Register, Type::Int, "r_tile_len", min_of(size("QUAD_TILE"), size("N_QUAD") - first))};
  Block ev = evaluation_phase(ir, v), qp = quadrature_phase(ir, v);
  quad_tile.insert(quad_tile.end(), ev.begin(), ev.end());
  quad_tile.push_back(barrier());  // s_e complete before the quadrature phase reads it
  quad_tile.insert(quad_tile.end(), qp.begin(), qp.end());
  quad_tile.push_back(barrier());  // s_e is rewritten by the next tile
  b.push_back(loop("i_quad_tile", lit(0), size("N_QUAD_TILES"), quad_tile));
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
