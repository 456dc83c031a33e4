// Algorithm 2 of the paper: gather, evaluate, pointwise maps, quadrature, scatter.
#include "reference/reference_action.h"

#include <stdexcept>

namespace femgpu {

std::vector<double> evaluate_program(const Program &p, const std::vector<double> &inputs)
{
  std::vector<double> v(static_cast<size_t>(p.size()));
  for (int id = 0; id < p.size(); ++id) {
    const SNode &n = p.node(id);
    auto at = [&](int k) { return k >= 0 ? v[static_cast<size_t>(k)] : 0.0; };
    if (n.op == SOp::Const) v[static_cast<size_t>(id)] = n.value;
    else if (n.op == SOp::Input) v[static_cast<size_t>(id)] = inputs[static_cast<size_t>(n.input)];
    else v[static_cast<size_t>(id)] = apply_sop(n.op, at(n.a), at(n.b), at(n.c));
  }
  return v;
}

namespace {

const FunctionArrays &arrays_of(const ActionArrays &a, int function)
{
  if (function == kCoordinates) return a.coordinates;
  if (function == kTrialFunction) return a.trial;
  return a.coefficients.at(static_cast<size_t>(function - 2));
}

int components_of(const ActionIR &ir, int function)
{
  if (function == kCoordinates) return ir.dim;
  if (function == kTrialFunction) return ir.signature.element.components;
  return ir.coefficients.at(static_cast<size_t>(function - 2)).element.components;
}

// Cell-local DOFs of one function: n_basis x C, zero where the map is negative.
std::vector<double> gather(const FunctionArrays &f, int cell, int width)
{
  std::vector<double> local(static_cast<size_t>(width));
  const int *m = f.map + static_cast<size_t>(cell) * static_cast<size_t>(width);
  for (int i = 0; i < width; ++i) local[static_cast<size_t>(i)] = m[i] >= 0 ? f.values[m[i]] : 0.0;
  return local;
}

void check_arrays(const ActionIR &ir, const ActionArrays &a)
{
  if (!a.coordinates.values || !a.coordinates.map) throw std::invalid_argument("reference_action: coordinates missing");
  if (!a.test_map) throw std::invalid_argument("reference_action: test map missing");
  if (ir.rank == 2 && (!a.trial.values || !a.trial.map)) throw std::invalid_argument("reference_action: trial function missing");
  if (a.coefficients.size() != ir.coefficients.size())
    throw std::invalid_argument("reference_action: expected " + std::to_string(ir.coefficients.size()) + " coefficients");
  if (a.constants.size() != ir.constants.size())
    throw std::invalid_argument("reference_action: expected " + std::to_string(ir.constants.size()) + " constants");
}

// The cell's coordinates, node-major (n_coord x d): one map entry per node, the offset
// of its first component.
std::vector<double> cell_coordinates(const ActionArrays &a, int cell, int n_coord, int d)
{
  std::vector<double> X(static_cast<size_t>(n_coord * d));
  for (int j = 0; j < n_coord; ++j)
    for (int i = 0; i < d; ++i)
      X[static_cast<size_t>(j * d + i)] = a.coordinates.values[a.coordinates.map[static_cast<size_t>(cell) * static_cast<size_t>(n_coord) + static_cast<size_t>(j)] + i];
  return X;
}

// Affine Jacobian from the vertices (P1 coordinates: the nodes are the vertices); zero
// for curved cells, whose geometry the pointwise program derives from the coordinates.
std::vector<double> affine_jacobian(const ActionIR &ir, const Tabulation &tab, const std::vector<double> &X)
{
  const int d = ir.dim;
  std::vector<double> J(static_cast<size_t>(d * d), 0.0);
  for (int j = 0; ir.affine && j <= d; ++j)
    for (int i = 0; i < d; ++i)
      for (int k = 0; k < d; ++k)
        J[static_cast<size_t>(i * d + k)] += X[static_cast<size_t>(j * d + i)] * tab.p1_gradients[static_cast<size_t>(j * d + k)];
  return J;
}

// Cell-local DOFs of every evaluated function, by group and function (the coordinates
// are X itself).
using LocalDofs = std::vector<std::vector<std::vector<double>>>;

LocalDofs cell_dofs(const ActionIR &ir, const ActionArrays &a, int cell, const std::vector<double> &X)
{
  LocalDofs local(ir.groups.size());
  for (size_t g = 0; g < ir.groups.size(); ++g)
    for (int f : ir.groups[g].functions)
      local[g].push_back(f == kCoordinates ? X : gather(arrays_of(a, f), cell, ir.groups[g].n_basis * components_of(ir, f)));
  return local;
}

// Program input i at point q: a Jacobian entry, the weight, a constant, or an evaluated
// term (its table row times the function's cell DOFs).
double point_input(const ActionIR &ir, const Tabulation &tab, const ActionArrays &a, const std::vector<double> &J, const LocalDofs &local,
                   size_t i, int q)
{
  const InputRef &in = ir.pointwise.program.inputs()[i];
  if (in.kind == InputKind::Jacobian) return J[static_cast<size_t>(in.row * ir.dim + in.col)];
  if (in.kind == InputKind::Weight) return tab.weights[static_cast<size_t>(q)];
  if (in.kind == InputKind::Constant) return a.constants[static_cast<size_t>(in.slot)];
  const size_t g = static_cast<size_t>(ir.pointwise.input_group[i]);
  const EvalGroup &grp = ir.groups[g];
  const EvalTerm &t = grp.terms[static_cast<size_t>(ir.pointwise.input_term[i])];
  size_t fi = 0;
  while (grp.functions[fi] != t.function) ++fi;
  const std::vector<double> &table = tab.group_tables[g][static_cast<size_t>(t.derivative)];
  const int Cf = components_of(ir, t.function);
  double value = 0.0;
  for (int b = 0; b < grp.n_basis; ++b)
    value += table[static_cast<size_t>(q * grp.n_basis + b)] * local[g][fi][static_cast<size_t>(b * Cf + t.component)];
  return value;
}

}  // namespace

void reference_action(const ActionIR &ir, const Tabulation &tab, const ActionArrays &arrays, double *out)
{
  if (arrays.n_cells == 0) return;  // a rank without cells: its arrays may be empty (null)
  check_arrays(ir, arrays);
  const int Q = tab.n_points(), C = ir.signature.element.components, n_test = ir.n_test_basis;
  const int n_coord = lagrange_dimension(ir.dim, ir.signature.coordinate_degree);
  const Program &prog = ir.pointwise.program;
  std::vector<double> inputs(prog.inputs().size(), 0.0);

  for (int cell = 0; cell < arrays.n_cells; ++cell) {
    const std::vector<double> X = cell_coordinates(arrays, cell, n_coord, ir.dim);
    const LocalDofs local = cell_dofs(ir, arrays, cell, X);
    const std::vector<double> J = affine_jacobian(ir, tab, X);
    std::vector<double> out_local(static_cast<size_t>(n_test * C), 0.0);
    for (int q = 0; q < Q; ++q) {
      for (size_t i = 0; i < prog.inputs().size(); ++i) inputs[i] = point_input(ir, tab, arrays, J, local, i, q);
      std::vector<double> v = evaluate_program(prog, inputs);
      for (int j = 0; j < ir.n_eval(); ++j) {
        const TestTerm &tt = ir.test_terms[static_cast<size_t>(j)];
        const double e = v[static_cast<size_t>(ir.pointwise.outputs[static_cast<size_t>(j)])];
        const std::vector<double> &psi = tab.test_tables[static_cast<size_t>(tt.derivative)];
        for (int b = 0; b < n_test; ++b) out_local[static_cast<size_t>(b * C + tt.component)] += psi[static_cast<size_t>(q * n_test + b)] * e;
      }
    }
    const int *m = arrays.test_map + static_cast<size_t>(cell) * static_cast<size_t>(n_test * C);
    for (int i = 0; i < n_test * C; ++i)
      if (m[i] >= 0) out[m[i]] += out_local[static_cast<size_t>(i)];
  }
}

}  // namespace femgpu
