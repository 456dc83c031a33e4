// The facets of PETSc's reference simplex (vertices v0 = (-1, .., -1), v_k = v0 + 2 e_{k-1}),
// shared by lowering (the facet normal and the surface factor of a ds integral) and the
// facet quadrature (src/fem/facet_quadrature.h).
//
// Takes: the cell dimension d (2 or 3) and a local facet f = 0..d, the facet opposite
// reference vertex f (as a cell's closure numbers its vertices).
// Returns: plain numbers. Does not: know meshes or physical cells.
#pragma once

#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace femgpu {

inline int n_reference_facets(int dim) { return dim + 1; }

// Reference vertex k of the simplex of dimension dim: dim coordinates.
inline std::vector<double> reference_vertex(int dim, int k)
{
  std::vector<double> v(static_cast<size_t>(dim), -1.0);
  if (k > 0) v[static_cast<size_t>(k - 1)] = 1.0;
  return v;
}

// The unit outward normal of facet f on the reference cell: (1, .., 1)/sqrt(d) for the
// facet opposite v0, -e_{f-1} for the others.
inline std::array<double, 3> reference_facet_normal(int dim, int facet)
{
  if (dim < 2 || dim > 3 || facet < 0 || facet > dim)
    throw std::invalid_argument("reference facet " + std::to_string(facet) + " of a simplex of dimension " + std::to_string(dim));
  std::array<double, 3> n{0, 0, 0};
  for (int k = 0; k < dim; ++k) n[static_cast<size_t>(k)] = facet == 0 ? 1.0 / std::sqrt(static_cast<double>(dim)) : 0.0;
  if (facet > 0) n[static_cast<size_t>(facet - 1)] = -1.0;
  return n;
}

}  // namespace femgpu
