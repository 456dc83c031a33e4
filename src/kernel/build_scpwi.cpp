// Algorithm 3 (single cell per work-item): gather, affine geometry, hoisted per-cell
// pointwise nodes, then per quadrature point: evaluation loops over the basis, the
// pointwise program, accumulation into the outputs; finally an atomic scatter. Where
// the test table is the identity (Tabulation::test_identity) each point's value is its
// test DOF's and is scattered at the point: no outputs are held.
// Dofs::Registers keeps the gathered DOFs and the outputs in register arrays (r_u,
// r_out); Dofs::Shared in shared-memory columns, entry i of work-item x at
// [i * WORK_GROUP_SIZE + x] (consecutive work-items, consecutive banks), which only
// that work-item touches, so no barrier is needed.
// Scatter::Staged: each work-item writes its cell's outputs to s_stage, row x of
// N_TEST_DOFS words (the test map's layout), and after one barrier the group adds the
// rows of its cells entry by entry: work-item x adds entries x, x + WORK_GROUP_SIZE, ...,
// so a warp's adds follow one cell's map row (schedule.h says why).
#include <stdexcept>

#include "kernel/build.h"

#include <limits>
#include "kernel/build_common.h"
#include "kernel/kernel_abi.h"

namespace femgpu::kernel {

namespace {

// Where this kernel keeps a function's gathered DOFs and its outputs, and how it adds to
// its cell's own DOFs (OwnDofs::Plain only where the element has some).
struct Placement {
  bool shared = false;
  bool staged = false;  // Scatter::Staged: the outputs go to s_stage, the group adds them
  OwnDofs own = OwnDofs::Atomic;
  std::string tables = "g_tables";  // or c_tables, the constant-memory copy
  Ex column(const std::string &array, const Ex &i) const { return var(array)[i * size("WORK_GROUP_SIZE") + var("r_lane")]; }
  // Entry i of function f's DOFs; the coordinates stay in registers (the Jacobian reads them).
  Ex dof(int f, const Ex &i) const
  {
    const std::string stem = function_stem(f);
    return shared && f != kCoordinates ? column("s_" + stem, i) : var("r_" + stem)[i];
  }
  Ex out(const Ex &i) const { return shared ? column("s_out", i) : var("r_out")[i]; }
  Ex stage(const Ex &i) const { return var("s_stage")[var("r_lane") * size("N_TEST_DOFS") + i]; }
};

// All terms of one group at point iq, sharing one loop over the basis so each table
// entry is loaded once per point.
Block evaluate_group(const ActionIR &ir, const Placement &at, int g)
{
  const EvalGroup &grp = ir.groups[static_cast<size_t>(g)];
  const std::string n = "N_BASIS_G" + std::to_string(g);
  const Ex ib = var("i_basis"), iq = var("i_quad");
  Block out, body;
  for (size_t d = 0; d < grp.derivatives.size(); ++d)
    body.push_back(declare(Space::Register, Type::Real, "r_phi" + std::to_string(d),
                           var(at.tables)[group_table(g, static_cast<int>(d)) + iq * size(n) + ib]));
  for (size_t t = 0; t < grp.terms.size(); ++t) {
    const EvalTerm &term = grp.terms[t];
    const int C = function_components(ir, term.function);
    out.push_back(declare(Space::Register, Type::Real, eval_register(g, static_cast<int>(t)), real_lit(0.0), false));
    body.push_back(accumulate(var(eval_register(g, static_cast<int>(t))),
                              var("r_phi" + std::to_string(term.derivative)) * at.dof(term.function, ib * lit(C) + lit(term.component))));
  }
  out.push_back(loop("i_basis", lit(0), size(n), body));
  return out;
}

Block quadrature_point(const ActionIR &ir, const Tabulation &tab, const Placement &at)
{
  const Ex iq = var("i_quad"), ib = var("i_test");
  Block b = evaluate_and_map(ir, [&](int g) { return evaluate_group(ir, at, g); });
  if (tab.test_identity) {
    // The points are the test basis functions (Psi = I): point i_quad's value of
    // component c is test DOF (i_quad, c)'s, added straight to the output (an output
    // array indexed by the point loop would live in local memory).
    b.push_back(comment("quadrature: Psi = I, scatter each point's value"));
    for (int c = 0; c < ir.signature.element.components; ++c) {
      const Ex sum = test_term_sum(ir, c, 0);  // one test table: derivative 0
      if (!sum.node) continue;
      if (at.staged) {
        b.push_back(assign(at.stage(iq * size("N_COMPONENTS") + lit(c)), sum));
        continue;
      }
      // With OwnDofs::Plain the add sits among the point's work, which runs while its load waits.
      const Block add = add_to_test_dof(var("r_cell"), iq * size("N_COMPONENTS") + lit(c), sum, "r_dof" + std::to_string(c), at.own);
      b.insert(b.end(), add.begin(), add.end());
    }
    return b;
  }
  b.push_back(comment("quadrature: r_out += Psi e"));
  Block test;
  for (size_t d = 0; d < ir.test_derivatives.size(); ++d)
    test.push_back(declare(Space::Register, Type::Real, "r_psi" + std::to_string(d),
                           var(at.tables)[test_table(static_cast<int>(d)) + iq * size("N_TEST_BASIS") + ib]));
  for (int j = 0; j < ir.n_eval(); ++j) {
    const TestTerm &tt = ir.test_terms[static_cast<size_t>(j)];
    test.push_back(accumulate(at.out(ib * size("N_COMPONENTS") + lit(tt.component)),
                              var("r_psi" + std::to_string(tt.derivative)) *
                                  node_value(ir.pointwise.program, ir.pointwise.outputs[static_cast<size_t>(j)])));
  }
  b.push_back(loop("i_test", lit(0), size("N_TEST_BASIS"), test));
  return b;
}

// The scatter of a cell with DOFs of its own (OwnDofs::Plain): their values are loaded
// first, the shared DOFs are added atomically while the loads are under way, and then
// the own DOFs are stored: one load latency a cell, not one an own DOF (forced against
// the atomic scatter, Laplace 2D P6 ran 0.89x with the add in the loop on the H200, 0.95x
// with this form on an H100; bench/experiments/h200_owned_dofs.txt).
Block scatter_own_and_shared(const Placement &at)
{
  const Ex cell = var("r_cell"), i = var("i_out"), zero = lit(0), owned = size("N_OWNED_TEST_DOFS");
  const Ex dof = var("r_own_dof")[i], old = var("r_own_old")[i];
  return {comment("scatter: the cell's own DOFs loaded first, those other work-items may share added meanwhile"),
          declare_array(Space::Register, Type::Int, "r_own_dof", owned),
          declare_array(Space::Register, Type::Real, "r_own_old", owned),
          unrolled(loop("i_out", zero, owned,
                        {assign(dof, var("g_test_map")[cell * size("N_TEST_DOFS") + i]),
                         assign(old, select(dof >= zero, var("g_out")[dof], real_lit(0.0)))})),
          loop("i_out", owned, size("N_TEST_DOFS"), add_to_test_dof(cell, i, at.out(i))),
          unrolled(loop("i_out", zero, owned, {if_then(dof >= zero, {assign(var("g_out")[dof], old + at.out(i))})}))};
}

Block cell_body(const ActionIR &ir, const Tabulation &tab, const Placement &at)
{
  const Ex cell = var("r_cell"), yes = lit(1), zero = lit(0);
  Block b{comment("gather")};
  auto append = [&](const Block &more) { b.insert(b.end(), more.begin(), more.end()); };
  const Ex coords = size("N_DOFS_COORDS");
  append(gather(ir, kCoordinates, "r_coords", cell, yes, zero, coords, coords));
  for (const EvalGroup &g : ir.groups)
    for (int f : g.functions)
      if (f != kCoordinates) {
        const Ex n = size("N_DOFS_" + upper(function_stem(f)));
        if (at.shared) append(gather_to(ir, f, [&](const Ex &i) { return at.dof(f, i); }, cell, yes, zero, n, n));
        else append(gather(ir, f, "r_" + function_stem(f), cell, yes, zero, n, n));
      }
  if (ir.affine) append(affine_jacobian(ir, tab));
  b.push_back(comment("per-cell pointwise nodes, hoisted out of the quadrature loop"));
  append(pointwise(ir, false, [](int) { return real_lit(0.0); }, real_lit(0.0)));
  if (tab.test_identity) {  // each point scatters its own test DOF
    b.push_back(loop("i_quad", zero, size("N_QUAD"), quadrature_point(ir, tab, at)));
    return b;
  }
  if (!at.shared) b.push_back(declare_array(Space::Register, Type::Real, "r_out", size("N_TEST_DOFS")));
  b.push_back(loop("i_out", zero, size("N_TEST_DOFS"), {assign(at.out(var("i_out")), real_lit(0.0))}));
  b.push_back(loop("i_quad", zero, size("N_QUAD"), quadrature_point(ir, tab, at)));
  if (at.staged) {
    b.push_back(comment("the outputs to this work-item's row of s_stage; the group adds them"));
    b.push_back(loop("i_out", zero, size("N_TEST_DOFS"), {assign(at.stage(var("i_out")), at.out(var("i_out")))}));
    return b;
  }
  if (at.own == OwnDofs::Atomic) {
    b.push_back(comment("scatter: cells of other work-items may share DOFs"));
    b.push_back(loop("i_out", zero, size("N_TEST_DOFS"), add_to_test_dof(cell, var("i_out"), at.out(var("i_out")))));
    return b;
  }
  append(scatter_own_and_shared(at));
  return b;
}

// Scatter::Staged, after the cells' work and a barrier: the rows of the group's cells
// (fewer in the last group) added entry by entry, the test map's rows read in order.
Block group_scatter()
{
  const Ex wg = size("WORK_GROUP_SIZE"), n = size("N_TEST_DOFS"), entry = var("r_entry"), cell0 = var("r_group_cell0");
  return {barrier(),
          comment("scatter: the group's staged rows, entry by entry"),
          declare(Space::Register, Type::Int, "r_group_cell0", wg * builtin(Builtin::GroupX)),
          declare(Space::Register, Type::Int, "r_group_entries", min_of(wg, var("n_cells") - cell0) * n),
          strided("i_round", n, wg, var("r_lane"), var("r_group_entries"), "r_entry",
                  add_to_dof(var("g_test_map")[cell0 * n + entry], var("s_stage")[entry]))};
}

}  // namespace

Kernel build_scpwi(const ActionIR &ir, const Tabulation &tab, const Schedule &schedule)
{
  if (schedule.strategy() != Strategy::SingleCellPerWorkItem || schedule.lanes() != 1)
    throw std::invalid_argument("build_scpwi: schedule is " + to_string(schedule));
  // Shapes only: whether the shared memory fits is the launching backend's check.
  validate(schedule, ir, tab.n_points(), std::numeric_limits<long long>::max());
  Kernel k;
  Placement at{schedule.dofs() == Dofs::Shared, schedule.scatter() == Scatter::Staged};
  at.tables = begin_scpwi_kernel(k, ir, tab, schedule);
  at.own = own_dofs_of(ir, schedule);
  const Ex cell = size("WORK_GROUP_SIZE") * builtin(Builtin::GroupX) + builtin(Builtin::LocalX);
  // Shared arrays at kernel scope: OpenCL C allows __local declarations nowhere else.
  k.body = {};
  if (at.shared || at.staged) k.body.push_back(declare(Space::Register, Type::Int, "r_lane", builtin(Builtin::LocalX)));
  if (at.staged) k.body.push_back(declare_array(Space::Shared, Type::Real, "s_stage", size("N_TEST_DOFS") * size("WORK_GROUP_SIZE")));
  if (at.shared) {
    for (const EvalGroup &g : ir.groups)
      for (int f : g.functions)
        if (f != kCoordinates)
          k.body.push_back(declare_array(Space::Shared, Type::Real, "s_" + function_stem(f),
                                         size("N_DOFS_" + upper(function_stem(f))) * size("WORK_GROUP_SIZE")));
    if (!tab.test_identity) k.body.push_back(declare_array(Space::Shared, Type::Real, "s_out", size("N_TEST_DOFS") * size("WORK_GROUP_SIZE")));
  }
  k.body.push_back(declare(Space::Register, Type::Int, "r_cell", cell));
  k.body.push_back(if_then(var("r_cell") < var("n_cells"), cell_body(ir, tab, at)));
  if (at.staged) {
    const Block scatter = group_scatter();
    k.body.insert(k.body.end(), scatter.begin(), scatter.end());
  }
  apply_scatter(k, schedule);
  return k;
}

Kernel build_kernel(const ActionIR &ir, const Tabulation &tab, const Schedule &schedule)
{
  if (schedule.strategy() == Strategy::Assembled)
    throw std::invalid_argument("build_kernel: an assembled schedule has no action kernel (it runs kernel/sliced_spmv.h on summed cell matrices)");
  Kernel k = schedule.strategy() == Strategy::Tiled        ? build_tiled(ir, tab, schedule)
             : schedule.strategy() == Strategy::TensorCore ? build_mma(ir, tab, schedule)
             : schedule.lanes() == 1                       ? build_scpwi(ir, tab, schedule)
                                                           : build_scpwi_lanes(ir, tab, schedule);
  k.groups_per_sm = schedule.groups_per_sm();  // a launch bound, the same for every builder
  return k;
}

}  // namespace femgpu::kernel
