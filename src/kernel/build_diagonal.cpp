// The diagonal of a bilinear form's matrix as a kernel, from the same ActionIR, AST
// pieces and emitters as the action.
//
// Entry k = (basis i, component c) of a cell's matrix diagonal is the action on the
// cell-local unit vector e_k, contracted with test DOF k only: at each quadrature point
// the trial function's evaluations are table entries of basis i when their component is
// c and 0 otherwise; coordinates and coefficients are gathered and evaluated as in the
// action; the pointwise program runs unchanged (it is linear in the trial evaluations
// for a rank-2 form, and nothing else about it is assumed), and only test terms of
// component c contract, with basis i's test tables. The result goes to
// g_out[g_test_map[cell * N_TEST_DOFS + k]] by an atomic add (negative entries skipped),
// the contract of reference_diagonal.h.
//
// Parallelisation: one work-item per (cell, cell DOF) pair: LocalX is the DOF within the
// cell (BLOCK_X of them, looping when a cell has more DOFs), LocalY the cell within the
// group (CELLS_PER_GROUP cells). Each work-item owns one scalar accumulator, so no
// per-thread array of N_TEST_DOFS entries exists (the SCPWI action spills at high order
// because of r_out). The price is that each work-item gathers and evaluates its cell's
// coefficients again, N_TEST_DOFS times per cell in all; the gathers of one cell's
// work-items read the same addresses at once (cache broadcasts), and the diagonal is
// computed once per operator (Jacobi, Chebyshev setup), not once per iteration.
//
// build_cell_matrix is the same kernel with one work-item per (cell, matrix entry)
// (test DOF i = entry / width, trial DOF j = entry % width), each entry stored to
// g_out[cell * width^2 + entry] (no atomics, no map): the cell matrices MatConvert
// assembles. Why one work-item per entry: every entry is then one scalar accumulator
// and one coalesced store (a cell's entries are contiguous in g_out), nothing is shared
// between work-items (no barrier, no shared memory), and the kernel is the diagonal's,
// proven against the reference, with only the trial DOF and the store changed. The
// price, the pointwise program evaluated width^2 times per quadrature point instead of
// width times (one work-item per trial DOF, a column of accumulators), is paid once per
// assembly on the device; a column per work-item would hold width accumulators per
// thread, the register pressure that makes the SCPWI action spill at high order.
// Always FP64, whatever schedule the action runs: one kernel per form, no Schedule.
// Arguments: kernel_abi.h's, less the trial function's values and map
// (diagonal_arguments()), and for the cell matrix less g_test_map too
// (cell_matrix_arguments()). Throws std::invalid_argument for a rank-1 form.
#include <algorithm>
#include <stdexcept>

#include "kernel/build.h"
#include "kernel/build_common.h"
#include "kernel/kernel_abi.h"

