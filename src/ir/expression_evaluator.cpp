// ExpressionEvaluator: an expression in x -> scalar SSA (Scalarizer) -> values at points.
#include "ir/expression_evaluator.h"

#include "ir/scalarize.h"

namespace femgpu {

namespace {

// The geometry of the identity map: grad of an expression in x is its physical
// gradient, so J = K = I and no Jacobian inputs are needed.
Geometry identity_geometry(Program &p, int dim)
{
  Geometry g;
  g.dim = dim;
  g.affine = true;
  for (int i = 0; i < dim; ++i)
    for (int k = 0; k < dim; ++k) g.J.push_back(p.constant(i == k ? 1.0 : 0.0));
  g.K = g.J;
  g.detJ = p.one();
  return g;
}

}  // namespace

ExpressionEvaluator::ExpressionEvaluator(const Expr &expression, int dim) : shape_(expression->shape)
{
  Geometry g = identity_geometry(program_, dim);
  Tensor t = Scalarizer(program_, g)(expression);
  outputs_ = t.ids;
  for (const InputRef &in : program_.inputs()) {
    const bool is_x = in.kind == InputKind::Eval && in.function == kCoordinates && in.alpha == std::array<int, 3>{0, 0, 0};
    if (!is_x) throw FormError("the expression " + to_string(expression) + " depends on " + input_name(in) + "; only x may appear in it");
    input_component_.push_back(in.component);
  }
}

void ExpressionEvaluator::evaluate(const double *x, double *out) const
{
  std::vector<double> v(static_cast<size_t>(program_.size()));
  for (int id = 0; id < program_.size(); ++id) {
    const SNode &n = program_.node(id);
    auto at = [&](int k) { return k >= 0 ? v[static_cast<size_t>(k)] : 0.0; };
    double &r = v[static_cast<size_t>(id)];
    if (n.op == SOp::Const) r = n.value;
    else if (n.op == SOp::Input) r = x[input_component_[static_cast<size_t>(n.input)]];
    else r = apply_sop(n.op, at(n.a), at(n.b), at(n.c));
  }
  for (size_t i = 0; i < outputs_.size(); ++i) out[i] = v[static_cast<size_t>(outputs_[i])];
}

}  // namespace femgpu
