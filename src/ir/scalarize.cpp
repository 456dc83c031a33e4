// Expressions to SSA: terminals, tensor algebra and differentiation.
#include "ir/scalarize.h"

#include <numeric>

#include "ir/derivative.h"
#include "ir/reference_facets.h"

namespace femgpu {

namespace {

int size_of(const Shape &s) { return std::accumulate(s.begin(), s.end(), 1, std::multiplies<int>()); }

Tensor make(Shape s) { return Tensor{s, std::vector<int>(static_cast<size_t>(size_of(s)), -1)}; }

// Splits a flat row-major tensor of shape (head..., n) into the leading block count.
int leading(const Shape &s) { return s.empty() ? 1 : size_of(Shape(s.begin(), s.end() - 1)); }

}  // namespace

int det_ids(Program &p, const std::vector<int> &A, int n)
{
  auto a = [&](int i, int j) { return A[static_cast<size_t>(i * n + j)]; };
  if (n == 1) return a(0, 0);
  if (n == 2) return p.sub(p.mul(a(0, 0), a(1, 1)), p.mul(a(0, 1), a(1, 0)));
  int c0 = p.sub(p.mul(a(1, 1), a(2, 2)), p.mul(a(1, 2), a(2, 1)));
  int c1 = p.sub(p.mul(a(1, 2), a(2, 0)), p.mul(a(1, 0), a(2, 2)));
  int c2 = p.sub(p.mul(a(1, 0), a(2, 1)), p.mul(a(1, 1), a(2, 0)));
  return p.add(p.add(p.mul(a(0, 0), c0), p.mul(a(0, 1), c1)), p.mul(a(0, 2), c2));
}

std::vector<int> inverse_ids(Program &p, const std::vector<int> &A, int n, int det)
{
  auto a = [&](int i, int j) { return A[static_cast<size_t>(i * n + j)]; };
  std::vector<int> inv(static_cast<size_t>(n * n));
  if (n == 1) {
    inv[0] = p.div(p.one(), det);
    return inv;
  }
  if (n == 2) {
    inv[0] = p.div(a(1, 1), det);
    inv[1] = p.div(p.neg(a(0, 1)), det);
    inv[2] = p.div(p.neg(a(1, 0)), det);
    inv[3] = p.div(a(0, 0), det);
    return inv;
  }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      // inv[i][j] = cofactor[j][i] / det, with cyclic indices giving the signs.
      int r0 = (j + 1) % 3, r1 = (j + 2) % 3, c0 = (i + 1) % 3, c1 = (i + 2) % 3;
      int cof = p.sub(p.mul(a(r0, c0), a(r1, c1)), p.mul(a(r0, c1), a(r1, c0)));
      inv[static_cast<size_t>(i * 3 + j)] = p.div(cof, det);
    }
  return inv;
}

namespace {

// n = K^T n_f / |K^T n_f| and |K^T n_f| for the reference facet `facet`.
void build_facet_normal(Program &p, Geometry &g)
{
  const std::array<double, 3> nf = reference_facet_normal(g.dim, g.facet);
  std::vector<int> m;  // K^T n_f
  int norm2 = p.zero();
  for (int i = 0; i < g.dim; ++i) {
    int c = p.zero();
    for (int k = 0; k < g.dim; ++k)
      if (nf[static_cast<size_t>(k)] != 0.0) c = p.add(c, p.mul(p.constant(nf[static_cast<size_t>(k)]), g.K[static_cast<size_t>(k * g.dim + i)]));
    m.push_back(c);
    norm2 = p.add(norm2, p.mul(c, c));
  }
  g.surface = p.unary(SOp::Sqrt, norm2);
  for (int c : m) g.normal.push_back(p.div(c, g.surface));
}

}  // namespace

