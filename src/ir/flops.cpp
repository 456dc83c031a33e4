// FLOP counts of the untransformed kernel (the paper's Eq. 12 plus the pointwise program).
#include "ir/action_ir.h"

namespace femgpu {

PointwiseCost pointwise_cost(const Pointwise &pw)
{
  PointwiseCost c;
  const Program &p = pw.program;
  for (int id = 0; id < p.size(); ++id) {
    SOp op = p.node(id).op;
    if (op == SOp::Const || op == SOp::Input || op == SOp::Ident) continue;
    (pw.varies[static_cast<size_t>(id)] ? c.per_point : c.per_cell) += 1;
  }
  return c;
}

FlopCount count_flops(const ActionIR &ir, int n_quadrature_points, bool test_identity)
{
  const long long Q = n_quadrature_points;
  FlopCount f;
  for (const EvalGroup &g : ir.groups) f.contractions += 2LL * static_cast<long long>(g.terms.size()) * Q * g.n_basis;
  if (!test_identity) f.contractions += 2LL * ir.n_eval() * Q * ir.n_test_basis;
  PointwiseCost pc = pointwise_cost(ir.pointwise);
  f.pointwise = pc.per_point * Q + pc.per_cell;
  // Affine Jacobian from vertex differences: d*d subtractions and scalings.
  f.geometry = ir.affine ? 2LL * ir.dim * ir.dim : 0;
  return f;
}

}  // namespace femgpu
