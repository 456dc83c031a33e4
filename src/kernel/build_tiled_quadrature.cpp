// The tiled kernel's quadrature phase (build_tiled_parts.h): for each row tile of test
// functions, the test tables prefetched into s_buf and contracted with s_e's e_j into
// r_out (Eq. 5), then r_out's atomic scatter into g_out.
#include "kernel/build_common.h"
#include "kernel/build_tiled_parts.h"

namespace femgpu::kernel::tiled {

namespace {

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
    const Block add = add_to_test_dof(var("r_cell"), entry, var("r_out")[var("i_row") * size("N_COMPONENTS") + lit(c)], "r_dof" + std::to_string(c));
    per_component.insert(per_component.end(), add.begin(), add.end());
  }
  return {comment("scatter: other groups' cells may share DOFs"),
          private_loop(unroll, loop("i_row", lit(0), size("QUAD_ROWS_PER_ITEM"),
                                    {my_row(),
                                     if_then(var("r_active") && (row < var("r_trows")), per_component)}))};
}

}  // namespace

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

}  // namespace femgpu::kernel::tiled