Geometry build_geometry(Program &p, int dim, bool affine, int facet)
{
  Geometry g;
  g.dim = dim;
  g.affine = affine;
  for (int i = 0; i < dim; ++i)
    for (int k = 0; k < dim; ++k) {
      InputRef in;
      if (affine) {
        in.kind = InputKind::Jacobian;
        in.row = i;
        in.col = k;
      } else {
        in.kind = InputKind::Eval;
        in.function = kCoordinates;
        in.component = i;
        in.alpha[static_cast<size_t>(k)] = 1;
      }
      g.J.push_back(p.input(in));
    }
  g.detJ = det_ids(p, g.J, dim);
  g.K = inverse_ids(p, g.J, dim, g.detJ);
  g.facet = facet;
  if (facet >= 0) build_facet_normal(p, g);
  return g;
}

Tensor Scalarizer::operator()(const Expr &e)
{
  auto it = memo_.find(e.get());
  if (it != memo_.end()) return it->second;
  Tensor t = compute(e);
  memo_[e.get()] = t;
  return t;
}

Tensor Scalarizer::compute(const Expr &e)
{
  switch (e->op) {
    case Op::Argument: case Op::Coefficient: case Op::Constant: case Op::Literal:
    case Op::SpatialCoordinate: case Op::Identity: case Op::FacetNormal:
      return terminal(e);
    case Op::Grad: case Op::Div: case Op::NablaGrad: case Op::NablaDiv: case Op::Curl:
      return spatial(e);
    case Op::MathFunction: case Op::MinValue: case Op::MaxValue: case Op::Condition: case Op::Conditional:
      return scalar_functions(e);
    case Op::Variable: case Op::Diff: case Op::Derivative:
      return differentiation(e);
    default:
      return algebra(e);
  }
}

int Scalarizer::eval_input(int function, int component, const std::array<int, 3> &alpha)
{
  InputRef in;
  in.kind = InputKind::Eval;
  in.function = function;
  in.component = component;
  in.alpha = alpha;
  return p_.input(in);
}

Tensor Scalarizer::terminal(const Expr &e)
{
  Tensor t = make(e->shape);
  const int n = static_cast<int>(t.ids.size());
  switch (e->op) {
    case Op::Argument:
      for (int c = 0; c < n; ++c) t.ids[c] = eval_input(e->index == 0 ? kTestFunction : kTrialFunction, c, {0, 0, 0});
      break;
    case Op::Coefficient:
      for (int c = 0; c < n; ++c) t.ids[c] = eval_input(coefficient_function(e->index), c, {0, 0, 0});
      break;
    case Op::Constant: {
      InputRef in;
      in.kind = InputKind::Constant;
      in.slot = e->index;
      t.ids[0] = p_.input(in);
      break;
    }
    case Op::Literal: t.ids[0] = p_.constant(e->value); break;
    case Op::SpatialCoordinate:
      for (int c = 0; c < n; ++c) t.ids[c] = eval_input(kCoordinates, c, {0, 0, 0});
      break;
    case Op::FacetNormal:
      if (g_.facet < 0)
        throw FormError("FacetNormal is defined on exterior facet integrals (ds) only, not in a cell integral (dx)");
      for (int c = 0; c < n; ++c) t.ids[c] = g_.normal[static_cast<size_t>(c)];
      break;
    default:  // Identity
      for (int i = 0; i < e->shape[0]; ++i)
        for (int j = 0; j < e->shape[0]; ++j) t.ids[i * e->shape[0] + j] = p_.constant(i == j ? 1.0 : 0.0);
  }
  return t;
}

