// Strategy::TensorCore with MmaOperands::Registers (schedule.h), for forms whose test
// table is the identity (Tabulation::test_identity: each quadrature point is a test basis
// function, so a point's value is added to its test DOF and there is no quadrature
// product). Each warp takes 8 cells of the group and keeps everything of theirs in its
// registers:
//   1. every work-item of the group with a cell computes that cell's per-cell values into
//      s_cell (build_mma.cpp's cell_values), the group's one barrier;
//   2. each lane gathers its B fragment words of every evaluated (function, component):
//      B[k][n] = the DOF of basis function k of the warp's cell n, k = 4 step + lane % 4,
//      n = lane / 4, straight from the DOF vector (no s_u);
//   3. for each row tile of 8 points: E = Phi_d x U as m8n8k4 products into accumulators
//      (D[point][cell], this lane's point lane / 4 and cells 2 (lane % 4) + 0, 1), then the
//      pointwise program on those two (cell, point) pairs and the add to their test DOFs
//      (no s_e, no barrier). Each pair is one lane's, once a launch, so with own=plain the
//      cell's own DOFs (build_common.h's owned_test_dofs) get a plain add.
// The shared-operand kernel (build_mma.cpp) stores U and E in shared memory and reads them
// back across barriers, but reads each table fragment once for 8-16 cells of a column
// chunk, where this one reads it for each warp's 8 cells. On the H200 this form ran mass
// 2D P3 1.15x and P4 1.04x faster, 2D P5-P8 and 3D P5-P6 0.74-0.99x
// (bench/experiments/h200_mma_registers.txt): the tuner times both.
#include <stdexcept>

#include "kernel/build_common.h"
#include "kernel/build_mma_parts.h"

