// The tensor-core kernel's test side (build_mma_parts.h): the quadrature product of
// each tile into the warps' r_y, by row tiles or by steps, and Y's atomic scatter.
#include "kernel/build_common.h"
#include "kernel/build_mma_parts.h"

namespace femgpu::kernel::mma {

namespace {

// This warp's row tile i_rt of Y: its rows, and whether it has that tile.
Ex warp_row_tile() { return var("r_warp") + var("i_rt") * size("N_WARPS"); }
Ex y_word(const Ex &col_tile, int h) { return var("r_y")[(var("i_rt") * size("TEST_COL_TILES") + col_tile) * lit(2) + lit(h)]; }

}  // namespace

// 2c. Y += Psi^T x s_f for this warp's row tiles, every column tile: for each test
// derivative t and step p of 4 points of the tile, A = Psi_t^T's fragment at this
// warp's row tile (mma_tables) and B = s_f's rows t * QUAD_TILE + 4 p to 4 p + 3.
Block quadrature(const ActionIR &ir)
{
  const int nd = static_cast<int>(ir.test_derivatives.size());
  Block p_step{declare(Space::Register, Type::Real, "r_a", var("g_tables")[var("r_frag") + var("i_p") * lit(32)]),
               declare(Space::Register, Type::Int, "r_k", var("i_dt") * size("QUAD_TILE") + var("i_p") * lit(4) + var("r_lane_col")),
               unrolled(loop("i_ct", lit(0), size("TEST_COL_TILES"),
                             {declare(Space::Register, Type::Real, "r_b",
                                      var("s_f")[(var("i_ct") * lit(8) + var("r_lane_row")) * size("TEST_K_STRIDE") + var("r_k")]),
                              mma_8x8x4(y_word(var("i_ct"), 0), y_word(var("i_ct"), 1), var("r_a"), var("r_b"))}))};
  Block derivative{declare(Space::Register, Type::Int, "r_frag",
                           size("OFFSET_MMA_TEST") +
                               ((var("i_dt") * size("TEST_ROW_TILES") + warp_row_tile()) * size("MMA_POINT_STEPS") + var("r_q0") / lit(4)) * lit(32) +
                               var("r_lane")),
                   unrolled(loop("i_p", lit(0), size("QUAD_STEPS"), p_step))};
  Block tile{unrolled(loop("i_dt", lit(0), lit(nd), derivative))};
  return {comment("quadrature: Y += Psi^T x s_f on the tensor cores"),
          unrolled(loop("i_rt", lit(0), size("TEST_ROW_TILES_PER_WARP"), {if_then(warp_row_tile() < size("TEST_ROW_TILES"), tile)}))};
}

// 2c with MmaQuadOrder::Steps: for each test derivative and step of 4 points, the warp
// loads every column tile's s_f fragment once into r_bq, then multiplies it with the A
// fragment of each of its row tiles.
Block quadrature_by_steps(const ActionIR &ir)
{
  const int nd = static_cast<int>(ir.test_derivatives.size());
  const Ex frag = size("OFFSET_MMA_TEST") +
                  ((var("i_dt") * size("TEST_ROW_TILES") + warp_row_tile()) * size("MMA_POINT_STEPS") + var("r_q0") / lit(4) + var("i_p")) * lit(32) +
                  var("r_lane");
  Block row_tile{declare(Space::Register, Type::Real, "r_a", var("g_tables")[frag]),
                 unrolled(loop("i_ct", lit(0), size("TEST_COL_TILES"),
                               {mma_8x8x4(y_word(var("i_ct"), 0), y_word(var("i_ct"), 1), var("r_a"), var("r_bq")[var("i_ct")])}))};
  Block p_step{declare(Space::Register, Type::Int, "r_k", var("i_dt") * size("QUAD_TILE") + var("i_p") * lit(4) + var("r_lane_col")),
               unrolled(loop("i_ct", lit(0), size("TEST_COL_TILES"),
                             {assign(var("r_bq")[var("i_ct")],
                                     var("s_f")[(var("i_ct") * lit(8) + var("r_lane_row")) * size("TEST_K_STRIDE") + var("r_k")])})),
               unrolled(loop("i_rt", lit(0), size("TEST_ROW_TILES_PER_WARP"), {if_then(warp_row_tile() < size("TEST_ROW_TILES"), row_tile)}))};
  return {comment("quadrature: Y += Psi^T x s_f on the tensor cores, each s_f fragment loaded once a step"),
          declare_array(Space::Register, Type::Real, "r_bq", size("TEST_COL_TILES")),
          unrolled(loop("i_dt", lit(0), lit(nd), {unrolled(loop("i_p", lit(0), size("QUAD_STEPS"), p_step))}))};
}

Block scatter()
{
  Block per_word;
  for (int h = 0; h < 2; ++h) {
    const std::string H = std::to_string(h);
    const Ex column = var("i_ct") * lit(8) + lit(2) * var("r_lane_col") + lit(h);
    const Ex cell = var("r_cell0") + column / size("N_COMPONENTS");
    const Ex entry = var("r_test_row") * size("N_COMPONENTS") + column % size("N_COMPONENTS");
    per_word.push_back(if_then((var("r_test_row") < size("N_TEST_BASIS")) && (cell < var("n_cells")),
                               add_to_test_dof(cell, entry, y_word(var("i_ct"), h), "r_dof" + H)));
  }
  Block tile{declare(Space::Register, Type::Int, "r_test_row", warp_row_tile() * lit(8) + var("r_lane_row")),
             unrolled(loop("i_ct", lit(0), size("TEST_COL_TILES"), per_word))};
  return {comment("scatter: other groups' cells may share DOFs"),
          unrolled(loop("i_rt", lit(0), size("TEST_ROW_TILES_PER_WARP"), {if_then(warp_row_tile() < size("TEST_ROW_TILES"), tile)}))};
}

}  // namespace femgpu::kernel::mma
