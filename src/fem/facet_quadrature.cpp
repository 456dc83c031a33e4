// The (d-1)-simplex rule mapped onto facet f of the reference d-simplex.
#include "fem/facet_quadrature.h"

#include <cmath>
#include <stdexcept>

#include "ir/reference_facets.h"

namespace femgpu {

namespace {

// sqrt(det(Jf^T Jf)) for the facet map's columns (dim x (dim-1), column-major in `cols`).
double gram_factor(int dim, const std::vector<std::vector<double>> &cols)
{
  auto dot = [&](const std::vector<double> &a, const std::vector<double> &b) {
    double s = 0;
    for (int k = 0; k < dim; ++k) s += a[static_cast<size_t>(k)] * b[static_cast<size_t>(k)];
    return s;
  };
  if (dim == 2) return std::sqrt(dot(cols[0], cols[0]));
  const double a = dot(cols[0], cols[0]), b = dot(cols[0], cols[1]), c = dot(cols[1], cols[1]);
  return std::sqrt(a * c - b * b);
}

}  // namespace

QuadratureRule facet_quadrature(int dim, int facet, int degree, const std::string &share_dir)
{
  if (dim < 2 || dim > 3 || facet < 0 || facet > dim)
    throw std::invalid_argument("facet_quadrature: no facet " + std::to_string(facet) + " on a simplex of dimension " + std::to_string(dim));
  // The facet's vertices, those of the cell but vertex `facet`, in increasing order:
  // X = V_a + sum_k (xi_k + 1)/2 (V_{b_k} - V_a), xi on the reference (d-1)-simplex.
  std::vector<int> corners;
  for (int k = 0; k <= dim; ++k)
    if (k != facet) corners.push_back(k);
  const std::vector<double> origin = reference_vertex(dim, corners[0]);
  std::vector<std::vector<double>> cols;
  for (size_t k = 1; k < corners.size(); ++k) {
    std::vector<double> v = reference_vertex(dim, corners[k]);
    for (int i = 0; i < dim; ++i) v[static_cast<size_t>(i)] = (v[static_cast<size_t>(i)] - origin[static_cast<size_t>(i)]) / 2;
    cols.push_back(v);
  }
  const QuadratureRule sub = simplex_quadrature(dim - 1, degree, share_dir);
  const double gram = gram_factor(dim, cols);
  QuadratureRule rule{dim, sub.degree, sub.family + " on facet " + std::to_string(facet), {}, {}};
  for (int q = 0; q < sub.size(); ++q) {
    for (int i = 0; i < dim; ++i) {
      double x = origin[static_cast<size_t>(i)];
      for (int k = 0; k < dim - 1; ++k)
        x += (sub.points[static_cast<size_t>(q * (dim - 1) + k)] + 1) * cols[static_cast<size_t>(k)][static_cast<size_t>(i)];
      rule.points.push_back(x);
    }
    rule.weights.push_back(sub.weights[static_cast<size_t>(q)] * gram);
  }
  return rule;
}

}  // namespace femgpu