namespace femgpu::kernel::mma {

namespace {

// A term the pointwise program reads, with where it is evaluated.
struct UsedTerm {
  int group = 0, term = 0, function_index = 0, component = 0, derivative = 0;
};

std::vector<UsedTerm> used_terms(const ActionIR &ir)
{
  std::vector<UsedTerm> out;
  for (size_t i = 0; i < ir.pointwise.input_group.size(); ++i) {
    const int gi = ir.pointwise.input_group[i], ti = ir.pointwise.input_term[i];
    if (gi < 0) continue;  // not an Eval input
    bool seen = false;
    for (const UsedTerm &u : out) seen = seen || (u.group == gi && u.term == ti);
    if (seen) continue;
    const EvalGroup &grp = ir.groups[static_cast<size_t>(gi)];
    const EvalTerm &t = grp.terms[static_cast<size_t>(ti)];
    int fi = 0;
    while (grp.functions[static_cast<size_t>(fi)] != t.function) ++fi;
    out.push_back({gi, ti, fi, t.component, t.derivative});
  }
  return out;
}

std::string G(int g) { return "_G" + std::to_string(g); }
std::string acc_name(const UsedTerm &u) { return "r_acc_g" + std::to_string(u.group) + "_t" + std::to_string(u.term); }
std::string dofs_name(const UsedTerm &u)
{
  return "r_u_g" + std::to_string(u.group) + "_f" + std::to_string(u.function_index) + "_c" + std::to_string(u.component);
}
std::string table_name(int group, int derivative) { return "r_a_g" + std::to_string(group) + "_d" + std::to_string(derivative); }

template <class Key>
bool first_of(const std::vector<UsedTerm> &terms, size_t i, Key key)
{
  for (size_t j = 0; j < i; ++j)
    if (key(terms[j]) == key(terms[i])) return false;
  return true;
}

// 2. This lane's B words of every (group, function, component) a used term reads.
Block gather_fragments(const ActionIR &ir, const std::vector<UsedTerm> &terms)
{
  Block b{comment("each lane's B words: basis function 4 step + lane % 4 of the warp's cell lane / 4"),
          declare(Space::Register, Type::Int, "r_bcell", var("r_cell0") + var("r_warp") * lit(8) + var("r_lane_row"))};
  for (size_t i = 0; i < terms.size(); ++i) {
    const UsedTerm &u = terms[i];
    if (!first_of(terms, i, [](const UsedTerm &t) { return dofs_name(t); })) continue;
    const EvalGroup &grp = ir.groups[static_cast<size_t>(u.group)];
    const int f = grp.functions[static_cast<size_t>(u.function_index)];
    const std::string s = G(u.group), name = dofs_name(u);
    const Ex j = var("r_j");
    Block step{declare(Space::Register, Type::Int, "r_j", var("i_ks") * lit(4) + var("r_lane_col"))};
    const int C = function_components(ir, f);
    Block g = gather_to(ir, f, [&](const Ex &) { return var(name)[var("i_ks")]; }, var("r_bcell"),
                        (var("r_bcell") < var("n_cells")) && (j < size("N_BASIS" + s)), j * lit(C) + lit(u.component), lit(1), lit(1));
    step.insert(step.end(), g.begin(), g.end());
    b.push_back(declare_array(Space::Register, Type::Real, name, size("K_STEPS" + s)));
    b.push_back(unrolled(loop("i_ks", lit(0), size("K_STEPS" + s), step)));
  }
  return b;
}

// 3a. The accumulators of row tile i_mt: E = Phi_d x U for every used term.
Block evaluate_tile(const ActionIR &ir, const std::vector<UsedTerm> &terms)
{
  Block b;
  for (const UsedTerm &u : terms) {
    b.push_back(declare_array(Space::Register, Type::Real, acc_name(u), lit(2)));
    b.push_back(assign(var(acc_name(u))[lit(0)], real_lit(0.0)));
    b.push_back(assign(var(acc_name(u))[lit(1)], real_lit(0.0)));
  }
  for (size_t gi = 0; gi < ir.groups.size(); ++gi) {
    const int g = static_cast<int>(gi);
    const std::string s = G(g);
    Block step;
    for (size_t i = 0; i < terms.size(); ++i) {
      const UsedTerm &u = terms[i];
      if (u.group != g) continue;
      if (first_of(terms, i, [](const UsedTerm &t) { return table_name(t.group, t.derivative); })) {
        const Ex frag = size("OFFSET_MMA" + s) +
                        ((lit(u.derivative) * size("MMA_POINT_TILES") + var("i_mt")) * size("K_STEPS" + s) + var("i_ks")) * lit(32) + var("r_lane");
        step.push_back(declare(Space::Register, Type::Real, table_name(g, u.derivative), var("g_tables")[frag]));
      }
      step.push_back(mma_8x8x4(var(acc_name(u))[lit(0)], var(acc_name(u))[lit(1)], var(table_name(g, u.derivative)),
                               var(dofs_name(u))[var("i_ks")]));
    }
    if (!step.empty()) b.push_back(unrolled(loop("i_ks", lit(0), size("K_STEPS" + s), step)));
  }
  return b;
}

// 3b. The pointwise program at this lane's two (cell, point) pairs of the tile, each
// value added to its test DOF.
Block points_of_tile(const ActionIR &ir, const std::vector<UsedTerm> &terms, OwnDofs own)
{
  const int C = ir.signature.element.components, nd = static_cast<int>(ir.test_derivatives.size());
  Block valid = held_cell_reads(ir);
  auto eval = [&](int input) {
    const int gi = ir.pointwise.input_group[static_cast<size_t>(input)], ti = ir.pointwise.input_term[static_cast<size_t>(input)];
    for (const UsedTerm &u : terms)
      if (u.group == gi && u.term == ti) return var(acc_name(u))[var("i_h")];
    throw std::logic_error("build_mma_registers: the pointwise program reads an evaluation used_terms does not hold");
  };
  Block pw = pointwise(ir, true, eval, var("g_weights")[var("r_qg")], false);
  valid.insert(valid.end(), pw.begin(), pw.end());
  for (int c = 0; c < C; ++c)
    for (int dt = 0; dt < nd; ++dt) {
      const Ex sum = test_term_sum(ir, c, dt);
      if (!sum.node) continue;
      Block add = add_to_test_dof(var("r_cell0") + var("r_slot"), var("r_qg") * size("N_COMPONENTS") + lit(c), sum, "r_dof" + std::to_string(c), own);
      valid.insert(valid.end(), add.begin(), add.end());
    }
  Block pair{declare(Space::Register, Type::Int, "r_slot", var("r_warp") * lit(8) + lit(2) * var("r_lane_col") + var("i_h")),
             declare(Space::Register, Type::Int, "r_qg", var("i_mt") * lit(8) + var("r_lane_row")),
             if_then((var("r_qg") < size("N_QUAD")) && (var("r_cell0") + var("r_slot") < var("n_cells")), valid)};
  return {unrolled(loop("i_h", lit(0), lit(2), pair))};
}

}  // namespace

Block registers_body(const ActionIR &ir, const Tabulation &tab, const MmaLayout &l, OwnDofs own)
{
  const std::vector<UsedTerm> terms = used_terms(ir);
  Block b = thread_indices();
  b.push_back(declare_array(Space::Shared, Type::Real, "s_cell", lit(l.cell_words)));
  auto append = [&](const Block &more) { b.insert(b.end(), more.begin(), more.end()); };
  append(cell_values(ir, tab));
  append(gather_fragments(ir, terms));
  b.push_back(barrier());  // s_cell complete
  Block tile = evaluate_tile(ir, terms);
  Block points = points_of_tile(ir, terms, own);
  tile.insert(tile.end(), points.begin(), points.end());
  b.push_back(comment("each row tile of 8 points: products into registers, then the points' adds"));
  b.push_back(loop("i_mt", lit(0), size("MMA_POINT_TILES"), tile));
  return b;
}

}  // namespace femgpu::kernel::mma
