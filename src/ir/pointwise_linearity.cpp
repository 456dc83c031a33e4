// The degree of every node of the pointwise program in the trial function's evaluations
// and in the quadrature weight (pointwise_linearity.h).
#include "ir/pointwise_linearity.h"

#include <vector>

namespace femgpu {

namespace {

// A node's degree in the trial evaluations (u) and the weight (w); `linear` is false once
// it is neither homogeneous in both nor free of them.
struct Degree {
  int u = 0, w = 0;
  bool linear = true;
  bool cell_only() const { return linear && u == 0 && w == 0; }
};

Degree not_linear() { return {0, 0, false}; }

Degree input_degree(const InputRef &in)
{
  switch (in.kind) {
    case InputKind::Eval: return in.function == kTrialFunction ? Degree{1, 0, true} : not_linear();
    case InputKind::Weight: return {0, 1, true};
    case InputKind::Jacobian:
    case InputKind::Constant: return {};
  }
  return not_linear();
}

Degree node_degree(const Program &p, const SNode &n, const std::vector<Degree> &deg)
{
  auto at = [&](int id) { return deg[static_cast<size_t>(id)]; };
  switch (n.op) {
    case SOp::Const: return {};
    case SOp::Input: return input_degree(p.inputs()[static_cast<size_t>(n.input)]);
    case SOp::Neg:
    case SOp::Ident: return at(n.a);
    case SOp::Add: {
      const Degree a = at(n.a), b = at(n.b);
      return a.linear && b.linear && a.u == b.u && a.w == b.w ? a : not_linear();
    }
    case SOp::Mul: {
      const Degree a = at(n.a), b = at(n.b);
      const Degree m{a.u + b.u, a.w + b.w, a.linear && b.linear};
      return m.linear && m.u <= 1 && m.w <= 1 ? m : not_linear();
    }
    case SOp::Div: return at(n.b).cell_only() ? at(n.a) : not_linear();
    default:  // any other operation is linear only on per-cell values
      for (int o : {n.a, n.b, n.c})
        if (o >= 0 && !at(o).cell_only()) return not_linear();
      return {};
  }
}

}  // namespace

bool same_linear_map_at_every_point(const ActionIR &ir)
{
  if (ir.rank != 2 || !ir.affine || ir.facet >= 0) return false;
  const Program &p = ir.pointwise.program;
  std::vector<Degree> deg(static_cast<size_t>(p.size()));
  for (int id = 0; id < p.size(); ++id) deg[static_cast<size_t>(id)] = node_degree(p, p.node(id), deg);
  for (int out : ir.pointwise.outputs) {
    if (p.is_const(out, 0.0)) continue;  // a test term nothing reads
    const Degree d = deg[static_cast<size_t>(out)];
    if (!d.linear || d.u != 1 || d.w != 1) return false;
  }
  return true;
}

}  // namespace femgpu
