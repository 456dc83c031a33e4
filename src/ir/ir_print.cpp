// JSON and text renderings of the action IR.
#include "ir/ir_print.h"

namespace femgpu {

namespace {

std::string function_name(const ActionIR &ir, int f)
{
  if (f == kCoordinates) return "x";
  if (f == kTrialFunction) return "u";
  if (f == kTestFunction) return "v";
  return ir.coefficients.at(static_cast<size_t>(f - 2)).name;
}

std::string multi_index(const MultiIndex &a, int dim)
{
  std::string s = "[";
  for (int i = 0; i < dim; ++i) s += (i ? ", " : "") + std::to_string(a[static_cast<size_t>(i)]);
  return s + "]";
}

template <class T, class F> void list(std::ostream &os, const std::vector<T> &v, F item)
{
  os << "[";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) os << ", ";
    item(v[i]);
  }
  os << "]";
}

}  // namespace

void print_ir_json(std::ostream &os, const ActionIR &ir, int Q)
{
  PointwiseCost pc = pointwise_cost(ir.pointwise);
  os << "{\n  \"cell\": \"" << cell_name(ir.signature.cell) << "\",\n  \"dim\": " << ir.dim
     << ",\n  \"rank\": " << ir.rank << ",\n  \"degree\": " << ir.signature.element.degree
     << ",\n  \"components\": " << ir.signature.element.components << ",\n  \"affine\": " << (ir.affine ? "true" : "false")
     << ",\n  \"n_trial\": ";
  list(os, ir.groups, [&](const EvalGroup &g) { os << g.n_basis; });
  os << ",\n  \"n_test\": " << ir.n_test_basis << ",\n  \"N_deriv\": ";
  list(os, ir.groups, [&](const EvalGroup &g) { os << g.terms.size(); });
  os << ",\n  \"N_eval\": " << ir.n_eval() << ",\n  \"Q\": " << Q << ",\n  \"quadrature_degree\": " << ir.quadrature_degree
     << ",\n  \"quadrature_degree_estimated\": " << (ir.quadrature_degree_estimated ? "true" : "false");
  if (ir.facet >= 0) os << ",\n  \"integrals\": \"" << describe_domain(ir.domain) << "\",\n  \"facet\": " << ir.facet;
  os << ",\n  \"flops_per_cell\": " << count_flops(ir, Q).total() << ",\n  \"pointwise_ops_per_point\": " << pc.per_point
     << ",\n  \"pointwise_ops_per_cell\": " << pc.per_cell << ",\n  \"groups\": ";
  list(os, ir.groups, [&](const EvalGroup &g) {
    os << "{\"element\": \"P" << g.element.degree << (g.element.components > 1 ? "^" + std::to_string(g.element.components) : "")
       << "\", \"coordinates\": " << (g.coordinates ? "true" : "false") << ", \"functions\": ";
    list(os, g.functions, [&](int f) { os << "\"" << function_name(ir, f) << "\""; });
    os << ", \"terms\": ";
    list(os, g.terms, [&](const EvalTerm &t) {
      os << "{\"function\": \"" << function_name(ir, t.function) << "\", \"component\": " << t.component
         << ", \"derivative\": " << multi_index(g.derivatives[static_cast<size_t>(t.derivative)], ir.dim) << "}";
    });
    os << "}";
  });
  os << ",\n  \"test_terms\": ";
  list(os, ir.test_terms, [&](const TestTerm &t) {
    os << "{\"component\": " << t.component << ", \"derivative\": "
       << multi_index(ir.test_derivatives[static_cast<size_t>(t.derivative)], ir.dim) << "}";
  });
  os << ",\n  \"coefficients\": ";
  list(os, ir.coefficients, [&](const CoefficientInfo &c) { os << "\"" << c.name << "\""; });
  os << ",\n  \"constants\": ";
  list(os, ir.constants, [&](const ConstantInfo &c) { os << "{\"name\": \"" << c.name << "\", \"default\": " << c.default_value << "}"; });
  os << "\n}\n";
}

void print_ir_listing(std::ostream &os, const ActionIR &ir)
{
  const Program &p = ir.pointwise.program;
  os << "# pointwise program: " << p.size() << " nodes; '*' marks values computed once per cell, '~' values the\n"
     << "# same in every cell but recomputed at each point (cheaper than a register)\n";
  for (int id = 0; id < p.size(); ++id) {
    const SNode &n = p.node(id);
    const bool varies = ir.pointwise.varies[static_cast<size_t>(id)] != 0;
    os << (varies ? "  " : ir.pointwise.recomputed[static_cast<size_t>(id)] ? "~ " : "* ") << "t" << id << " = ";
    if (n.op == SOp::Const) os << n.value;
    else if (n.op == SOp::Input) os << input_name(p.inputs()[static_cast<size_t>(n.input)]);
    else {
      os << sop_name(n.op) << "(";
      for (int o : {n.a, n.b, n.c})
        if (o >= 0) os << (o == n.a ? "" : ", ") << "t" << o;
      os << ")";
    }
    os << "\n";
  }
  for (int j = 0; j < ir.n_eval(); ++j) {
    const TestTerm &t = ir.test_terms[static_cast<size_t>(j)];
    os << "e" << j << " = t" << ir.pointwise.outputs[static_cast<size_t>(j)] << "   contracts with d"
       << multi_index(ir.test_derivatives[static_cast<size_t>(t.derivative)], ir.dim) << " v[" << t.component << "]\n";
  }
}

}  // namespace femgpu