// grad of every component: shape s -> s + (d,). Each input's physical derivative is
// known; everything else follows by the chain rule.
Tensor Scalarizer::grad_of(const Tensor &t)
{
  const int d = g_.dim;
  Shape s = t.shape;
  s.push_back(d);
  Tensor out = make(s);
  for (int i = 0; i < d; ++i) {
    ForwardDerivative D(p_, [&, i](int node) -> std::optional<int> {
      const SNode &n = p_.node(node);
      if (n.op != SOp::Input) return std::nullopt;
      const InputRef in = p_.inputs()[static_cast<size_t>(n.input)];
      if (in.kind != InputKind::Eval) return p_.zero();  // constants, affine J, weights
      int order = in.alpha[0] + in.alpha[1] + in.alpha[2];
      if (in.function == kCoordinates) {
        if (order > 0) throw FormError("second derivatives of the geometry (grad of an expression with grad on curved cells) are not supported");
        return p_.constant(in.component == i ? 1.0 : 0.0);
      }
      if (order >= 2) throw FormError("derivatives of order 3 and higher are not supported");
      if (order >= 1 && !g_.affine) throw FormError("second derivatives on curved (P2) cells are not supported");
      int sum = p_.zero();
      for (int k = 0; k < d; ++k) {
        auto alpha = in.alpha;
        alpha[static_cast<size_t>(k)] += 1;
        sum = p_.add(sum, p_.mul(eval_input(in.function, in.component, alpha), g_.K[static_cast<size_t>(k * d + i)]));
      }
      return sum;
    });
    for (size_t c = 0; c < t.ids.size(); ++c) out.ids[c * static_cast<size_t>(d) + static_cast<size_t>(i)] = D(t.ids[c]);
  }
  return out;
}

Tensor Scalarizer::spatial(const Expr &e)
{
  const int d = g_.dim;
  Tensor a = (*this)(e->operands[0]);
  Tensor g = grad_of(a);  // shape a.shape + (d,)
  Tensor out = make(e->shape);
  const int lead = size_of(a.shape);
  switch (e->op) {
    case Op::Grad: return g;
    case Op::NablaGrad:  // (d,) + shape: out[i, c] = g[c, i]
      for (int c = 0; c < lead; ++c)
        for (int i = 0; i < d; ++i) out.ids[static_cast<size_t>(i * lead + c)] = g.ids[static_cast<size_t>(c * d + i)];
      return out;
    case Op::Div: {  // contract the last axis of a with the derivative axis
      int head = leading(a.shape);
      for (int h = 0; h < head; ++h) {
        int s = p_.zero();
        for (int i = 0; i < d; ++i) s = p_.add(s, g.ids[static_cast<size_t>((h * d + i) * d + i)]);
        out.ids[static_cast<size_t>(h)] = s;
      }
      return out;
    }
    case Op::NablaDiv: {  // contract the first axis
      int tail = lead / d;
      for (int t = 0; t < tail; ++t) {
        int s = p_.zero();
        for (int i = 0; i < d; ++i) s = p_.add(s, g.ids[static_cast<size_t>((i * tail + t) * d + i)]);
        out.ids[static_cast<size_t>(t)] = s;
      }
      return out;
    }
    default: {  // Curl
      auto G = [&](int c, int i) { return g.ids[static_cast<size_t>(c * d + i)]; };
      if (a.shape.empty()) {  // 2D scalar: (dy a, -dx a)
        out.ids = {G(0, 1), p_.neg(G(0, 0))};
      } else if (d == 2) {
        out.ids = {p_.sub(G(1, 0), G(0, 1))};
      } else {
        out.ids = {p_.sub(G(2, 1), G(1, 2)), p_.sub(G(0, 2), G(2, 0)), p_.sub(G(1, 0), G(0, 1))};
      }
      return out;
    }
  }
}

