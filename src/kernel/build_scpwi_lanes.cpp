// SCPWI with one work-item per component of each cell (schedule lanes=C, schedule.h).
//
// Lane c of a cell gathers component c of every split function (lane_split) and of
// the output, evaluates its component of each exchange row (lane_exchange_rows) at a
// quadrature point, and writes it to the shared buffer s_lanes; after one barrier
// every lane reads the cell's C values of each row, runs the whole pointwise program
// and accumulates the test terms of its own component. Functions that are not split
// (scalar coefficients) every lane gathers and evaluates whole, as SCPWI does.
//
// s_lanes[half][row][component][cell slot]: half = i_quad % 2, so a lane writing the
// next point cannot overwrite values another lane still reads (it would first have to
// pass the barrier that lane has not reached). Lanes of cells past n_cells run the
// loops on zeros, because every work-item must reach the barrier, and scatter nothing.
#include <stdexcept>

#include "kernel/build.h"

#include <limits>
#include "kernel/build_common.h"
#include "kernel/kernel_abi.h"

namespace femgpu::kernel {

namespace {

const Ex kLane = var("r_lane");  // this work-item's component
const Ex kSlot = var("r_slot");  // its cell within the group

std::string row_register(int row) { return "r_l" + std::to_string(row); }

int row_of(const std::vector<LaneRow> &rows, int group, const EvalTerm &t)
{
  for (size_t r = 0; r < rows.size(); ++r)
    if (rows[r].group == group && rows[r].function == t.function && rows[r].derivative == t.derivative) return static_cast<int>(r);
  throw std::logic_error("build_scpwi_lanes: a split term has no exchange row");
}

Ex exchange_slot(const Ex &row, const Ex &component)
{
  const Ex half = var("i_quad") % lit(2);
  return var("s_lanes")[((half * size("N_LANE_ROWS") + row) * size("N_COMPONENTS") + component) * size("WORK_GROUP_SIZE") + kSlot];
}

// Group g at point i_quad: this lane's component of each split row, and the whole
// value of every term of an unsplit function; one loop over the basis.
Block evaluate_group(const ActionIR &ir, const std::vector<LaneRow> &rows, const std::string &tables, int g)
{
  const EvalGroup &grp = ir.groups[static_cast<size_t>(g)];
  const Ex ib = var("i_basis"), iq = var("i_quad");
  Block out, body;
  for (size_t d = 0; d < grp.derivatives.size(); ++d)
    body.push_back(declare(Space::Register, Type::Real, "r_phi" + std::to_string(d),
                           var(tables)[group_table(g, static_cast<int>(d)) + iq * size("N_BASIS_G" + std::to_string(g)) + ib]));
  for (size_t r = 0; r < rows.size(); ++r) {
    if (rows[r].group != g) continue;
    out.push_back(declare(Space::Register, Type::Real, row_register(static_cast<int>(r)), real_lit(0.0), false));
    body.push_back(accumulate(var(row_register(static_cast<int>(r))),
                              var("r_phi" + std::to_string(rows[r].derivative)) * var("r_" + function_stem(rows[r].function))[ib]));
  }
  for (size_t t = 0; t < grp.terms.size(); ++t) {
    const EvalTerm &term = grp.terms[t];
    if (lane_split(ir, term.function)) continue;
    const int C = function_components(ir, term.function);
    out.push_back(declare(Space::Register, Type::Real, eval_register(g, static_cast<int>(t)), real_lit(0.0), false));
    body.push_back(accumulate(var(eval_register(g, static_cast<int>(t))),
                              var("r_phi" + std::to_string(term.derivative)) *
                                  var("r_" + function_stem(term.function))[ib * lit(C) + lit(term.component)]));
  }
  out.push_back(loop("i_basis", lit(0), size("N_BASIS_G" + std::to_string(g)), body));
  return out;
}

// This lane's factor of test derivative d: the sum of the pointwise outputs e_j with
// test term (its component, d).
Ex lane_output(const ActionIR &ir, int d)
{
  const int C = ir.signature.element.components;
  Ex value = real_lit(0.0);
  for (int c = 0; c < C; ++c) {
    const Ex sum = test_term_sum(ir, c, d);
    if (sum.node) value = select(binary("==", kLane, lit(c)), sum, value);
  }
  return value;
}

Block quadrature_point(const ActionIR &ir, const Tabulation &tab, const std::vector<LaneRow> &rows, const std::string &tables)
{
  const Ex iq = var("i_quad"), ib = var("i_test");
  Block b{comment("evaluation: this lane's component of the split functions")};
  for (size_t g = 0; g < ir.groups.size(); ++g) {
    Block e = evaluate_group(ir, rows, tables, static_cast<int>(g));
    b.insert(b.end(), e.begin(), e.end());
  }
  b.push_back(comment("exchange: every lane reads the cell's C components of each row"));
  for (size_t r = 0; r < rows.size(); ++r)
    b.push_back(assign(exchange_slot(lit(static_cast<long long>(r)), kLane), var(row_register(static_cast<int>(r)))));
  b.push_back(barrier());
  for (size_t g = 0; g < ir.groups.size(); ++g)
    for (size_t t = 0; t < ir.groups[g].terms.size(); ++t) {
      const EvalTerm &term = ir.groups[g].terms[t];
      if (!lane_split(ir, term.function)) continue;
      b.push_back(declare(Space::Register, Type::Real, eval_register(static_cast<int>(g), static_cast<int>(t)),
                          exchange_slot(lit(row_of(rows, static_cast<int>(g), term)), lit(term.component))));
    }
  Block pw = pointwise_at_point(ir);
  b.insert(b.end(), pw.begin(), pw.end());
  b.push_back(comment("quadrature: r_out += Psi e, this lane's component"));
  Block test;
  for (size_t d = 0; d < ir.test_derivatives.size(); ++d) {
    const Ex e = lane_output(ir, static_cast<int>(d));
    if (e.node->kind == ExprNode::RealLit) continue;  // no test term has this derivative
    b.push_back(declare(Space::Register, Type::Real, "r_p" + std::to_string(d), e));
    if (tab.test_identity) {  // the points are the test basis functions (Psi = I, one test derivative)
      b.push_back(if_then(var("r_active"), add_to_test_dof(var("r_cell"), iq * size("N_COMPONENTS") + kLane, var("r_p" + std::to_string(d)))));
      continue;
    }
    test.push_back(accumulate(var("r_out")[ib], var(tables)[test_table(static_cast<int>(d)) + iq * size("N_TEST_BASIS") + ib] *
                                                    var("r_p" + std::to_string(d))));
  }
  if (!test.empty()) b.push_back(loop("i_test", lit(0), size("N_TEST_BASIS"), test));
  return b;
}

// This lane's component of a split function: basis i at map entry i*C + lane.
Block gather_lane(const ActionIR &ir, int f, const Ex &cell, const Ex &active)
{
  const std::string stem = function_stem(f);
  const Ex i = var("i_dof");
  const Ex entry = var("g_" + stem + "_map")[cell * size("N_DOFS_" + upper(stem)) + i * size("N_COMPONENTS") + kLane];
  return {declare_array(Space::Register, Type::Real, "r_" + stem, size("N_BASIS_G" + std::to_string(ir.group_of_function(f)))),
          loop("i_dof", lit(0), size("N_BASIS_G" + std::to_string(ir.group_of_function(f))),
               {declare(Space::Register, Type::Int, "r_map", select(active, entry, lit(-1))),
                assign(var("r_" + stem)[i], select(var("r_map") >= lit(0), var("g_" + stem)[var("r_map")], real_lit(0.0)))})};
}

Block cell_body(const ActionIR &ir, const Tabulation &tab, const std::vector<LaneRow> &rows, const std::string &tables)
{
  const Ex cell = var("r_cell"), active = var("r_active"), zero = lit(0);
  Block b{comment("gather: this lane's component of split functions, the others whole")};
  auto append = [&](const Block &more) { b.insert(b.end(), more.begin(), more.end()); };
  const Ex coords = size("N_DOFS_COORDS");
  append(gather(ir, kCoordinates, "r_coords", cell, active, zero, coords, coords));
  for (const EvalGroup &g : ir.groups)
    for (int f : g.functions) {
      if (f == kCoordinates) continue;
      const Ex n = size("N_DOFS_" + upper(function_stem(f)));
      append(lane_split(ir, f) ? gather_lane(ir, f, cell, active) : gather(ir, f, "r_" + function_stem(f), cell, active, zero, n, n));
    }
  if (ir.affine) append(affine_jacobian(ir, tab));
  b.push_back(comment("per-cell pointwise nodes, hoisted out of the quadrature loop"));
  append(pointwise(ir, false, [](int) { return real_lit(0.0); }, real_lit(0.0)));
  if (tab.test_identity) {  // each point scatters this lane's component of its own test DOF
    b.push_back(loop("i_quad", zero, size("N_QUAD"), quadrature_point(ir, tab, rows, tables)));
    return b;
  }
  b.push_back(declare_array(Space::Register, Type::Real, "r_out", size("N_TEST_BASIS")));
  b.push_back(loop("i_out", zero, size("N_TEST_BASIS"), {assign(var("r_out")[var("i_out")], real_lit(0.0))}));
  b.push_back(loop("i_quad", zero, size("N_QUAD"), quadrature_point(ir, tab, rows, tables)));
  b.push_back(comment("scatter this lane's component: cells of other work-items may share DOFs"));
  const Ex i = var("i_out");
  b.push_back(if_then(active, {loop("i_out", zero, size("N_TEST_BASIS"), add_to_test_dof(cell, i * size("N_COMPONENTS") + kLane, var("r_out")[i]))}));
  return b;
}

}  // namespace

Kernel build_scpwi_lanes(const ActionIR &ir, const Tabulation &tab, const Schedule &schedule)
{
  if (schedule.strategy() != Strategy::SingleCellPerWorkItem || schedule.lanes() == 1)
    throw std::invalid_argument("build_scpwi_lanes: schedule is " + to_string(schedule));
  validate(schedule, ir, tab.n_points(), std::numeric_limits<long long>::max());
  const std::vector<LaneRow> rows = lane_exchange_rows(ir);
  Kernel k;
  const std::string tables = begin_scpwi_kernel(k, ir, tab, schedule);
  k.sizes.push_back({"N_LANE_ROWS", static_cast<long long>(rows.size())});
  const Ex local = builtin(Builtin::LocalX);
  k.body = {declare_array(Space::Shared, Type::Real, "s_lanes", lit(2) * size("N_LANE_ROWS") * size("N_COMPONENTS") * size("WORK_GROUP_SIZE")),
            declare(Space::Register, Type::Int, "r_lane", local / size("WORK_GROUP_SIZE")),
            declare(Space::Register, Type::Int, "r_slot", local % size("WORK_GROUP_SIZE")),
            declare(Space::Register, Type::Int, "r_cell", size("WORK_GROUP_SIZE") * builtin(Builtin::GroupX) + kSlot),
            declare(Space::Register, Type::Int, "r_active", var("r_cell") < var("n_cells"))};
  const Block body = cell_body(ir, tab, rows, tables);
  k.body.insert(k.body.end(), body.begin(), body.end());
  apply_scatter(k, schedule);
  return k;
}

}  // namespace femgpu::kernel
