// Strategy::TensorCore: the two contractions of Eq. (3) for N_c cells at once as FP64
// tensor-core products (mma.sync m8n8k4; kernel_ast.h's mma_8x8x4). A group of N_WARPS
// warps:
//   1. gathers the DOFs of every evaluated function of its N_c cells into s_u_g<g>, one
//      column per (cell, function, component), K = basis functions padded with zeros;
//      one work-item per cell computes the per-cell values (Jacobian, constants) into
//      s_cell;
//   2. for each tile of QUAD_TILE points:
//      a. evaluation, per group: E_d = Phi_d (points x basis, from g_tables) x U
//         (basis x columns), one warp task per (derivative, 8 points, column chunk),
//         stored to s_e_g<g>[derivative][column][point];
//         the tables' A operands come from kernel_abi.h's mma_tables, 32 contiguous
//         words each, zero-padded: one load a product, no bounds to test;
//      b. the pointwise program at each (cell, point), with the work-items striding over
//         them; its outputs e_j go to s_f[cell, component][test derivative, point], the
//         B operand of the quadrature product (zero where no test term reads a pair,
//         past the rule's last point and for cells past n_cells);
//      c. quadrature: Y += Psi^T (test basis x (derivative, point)) x s_f, each warp
//         accumulating its row tiles of Y for every column in registers (r_y), row
//         tile by row tile or (MmaQuadOrder::Steps) step by step of 4 points;
//   3. scatters Y with one atomic add per (test DOF, cell, component).
// Where the test table is the identity (Tabulation::test_identity: the points are the
// test basis functions) there is no quadrature product: 2b adds each (cell, point)
// value to its test DOF, and 2c and 3 are left out. Such a kernel is bound by its L1
// (the table fragments, the gathers, the adds) rather than its products, and each tile's
// adds loaded their map entries: where they fit in registers (kMaxPrefetchedTestDofs),
// every test DOF a work-item adds to is loaded once, before the gather, and the tile and
// pair loops are unrolled so that they stay in registers (1.02-1.09x on the H200's mass
// winners: bench/experiments/h200_test_dofs_prefetch.txt).
// The quadrature product and the scatter (2c, 3) are build_mma_quadrature.cpp's
// (build_mma_parts.h). The shared layout is mma_layout.h's. Every barrier is reached by the whole group; the
// products' control flow is uniform over each warp (task indices depend on the warp,
// not the lane).
#include <limits>
#include <stdexcept>

#include "kernel/build.h"
#include "kernel/build_common.h"
#include "kernel/build_mma_parts.h"
#include "kernel/kernel_abi.h"
#include "schedule/mma_layout.h"