namespace femgpu::kernel {

namespace {

constexpr int kThreadsPerGroup = 128;


Ex equals(const Ex &a, const Ex &b) { return binary("==", a, b); }

// A trial term at point i_quad for the unit vector of DOF (r_basis, r_component).
Ex trial_term(const ActionIR &ir, int g, const EvalTerm &term)
{
  const Ex phi = var("g_tables")[group_table(g, term.derivative) + var("i_quad") * size("N_BASIS_G" + std::to_string(g)) +
                                 var("r_trial_basis")];
  if (ir.signature.element.components == 1) return phi;
  return select(equals(var("r_trial_component"), lit(term.component)), phi, real_lit(0.0));
}

// The terms of group g at i_quad: trial terms directly, the others (coordinates,
// coefficients) by one loop over the group's basis, as the action evaluates them.
Block evaluate_group(const ActionIR &ir, int g)
{
  const EvalGroup &grp = ir.groups[static_cast<size_t>(g)];
  const std::string n = "N_BASIS_G" + std::to_string(g);
  const Ex ib = var("i_basis"), iq = var("i_quad");
  Block out, body;
  std::vector<bool> table_used(grp.derivatives.size(), false);
  for (size_t t = 0; t < grp.terms.size(); ++t) {
    const EvalTerm &term = grp.terms[t];
    const std::string name = eval_register(g, static_cast<int>(t));
    if (term.function == kTrialFunction) {
      out.push_back(declare(Space::Register, Type::Real, name, trial_term(ir, g, term)));
      continue;
    }
    const int C = function_components(ir, term.function);
    table_used[static_cast<size_t>(term.derivative)] = true;
    out.push_back(declare(Space::Register, Type::Real, name, real_lit(0.0), false));
    body.push_back(accumulate(var(name), var("r_phi" + std::to_string(term.derivative)) *
                                             var("r_" + function_stem(term.function))[ib * lit(C) + lit(term.component)]));
  }
  if (body.empty()) return out;
  Block tables;
  for (size_t d = 0; d < grp.derivatives.size(); ++d)
    if (table_used[d])
      tables.push_back(declare(Space::Register, Type::Real, "r_phi" + std::to_string(d),
                               var("g_tables")[group_table(g, static_cast<int>(d)) + iq * size(n) + ib]));
  body.insert(body.begin(), tables.begin(), tables.end());
  out.push_back(loop("i_basis", lit(0), size(n), body));
  return out;
}

// One quadrature point's contribution to r_diag: the entry (test DOF r_basis,
// r_component; trial DOF r_trial_basis, r_trial_component).
Block quadrature_point(const ActionIR &ir)
{
  const Ex iq = var("i_quad");
  Block b{comment("the trial function is the unit vector of this DOF")};
  Block m = evaluate_and_map(ir, [&](int g) { return evaluate_group(ir, g); });
  b.insert(b.end(), m.begin(), m.end());
  b.push_back(comment("quadrature: test terms of this DOF's component, this DOF's basis function"));
  for (size_t d = 0; d < ir.test_derivatives.size(); ++d)
    b.push_back(declare(Space::Register, Type::Real, "r_psi" + std::to_string(d),
                        var("g_tables")[test_table(static_cast<int>(d)) + iq * size("N_TEST_BASIS") + var("r_basis")]));
  for (int j = 0; j < ir.n_eval(); ++j) {
    const TestTerm &tt = ir.test_terms[static_cast<size_t>(j)];
    const Ex term = var("r_psi" + std::to_string(tt.derivative)) *
                    node_value(ir.pointwise.program, ir.pointwise.outputs[static_cast<size_t>(j)]);
    const bool scalar = ir.signature.element.components == 1;
    b.push_back(accumulate(var("r_diag"), scalar ? term : select(equals(var("r_component"), lit(tt.component)), term, real_lit(0.0))));
  }
  return b;
}

// Entry r_local of cell r_cell: the diagonal entry of DOF r_local, added into
// g_out[test map] (Diagonal), or the cell-matrix entry (r_local / width, r_local % width),
// stored to g_out[cell * width^2 + r_local] (Matrix).
enum class Output { Diagonal, Matrix };

Block dof_body(const ActionIR &ir, Output output)
{
  const Ex cell = var("r_cell"), local = var("r_local"), zero = lit(0);
  const Ex test = output == Output::Diagonal ? local : local / size("N_TEST_DOFS");
  const Ex trial = output == Output::Diagonal ? local : local % size("N_TEST_DOFS");
  Block b{declare(Space::Register, Type::Int, "r_basis", test / size("N_COMPONENTS")),
          declare(Space::Register, Type::Int, "r_component", test % size("N_COMPONENTS")),
          declare(Space::Register, Type::Int, "r_trial_basis", trial / size("N_COMPONENTS")),
          declare(Space::Register, Type::Int, "r_trial_component", trial % size("N_COMPONENTS")),
          declare(Space::Register, Type::Real, "r_diag", real_lit(0.0), false),
          loop("i_quad", zero, size("N_QUAD"), quadrature_point(ir))};
  if (output == Output::Matrix) {
    b.push_back(assign(var("g_out")[cell * size("N_ENTRIES") + local], var("r_diag")));
    return b;
  }
  const Block add = add_to_test_dof(cell, local, var("r_diag"));
  b.insert(b.end(), add.begin(), add.end());
  return b;
}

Block cell_body(const ActionIR &ir, const Tabulation &tab, Output output)
{
  const Ex cell = var("r_cell"), yes = lit(1), zero = lit(0);
  Block b{comment("gather: coordinates and coefficients (the trial function is a unit vector)")};
  auto append = [&](const Block &more) { b.insert(b.end(), more.begin(), more.end()); };
  const Ex coords = size("N_DOFS_COORDS");
  append(gather(ir, kCoordinates, "r_coords", cell, yes, zero, coords, coords));
  for (const EvalGroup &g : ir.groups)
    for (int f : g.functions)
      if (f != kCoordinates && f != kTrialFunction) {
        const Ex n = size("N_DOFS_" + upper(function_stem(f)));
        append(gather(ir, f, "r_" + function_stem(f), cell, yes, zero, n, n));
      }
  if (ir.affine) append(affine_jacobian(ir, tab));
  b.push_back(comment("per-cell pointwise nodes, hoisted out of the DOF and quadrature loops"));
  append(pointwise(ir, false, [](int) { return real_lit(0.0); }, real_lit(0.0)));
  b.push_back(comment("this work-item's entries of the cell: LocalX, LocalX + BLOCK_X, ..."));
  b.push_back(loop("i_pass", zero, size("N_PASSES"),
                   {declare(Space::Register, Type::Int, "r_local", var("i_pass") * size("BLOCK_X") + builtin(Builtin::LocalX)),
                    if_then(var("r_local") < size("N_ENTRIES"), dof_body(ir, output))}));
  return b;
}

Kernel build_entries(const ActionIR &ir, const Tabulation &tab, Output output)
{
  const bool diagonal = output == Output::Diagonal;
  if (ir.rank != 2)
    throw std::invalid_argument(std::string(diagonal ? "build_diagonal" : "build_cell_matrix") +
                                ": the form is a residual (rank 1), linear in the test function only; a matrix "
                                "needs a bilinear form (rank 2), e.g. derivative(F, w, u)");
  const int dofs = ir.n_test_basis * ir.signature.element.components, entries = diagonal ? dofs : dofs * dofs;
  Kernel k;
  k.name = diagonal ? "femgpu_diagonal" : "femgpu_cell_matrix";
  k.schedule = diagonal ? "diagonal, one work-item per (cell, cell DOF)" : "cell matrix, one work-item per (cell, matrix entry)";
  k.precision = Precision::FP64;
  k.block_x = std::min(entries, kThreadsPerGroup);
  k.block_y = std::max(1, kThreadsPerGroup / k.block_x);
  k.cells_per_group = k.block_y;
  declare_common_sizes(k, ir, tab);
  k.sizes.insert(k.sizes.end(), {{"BLOCK_X", k.block_x},
                                 {"N_ENTRIES", entries},
                                 {"N_PASSES", (entries + k.block_x - 1) / k.block_x},
                                 {"CELLS_PER_GROUP", k.cells_per_group}});
  k.params = params_of(diagonal ? diagonal_arguments(ir) : cell_matrix_arguments(ir));
  const Ex cell = size("CELLS_PER_GROUP") * builtin(Builtin::GroupX) + builtin(Builtin::LocalY);
  k.body = {declare(Space::Register, Type::Int, "r_cell", cell), if_then(var("r_cell") < var("n_cells"), cell_body(ir, tab, output))};
  return k;
}

}  // namespace

Kernel build_diagonal(const ActionIR &ir, const Tabulation &tab) { return build_entries(ir, tab, Output::Diagonal); }
Kernel build_cell_matrix(const ActionIR &ir, const Tabulation &tab) { return build_entries(ir, tab, Output::Matrix); }

}  // namespace femgpu::kernel