Tensor Scalarizer::scalar_functions(const Expr &e)
{
  static const std::map<std::string, SOp> fns = {
      {"sqrt", SOp::Sqrt}, {"exp", SOp::Exp},   {"ln", SOp::Log},     {"abs", SOp::Abs},   {"sin", SOp::Sin},
      {"cos", SOp::Cos},   {"tan", SOp::Tan},   {"asin", SOp::Asin},  {"acos", SOp::Acos}, {"atan", SOp::Atan},
      {"sinh", SOp::Sinh}, {"cosh", SOp::Cosh}, {"tanh", SOp::Tanh},  {"erf", SOp::Erf},   {"sign", SOp::Sign},
      {"lt", SOp::Lt},     {"le", SOp::Le},     {"gt", SOp::Gt},      {"ge", SOp::Ge},     {"eq", SOp::Eq},
      {"ne", SOp::Ne},     {"and", SOp::And},   {"or", SOp::Or},      {"not", SOp::Not}};
  Tensor out = make(e->shape);
  auto arg = [&](size_t i) { return (*this)(e->operands[i]); };
  switch (e->op) {
    case Op::MathFunction: out.ids[0] = p_.unary(fns.at(e->name), arg(0).ids[0]); return out;
    case Op::MinValue: out.ids[0] = p_.binary(SOp::Min, arg(0).ids[0], arg(1).ids[0]); return out;
    case Op::MaxValue: out.ids[0] = p_.binary(SOp::Max, arg(0).ids[0], arg(1).ids[0]); return out;
    case Op::Condition:
      if (e->name == "not") out.ids[0] = p_.unary(SOp::Not, arg(0).ids[0]);
      else out.ids[0] = p_.binary(fns.at(e->name), arg(0).ids[0], arg(1).ids[0]);
      return out;
    default: {  // Conditional
      int c = arg(0).ids[0];
      Tensor t = arg(1), f = arg(2);
      for (size_t i = 0; i < out.ids.size(); ++i) out.ids[i] = p_.select(c, t.ids[i], f.ids[i]);
      return out;
    }
  }
}

Tensor Scalarizer::differentiation(const Expr &e)
{
  if (e->op == Op::Variable) {
    Tensor a = (*this)(e->operands[0]);
    for (size_t c = 0; c < a.ids.size(); ++c) a.ids[c] = p_.ident(a.ids[c], e->index, static_cast<int>(c));
    return a;
  }
  Tensor f = (*this)(e->operands[0]);
  if (e->op == Op::Diff) {
    const int label = e->operands[1]->index;
    Tensor v = (*this)(e->operands[1]);
    Tensor out = make(e->shape);
    const size_t nv = v.ids.size();
    for (size_t k = 0; k < nv; ++k) {
      ForwardDerivative D(p_, [&, k](int node) -> std::optional<int> {
        const SNode &n = p_.node(node);
        if (n.op != SOp::Ident || n.label != label) return std::nullopt;
        return p_.constant(static_cast<size_t>(n.comp) == k ? 1.0 : 0.0);
      });
      for (size_t c = 0; c < f.ids.size(); ++c) out.ids[c * nv + k] = D(f.ids[c]);
    }
    return out;
  }
  // Derivative: seed w's evaluations with du's. A terminal direction keeps derivatives
  // (dref of w -> dref of du); any other direction works where w appears without grad.
  const Expr &w = e->operands[1], &du = e->operands[2];
  const int wf = coefficient_function(w->index);
  const bool du_terminal = du->op == Op::Argument || du->op == Op::Coefficient;
  const int duf = du->op == Op::Argument ? (du->index == 0 ? kTestFunction : kTrialFunction)
                  : du->op == Op::Coefficient ? coefficient_function(du->index) : 0;
  Tensor dir = (*this)(du);
  ForwardDerivative D(p_, [&](int node) -> std::optional<int> {
    const SNode &n = p_.node(node);
    if (n.op != SOp::Input) return std::nullopt;
    const InputRef in = p_.inputs()[static_cast<size_t>(n.input)];
    if (in.kind != InputKind::Eval || in.function != wf) return p_.zero();
    if (du_terminal) return eval_input(duf, in.component, in.alpha);
    if (in.alpha != std::array<int, 3>{0, 0, 0})
      throw FormError("derivative(): a direction that is not a function cannot be used where '" + w->name + "' is differentiated");
    return dir.ids[static_cast<size_t>(in.component)];
  });
  Tensor out = make(e->shape);
  for (size_t c = 0; c < f.ids.size(); ++c) out.ids[c] = D(f.ids[c]);
  return out;
}

}  // namespace femgpu