namespace femgpu::kernel {

namespace {

int ceil_div(int a, int b) { return (a + b - 1) / b; }
std::string G(int g) { return "_G" + std::to_string(g); }

// Column tiles one evaluation task multiplies with the same A fragment: more reuse the
// table word loaded from global memory, two accumulator registers per tile.
constexpr int kMaxEvalColumnTilesPerTask = 6;

int eval_chunks(const MmaGroupLayout &g) { return ceil_div(g.columns / 8, kMaxEvalColumnTilesPerTask); }
int eval_tiles_per_chunk(const MmaGroupLayout &g) { return ceil_div(g.columns / 8, eval_chunks(g)); }

// Test DOFs a work-item of a test-identity kernel may hold in registers from the start:
// one per (tile, pair round, component) it adds to.
constexpr int kMaxPrefetchedTestDofs = 16;

int pair_rounds(const MmaSizes &m) { return ceil_div(m.cells_per_group * m.quad_tile, 32 * m.warps); }
int prefetched_test_dofs(const ActionIR &ir, const Tabulation &tab, const MmaSizes &m)
{
  return ceil_div(tab.n_points(), m.quad_tile) * pair_rounds(m) * ir.signature.element.components;
}
bool prefetches_test_dofs(const ActionIR &ir, const Tabulation &tab, const MmaSizes &m)
{
  return tab.test_identity && prefetched_test_dofs(ir, tab, m) <= kMaxPrefetchedTestDofs;
}

void declare_mma_sizes(Kernel &k, const ActionIR &ir, const Tabulation &tab, const MmaSizes &m, const MmaLayout &l)
{
  const int Q = tab.n_points();
  const int threads = 32 * m.warps;
  const MmaTables tables = mma_tables(ir, tab, static_cast<long long>(pack_tables(ir, tab).data.size()), false);
  k.sizes.insert(k.sizes.end(), {{"MMA_POINT_TILES", tables.points / 8},
                                 {"MMA_POINT_STEPS", tables.points / 4},
                                 {"QUAD_STEPS", m.quad_tile / 4},
                                 {"OFFSET_MMA_TEST", tables.test_offset}});
  k.sizes.insert(k.sizes.end(), {{"N_C", m.cells_per_group},
                                 {"N_WARPS", m.warps},
                                 {"N_THREADS", threads},
                                 {"QUAD_TILE", m.quad_tile},
                                 {"N_QUAD_TILES", ceil_div(Q, m.quad_tile)},
                                 {"POINT_STRIDE", l.point_stride},
                                 {"N_PAIRS", m.cells_per_group * m.quad_tile},
                                 {"PAIR_ROUNDS", pair_rounds(m)},
                                 {"TEST_COLUMNS", l.test_columns},
                                 {"TEST_COL_TILES", l.test_columns / 8},
                                 {"TEST_K_STRIDE", l.test_k_stride},
                                 {"TEST_ROW_TILES", l.test_row_tiles},
                                 {"TEST_ROW_TILES_PER_WARP", ceil_div(l.test_row_tiles, m.warps)},
                                 {"CELL_STRIDE", l.cell_stride}});
  for (size_t gi = 0; gi < ir.groups.size(); ++gi) {
    const MmaGroupLayout &g = l.groups[gi];
    const int tasks = g.derivatives * (m.quad_tile / 8) * eval_chunks(g);
    const std::string s = G(static_cast<int>(gi));
    k.sizes.insert(k.sizes.end(), {{"OFFSET_MMA" + s, tables.group_offsets[gi]},
                                   {"COLUMNS_PER_CELL" + s, g.columns_per_cell},
                                   {"COLUMNS" + s, g.columns},
                                   {"COL_TILES" + s, g.columns / 8},
                                   {"K_PADDED" + s, g.k_padded},
                                   {"K_STEPS" + s, g.k_padded / 4},
                                   {"K_STRIDE" + s, g.k_stride},
                                   {"EVAL_CHUNKS" + s, eval_chunks(g)},
                                   {"EVAL_TILES_PER_CHUNK" + s, eval_tiles_per_chunk(g)},
                                   {"EVAL_TASKS" + s, tasks},
                                   {"EVAL_TASK_ROUNDS" + s, ceil_div(tasks, m.warps)}});
  }
}

// build_common.h's strided over the group's N_THREADS work-items.
Stmt strided(const std::string &round, const Ex &rounds, const Ex &total, const std::string &index, Block body)
{
  return kernel::strided(round, rounds, size("N_THREADS"), var("r_thread"), total, index, std::move(body));
}

// 1. Every evaluated function's DOFs, padded with zeros to K_PADDED basis functions.
Block gather_columns(const ActionIR &ir, const MmaLayout &l)
{
  Block b{comment("gather each (cell, function, component) column of DOFs into s_u; zeros pad K")};
  for (size_t gi = 0; gi < ir.groups.size(); ++gi) {
    const EvalGroup &grp = ir.groups[gi];
    const std::string s = G(static_cast<int>(gi));
    for (size_t fi = 0; fi < grp.functions.size(); ++fi) {
      const int f = grp.functions[fi];
      const int C = function_components(ir, f);
      const Ex per_cell = size("K_PADDED" + s) * lit(C);
      const Ex k = var("r_k"), j = var("r_j"), c = var("r_c"), slot = var("r_slot");
      const Ex column = slot * size("COLUMNS_PER_CELL" + s) + lit(l.groups[gi].function_column[fi]) + c;
      Block body{declare(Space::Register, Type::Int, "r_slot", k / per_cell),
                 declare(Space::Register, Type::Int, "r_j", (k % per_cell) / lit(C)),
                 declare(Space::Register, Type::Int, "r_c", k % lit(C)),
                 declare(Space::Register, Type::Int, "r_cell", var("r_cell0") + slot)};
      Block g = gather_to(ir, f, [&](const Ex &) { return var("s_u" + s)[column * size("K_STRIDE" + s) + j]; }, var("r_cell"),
                          (var("r_cell") < var("n_cells")) && (j < size("N_BASIS" + s)), j * lit(C) + c, lit(1), lit(1));
      body.insert(body.end(), g.begin(), g.end());
      const Ex total = size("N_C") * per_cell;
      b.push_back(strided("i_round", (total + size("N_THREADS") - lit(1)) / size("N_THREADS"), total, "r_k", body));
    }
  }
  return b;
}

// 1. With Psi = I (prefetches_test_dofs): the test DOF of every (cell, point) pair this
// work-item adds to, r_test_dof[(tile * PAIR_ROUNDS + pair round) * C + c], -1 where the
// pair has none (past the rule's points or the last cell).
Block prefetch_test_dofs(const ActionIR &ir)
{
  const int C = ir.signature.element.components;
  const Ex pre = var("i_pre"), rounds = size("PAIR_ROUNDS");
  Block body{declare(Space::Register, Type::Int, "r_pair", (pre % rounds) * size("N_THREADS") + var("r_thread")),
             declare(Space::Register, Type::Int, "r_slot", var("r_pair") / size("QUAD_TILE")),
             declare(Space::Register, Type::Int, "r_qg", (pre / rounds) * size("QUAD_TILE") + var("r_pair") % size("QUAD_TILE")),
             declare(Space::Register, Type::Int, "r_has",
                     (var("r_pair") < size("N_PAIRS")) && (var("r_qg") < size("N_QUAD")) && (var("r_cell0") + var("r_slot") < var("n_cells")))};
  for (int c = 0; c < C; ++c) {
    const Ex entry = var("g_test_map")[(var("r_cell0") + var("r_slot")) * size("N_TEST_DOFS") + var("r_qg") * size("N_COMPONENTS") + lit(c)];
    body.push_back(assign(var("r_test_dof")[pre * size("N_COMPONENTS") + lit(c)], select(var("r_has"), entry, lit(-1))));
  }
  return {comment("the test DOF of each (cell, point) this work-item adds to, loaded before the gather"),
          declare_array(Space::Register, Type::Int, "r_test_dof", size("N_QUAD_TILES") * rounds * size("N_COMPONENTS")),
          unrolled(loop("i_pre", lit(0), size("N_QUAD_TILES") * rounds, body))};
}

// 2a. E = Phi_d x U for group g: tasks (derivative, row tile of 8 points, column chunk).
Block evaluate_group(int gi, const MmaLayout &l)
{
  const MmaGroupLayout &lg = l.groups[static_cast<size_t>(gi)];
  const std::string s = G(gi);
  const int per_chunk = eval_tiles_per_chunk(lg);
  const Ex row_tiles = size("QUAD_TILE") / lit(8), chunks = size("EVAL_CHUNKS" + s);
  const Ex task = var("r_task"), d = var("r_d"), mt = var("r_mt"), chunk = var("r_chunk");
  Block body{declare(Space::Register, Type::Int, "r_d", task / (row_tiles * chunks)),
             declare(Space::Register, Type::Int, "r_mt", (task % (row_tiles * chunks)) / chunks),
             declare(Space::Register, Type::Int, "r_chunk", task % chunks),
             // this task's first A operand: derivative d, point tile r_q0 / 8 + mt, basis step 0
             declare(Space::Register, Type::Int, "r_frag",
                     size("OFFSET_MMA" + s) + ((d * size("MMA_POINT_TILES") + var("r_q0") / lit(8) + mt) * size("K_STEPS" + s)) * lit(32) +
                         var("r_lane")),
             declare_array(Space::Register, Type::Real, "r_acc", lit(2 * per_chunk)),
             unrolled(loop("i_acc", lit(0), lit(2 * per_chunk), {assign(var("r_acc")[var("i_acc")], real_lit(0.0))}))};
  const Ex j = var("r_j"), tile = var("r_tile");
  Block k_step{declare(Space::Register, Type::Int, "r_j", var("i_k") * lit(4) + var("r_lane_col")),
               declare(Space::Register, Type::Real, "r_a", var("g_tables")[var("r_frag") + var("i_k") * lit(32)]),
               unrolled(loop("i_b", lit(0), lit(per_chunk),
                             {declare(Space::Register, Type::Int, "r_tile", chunk * lit(per_chunk) + var("i_b")),
                              if_then(tile < size("COL_TILES" + s),
                                      {declare(Space::Register, Type::Real, "r_b",
                                               var("s_u" + s)[(tile * lit(8) + var("r_lane_row")) * size("K_STRIDE" + s) + j]),
                                       mma_8x8x4(var("r_acc")[lit(2) * var("i_b")], var("r_acc")[lit(2) * var("i_b") + lit(1)], var("r_a"),
                                                 var("r_b"))})}))};
  body.push_back(loop("i_k", lit(0), size("K_STEPS" + s), k_step));
  Block store{declare(Space::Register, Type::Int, "r_tile", chunk * lit(per_chunk) + var("i_b"))};
  Block both;
  for (int h = 0; h < 2; ++h) {
    const Ex column = tile * lit(8) + lit(2) * var("r_lane_col") + lit(h);
    both.push_back(assign(var("s_e" + s)[(d * size("COLUMNS" + s) + column) * size("POINT_STRIDE") + mt * lit(8) + var("r_lane_row")],
                          var("r_acc")[lit(2) * var("i_b") + lit(h)]));
  }
  store.push_back(if_then(tile < size("COL_TILES" + s), both));
  body.push_back(unrolled(loop("i_b", lit(0), lit(per_chunk), store)));
  const Ex tasks = size("EVAL_TASKS" + s);
  Block round{declare(Space::Register, Type::Int, "r_task", var("i_task") * size("N_WARPS") + var("r_warp")), if_then(task < tasks, body)};
  return {comment("evaluation of group " + std::to_string(gi) + ": E = Phi_d x U on the tensor cores"),
          loop("i_task", lit(0), size("EVAL_TASK_ROUNDS" + s), round)};
}

// The s_e word of a pointwise Eval input at (r_slot, r_pair_point).
Ex eval_input(const ActionIR &ir, const MmaLayout &l, int input)
{
  const int gi = ir.pointwise.input_group[static_cast<size_t>(input)];
  const EvalGroup &grp = ir.groups[static_cast<size_t>(gi)];
  const EvalTerm &t = grp.terms[static_cast<size_t>(ir.pointwise.input_term[static_cast<size_t>(input)])];
  int fi = 0;
  while (grp.functions[static_cast<size_t>(fi)] != t.function) ++fi;
  const std::string s = G(gi);
  const Ex column = var("r_slot") * size("COLUMNS_PER_CELL" + s) + lit(l.groups[static_cast<size_t>(gi)].function_column[static_cast<size_t>(fi)] + t.component);
  return var("s_e" + s)[(lit(t.derivative) * size("COLUMNS" + s) + column) * size("POINT_STRIDE") + var("r_pair_point")];
}

// s_f's word for (this cell, component c, test derivative dt, this point).
Ex test_operand(int c, int dt)
{
  return var("s_f")[(var("r_slot") * size("N_COMPONENTS") + lit(c)) * size("TEST_K_STRIDE") + lit(dt) * size("QUAD_TILE") + var("r_pair_point")];
}

// 2b. The pointwise program at each (cell, point) of the tile; its e_j into s_f, or with
// Psi = I straight to the outputs.
Block pointwise_pairs(const ActionIR &ir, const Tabulation &tab, const MmaLayout &l, bool prefetched)
{
  const int C = ir.signature.element.components, nd = static_cast<int>(ir.test_derivatives.size());
  Block valid = mma::held_cell_reads(ir);
  Block pw = pointwise(ir, true, [&](int input) { return eval_input(ir, l, input); }, var("g_weights")[var("r_qg")], false);
  valid.insert(valid.end(), pw.begin(), pw.end());
  Block zeros;
  for (int c = 0; c < C; ++c)
    for (int dt = 0; dt < nd; ++dt) {
      const Ex sum = test_term_sum(ir, c, dt);
      if (tab.test_identity) {  // Psi = I: the points are the test basis functions
        if (!sum.node) continue;
        const std::string dof = "r_dof" + std::to_string(c);
        const Ex held = var("r_test_dof")[(var("i_quad_tile") * size("PAIR_ROUNDS") + var("i_pair")) * size("N_COMPONENTS") + lit(c)];
        const Block add = prefetched ? add_to_dof(held, sum, dof)
                                     : add_to_test_dof(var("r_cell0") + var("r_slot"), var("r_qg") * size("N_COMPONENTS") + lit(c), sum, dof);
        valid.insert(valid.end(), add.begin(), add.end());
        continue;
      }
      valid.push_back(assign(test_operand(c, dt), sum.node ? sum : real_lit(0.0)));
      zeros.push_back(assign(test_operand(c, dt), real_lit(0.0)));
    }
  Block body{declare(Space::Register, Type::Int, "r_slot", var("r_pair") / size("QUAD_TILE")),
             declare(Space::Register, Type::Int, "r_pair_point", var("r_pair") % size("QUAD_TILE")),
             declare(Space::Register, Type::Int, "r_qg", var("r_q0") + var("r_pair_point")),
             declare(Space::Register, Type::Int, "r_valid", (var("r_qg") < size("N_QUAD")) && (var("r_cell0") + var("r_slot") < var("n_cells"))),
             if_then(var("r_valid"), valid),
             if_then(unary("!", var("r_valid")), zeros)};
  const Stmt pairs = strided("i_pair", size("PAIR_ROUNDS"), size("N_PAIRS"), "r_pair", body);
  return {comment("pointwise maps e_j at each (cell, point) into s_f"), prefetched ? unrolled(pairs) : pairs};
}

Block mma_body(const ActionIR &ir, const Tabulation &tab, const MmaSizes &m, const MmaLayout &l)
{
  Block b = mma::thread_indices();
  for (size_t gi = 0; gi < ir.groups.size(); ++gi) {
    b.push_back(declare_array(Space::Shared, Type::Real, "s_u" + G(static_cast<int>(gi)), lit(l.groups[gi].dof_words)));
    b.push_back(declare_array(Space::Shared, Type::Real, "s_e" + G(static_cast<int>(gi)), lit(l.groups[gi].eval_words)));
  }
  if (!tab.test_identity) b.push_back(declare_array(Space::Shared, Type::Real, "s_f", lit(l.test_words)));
  b.push_back(declare_array(Space::Shared, Type::Real, "s_cell", lit(l.cell_words)));
  auto append = [&](const Block &more) { b.insert(b.end(), more.begin(), more.end()); };
  const bool prefetched = prefetches_test_dofs(ir, tab, m);
  if (prefetched) append(prefetch_test_dofs(ir));
  append(gather_columns(ir, l));
  append(mma::cell_values(ir, tab));
  const Ex y_words = size("TEST_ROW_TILES_PER_WARP") * size("TEST_COL_TILES") * lit(2);
  if (!tab.test_identity) {
    b.push_back(declare_array(Space::Register, Type::Real, "r_y", y_words));
    b.push_back(unrolled(loop("i_y", lit(0), y_words, {assign(var("r_y")[var("i_y")], real_lit(0.0))})));
  }
  b.push_back(barrier());  // s_u and s_cell complete
  Block tile{declare(Space::Register, Type::Int, "r_q0", var("i_quad_tile") * size("QUAD_TILE"))};
  for (size_t gi = 0; gi < ir.groups.size(); ++gi) {
    Block e = evaluate_group(static_cast<int>(gi), l);
    tile.insert(tile.end(), e.begin(), e.end());
  }
  tile.push_back(barrier());  // s_e complete before the points read it
  Block pw = pointwise_pairs(ir, tab, l, prefetched);
  tile.insert(tile.end(), pw.begin(), pw.end());
  // s_f complete before the products read it; with Psi = I (no products) the points have
  // finished reading s_e before the next tile's evaluation writes it.
  tile.push_back(barrier());
  if (tab.test_identity) {
    const Stmt tiles = loop("i_quad_tile", lit(0), size("N_QUAD_TILES"), tile);
    b.push_back(prefetched ? unrolled(tiles) : tiles);  // r_test_dof's indices known at compile time
    return b;
  }
  Block q = m.quad_order == MmaQuadOrder::Steps ? mma::quadrature_by_steps(ir) : mma::quadrature(ir);
  tile.insert(tile.end(), q.begin(), q.end());
  // No barrier here: the next tile's evaluation writes s_e, which the points finished
  // reading before the last barrier, and its points write s_f only after the next one.
  b.push_back(loop("i_quad_tile", lit(0), size("N_QUAD_TILES"), tile));
  append(mma::scatter());
  return b;
}

}  // namespace

namespace mma {

Block thread_indices()
{
  return {declare(Space::Register, Type::Int, "r_thread", builtin(Builtin::LocalX)),
          declare(Space::Register, Type::Int, "r_lane", var("r_thread") % lit(32)),
          declare(Space::Register, Type::Int, "r_warp", var("r_thread") / lit(32)),
          declare(Space::Register, Type::Int, "r_lane_row", var("r_lane") / lit(4)),
          declare(Space::Register, Type::Int, "r_lane_col", var("r_lane") % lit(4)),
          declare(Space::Register, Type::Int, "r_cell0", size("N_C") * builtin(Builtin::GroupX))};
}

// One work-item per cell: the coordinates, the affine Jacobian and the per-cell nodes
// of the pointwise program, whose held values go to s_cell.
Block cell_values(const ActionIR &ir, const Tabulation &tab)
{
  const std::vector<int> held = held_cell_values(ir.pointwise);
  if (held.empty()) return {};
  const Ex cell = var("r_cell0") + var("r_thread");
  Block body{declare(Space::Register, Type::Int, "r_cell", cell), declare(Space::Register, Type::Int, "r_active", cell < var("n_cells"))};
  auto append = [&](const Block &more) { body.insert(body.end(), more.begin(), more.end()); };
  if (ir.affine) {
    const Ex n = size("N_DOFS_COORDS");
    append(gather(ir, kCoordinates, "r_coords", var("r_cell"), var("r_active"), lit(0), n, n));
    append(affine_jacobian(ir, tab));
  }
  append(pointwise(ir, false, [](int) { return real_lit(0.0); }, real_lit(0.0), false));
  for (size_t i = 0; i < held.size(); ++i)
    body.push_back(assign(var("s_cell")[var("r_thread") * size("CELL_STRIDE") + lit(static_cast<long long>(i))],
                          node_value(ir.pointwise.program, held[i])));
  return {comment("per-cell values (Jacobian, constants) of each cell into s_cell"), if_then(var("r_thread") < size("N_C"), body)};
}

Block held_cell_reads(const ActionIR &ir)
{
  Block b;
  const std::vector<int> held = held_cell_values(ir.pointwise);
  for (size_t i = 0; i < held.size(); ++i)
    b.push_back(declare(Space::Register, Type::Real, "r_t" + std::to_string(held[i]),
                        var("s_cell")[var("r_slot") * size("CELL_STRIDE") + lit(static_cast<long long>(i))]));
  return b;
}

}  // namespace mma

Kernel build_mma(const ActionIR &ir, const Tabulation &tab, const Schedule &schedule)
{
  if (schedule.strategy() != Strategy::TensorCore) throw std::invalid_argument("build_mma: schedule is " + to_string(schedule));
  // Shapes only: whether the shared memory fits is the launching backend's check.
  validate(schedule, ir, tab.n_points(), std::numeric_limits<long long>::max());
  const MmaSizes &m = schedule.mma();
  const MmaLayout layout = mma_layout(m, ir);
  Kernel k = begin_action_kernel(ir, tab, schedule);
  declare_mma_sizes(k, ir, tab, m, layout);
  k.block_x = 32 * m.warps;
  k.block_y = 1;
  k.cells_per_group = m.cells_per_group;
  if (m.operands == MmaOperands::Registers && !tab.test_identity)
    throw std::invalid_argument("build_mma: " + to_string(schedule) +
                                ": operands=registers needs a test table that is the identity (a form whose test function enters by its "
                                "values alone, with compressed points: the mass form, b . grad(u) v + c u v); this form has a quadrature product");
  k.body = m.operands == MmaOperands::Registers ? mma::registers_body(ir, tab, layout, own_dofs_of(ir, schedule)) : mma_body(ir, tab, m, layout);
  return k;
}

}  // namespace femgpu::kernel
