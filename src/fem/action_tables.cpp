// Tabulates what an ActionIR asks for, element by element.
#include "fem/action_tables.h"

#include <algorithm>
#include <utility>

#include "fem/compressed_points.h"
#include "fem/facet_quadrature.h"
#include "fem/tabulation.h"

namespace femgpu {

namespace {

int max_order(const std::vector<MultiIndex> &ds)
{
  int m = 0;
  for (const MultiIndex &d : ds) m = std::max(m, order(d));
  return m;
}

}  // namespace

Tabulation tabulate_action(const ActionIR &ir, const std::string &share_dir, Points points)
{
  Tabulation t;
  // A ds operator's rule lies on its reference facet; everything else is as for cells.
  t.rule = ir.facet >= 0 ? facet_quadrature(ir.dim, ir.facet, ir.quadrature_degree, share_dir)
                         : simplex_quadrature(ir.dim, ir.quadrature_degree, share_dir);
  t.weights = t.rule.weights;
  for (const EvalGroup &g : ir.groups) {
    BasisTable b = tabulate_lagrange(ir.dim, g.element.degree, t.rule.points, max_order(g.derivatives));
    std::vector<std::vector<double>> tables;
    for (const MultiIndex &d : g.derivatives) tables.push_back(b.at(d));
    t.group_tables.push_back(std::move(tables));
  }
  BasisTable v = tabulate_lagrange(ir.dim, ir.signature.element.degree, t.rule.points, max_order(ir.test_derivatives));
  for (const MultiIndex &d : ir.test_derivatives) t.test_tables.push_back(v.at(d));
  // P1 gradients are constant: tabulate at the first quadrature point.
  std::vector<double> point(t.rule.points.begin(), t.rule.points.begin() + ir.dim);
  BasisTable p1 = tabulate_lagrange(ir.dim, 1, point, 1);
  for (int j = 0; j <= ir.dim; ++j)
    for (int k = 0; k < ir.dim; ++k) {
      MultiIndex a{0, 0, 0};
      a[static_cast<size_t>(k)] = 1;
      t.p1_gradients.push_back(p1(a, 0, j));
    }
  return points == Points::Compressed ? compress_points(ir, std::move(t)) : t;
}

}  // namespace femgpu
