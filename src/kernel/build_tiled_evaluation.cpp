// The tiled kernel's evaluation phase (build_tiled_parts.h): for each row tile of the
// quadrature tile, each group's column tiles (DOFs gathered, tables prefetched into
// s_buf, contracted into the work-item's accumulators), then the pointwise program's e_j
// into s_e.
#include "kernel/build_common.h"
#include "kernel/build_tiled_parts.h"

namespace femgpu::kernel::tiled {

namespace {

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

// The sizes of group g's column tile i_col_tile, by the names its pieces read.
struct ColumnTile {
  Ex cols, n, col0, stride, tile_words;
  int n_tables = 0;
  ColumnTile(const ActionIR &ir, int g)
      : cols(size("EVAL_COLS" + G(g))), n(size("N_BASIS" + G(g))), col0(var("i_col_tile") * cols), stride(size("EVAL_STRIDE" + G(g))),
        tile_words(size("EVAL_ROWS") * stride), n_tables(static_cast<int>(ir.groups[static_cast<size_t>(g)].derivatives.size()))
  {
  }
};

// The column tile's DOFs of each function of group g, into its tile array.
Block gather_column_dofs(const ActionIR &ir, int g, const ColumnTile &tile, const Variant &v)
{
  const Ex r_cols = var("r_cols");
  Block b;
  for (int f : ir.groups[static_cast<size_t>(g)].functions) {
    const Ex C = lit(function_components(ir, f));
    Block gb = v.shared ? gather_shared_tile(ir, f, tile.col0 * C, tile.cols * C, r_cols * C)
                        : private_loops(v.unroll, gather(ir, f, tile_name(f, false), var("r_cell"), var("r_active"), tile.col0 * C,
                                                         tile.cols * C, r_cols * C));
    b.insert(b.end(), gb.begin(), gb.end());
  }
  return b;
}

// Group g's derivative tables at the row tile's points and the column tile's basis
// functions, into s_buf.
Block prefetch_phi_tile(int g, const ColumnTile &tile, const Variant &v)
{
  Block b{comment("prefetch Phi tiles into s_buf")};
  Block pf = prefetch("PREFETCH_ROUNDS" + G(g), var("r_rows"), var("r_cols"), [&](Ex i, Ex j) {
    Block c;
    for (int d = 0; d < tile.n_tables; ++d)
      c.push_back(assign(var("s_buf")[tile_word(v.interleaved, tile.n_tables, tile.tile_words, tile.stride, i, j, d)],
                         var("g_tables")[group_table(g, d) + (var("r_row0") + i) * tile.n + tile.col0 + j]));
    return c;
  });
  b.insert(b.end(), pf.begin(), pf.end());
  return b;
}

// The accumulations of one (row, column) of the tile: r_phi<d> from s_buf, then each
// term's accumulator += phi * DOF.
Block column_terms(const ActionIR &ir, int g, const ColumnTile &tile, const Variant &v)
{
  const EvalGroup &grp = ir.groups[static_cast<size_t>(g)];
  const Ex row = var("r_row"), j = var("i_col");
  Block terms;
  for (int d = 0; d < tile.n_tables; ++d)
    terms.push_back(declare(Space::Register, Type::Real, "r_phi" + std::to_string(d),
                            var("s_buf")[tile_word(v.interleaved, tile.n_tables, tile.tile_words, tile.stride, row, j, d)]));
  for (size_t t = 0; t < grp.terms.size(); ++t) {
    const EvalTerm &term = grp.terms[t];
    const int C = function_components(ir, term.function);
    const Ex dof = v.shared && v.unroll ? var(dof_value_name(term.function, term.component))
                                        : tile_entry(term.function, v.shared, j * lit(C) + lit(term.component));
    terms.push_back(accumulate(var(acc_name(g, static_cast<int>(t)))[var("i_row")], var("r_phi" + std::to_string(term.derivative)) * dof));
  }
  return terms;
}

// The work-item's rows x the tile's columns of column_terms.
Stmt contract_column_tile(const ActionIR &ir, int g, const ColumnTile &tile, const Variant &v)
{
  const Ex row = var("r_row"), j = var("i_col"), r_cols = var("r_cols");
  const Block terms = column_terms(ir, g, tile, v);
  if (v.shared && v.unroll) {
    // Shared DOFs, unrolled: columns outside rows, so each of the column's DOF values is
    // read from shared memory once for all of the work-item's rows (rows inside would read
    // it once per row and FMA), and held in one register, not a whole tile of them.
    Block column;
    for (int f : ir.groups[static_cast<size_t>(g)].functions) {
      const int C = function_components(ir, f);
      for (int c = 0; c < C; ++c)
        column.push_back(declare(Space::Register, Type::Real, dof_value_name(f, c), tile_entry(f, true, j * lit(C) + lit(c))));
    }
    column.push_back(unrolled(loop("i_row", lit(0), size("EVAL_ROWS_PER_ITEM"), {my_row(), if_then(row < var("r_rows"), terms)})));
    return unrolled(loop("i_col", lit(0), tile.cols, {if_then(j < r_cols, column)}));
  }
  // Columns run to the full tile width so the register tiles are indexed by constants.
  return private_loop(v.unroll, loop("i_row", lit(0), size("EVAL_ROWS_PER_ITEM"),
                                     {my_row(), if_then(row < var("r_rows"),
                                                        {private_loop(v.unroll, loop("i_col", lit(0), tile.cols, {if_then(j < r_cols, terms)}))})}));
}

// One column tile of group g: gather the tile's DOFs, prefetch its tables, contract.
Block eval_column_tile(const ActionIR &ir, int g, const Variant &v)
{
  const ColumnTile tile(ir, g);
  Block b{declare(Space::Register, Type::Int, "r_cols", min_of(tile.cols, tile.n - tile.col0))};
  for (const Block &part : {gather_column_dofs(ir, g, tile, v), prefetch_phi_tile(g, tile, v)}) b.insert(b.end(), part.begin(), part.end());
  b.push_back(barrier());
  b.push_back(contract_column_tile(ir, g, tile, v));
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

}  // namespace

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

}  // namespace femgpu::kernel::tiled
