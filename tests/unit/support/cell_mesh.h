// Test meshes of disconnected simplices: each cell owns its DOFs, so interpolating a
// global polynomial cell by cell is exact and a(f, g) is the sum of cell integrals.
#pragma once

#include <functional>
#include <numeric>
#include <random>
#include <vector>

#include "fem/tabulation.h"
#include "reference/reference_action.h"

namespace femgpu::test {

struct CellMesh {
  int dim = 0;
  int n_cells = 0;
  std::vector<double> vertices;       // per cell (dim+1) x dim
  std::vector<int> coordinate_map;    // cell-local P1 nodes: each node's first coordinate
};

// Random well-shaped simplices: a scaled, rotated, shifted reference simplex.
inline CellMesh random_cells(int dim, int n_cells, std::mt19937 &rng)
{
  std::uniform_real_distribution<double> u(-0.3, 0.3);
  CellMesh m;
  m.dim = dim;
  m.n_cells = n_cells;
  for (int c = 0; c < n_cells; ++c) {
    std::vector<double> shift(static_cast<size_t>(dim));
    for (double &s : shift) s = 2.0 * u(rng);
    for (int j = 0; j <= dim; ++j)
      for (int i = 0; i < dim; ++i) {
        double unit = (j > 0 && i == j - 1) ? 1.0 : 0.0;  // vertices 0, e_1, ..., e_d
        m.vertices.push_back(shift[static_cast<size_t>(i)] + 0.8 * unit + u(rng) * 0.5);
      }
  }
  for (int k = 0; k < n_cells * (dim + 1); ++k) m.coordinate_map.push_back(k * dim);
  return m;
}

// Physical positions of the P_k nodes of every cell: n_cells x n_basis x dim.
inline std::vector<double> node_positions(const CellMesh &m, int degree)
{
  std::vector<double> nodes = lagrange_nodes(m.dim, degree);
  BasisTable p1 = tabulate_lagrange(m.dim, 1, nodes, 0);
  const int nb = p1.n_points, d = m.dim;
  std::vector<double> out;
  for (int c = 0; c < m.n_cells; ++c)
    for (int j = 0; j < nb; ++j)
      for (int i = 0; i < d; ++i) {
        double x = 0.0;
        for (int v = 0; v <= d; ++v) x += p1({0, 0, 0}, j, v) * m.vertices[static_cast<size_t>((c * (d + 1) + v) * d + i)];
        out.push_back(x);
      }
  return out;
}

// Interpolates a vector of polynomials (one per component) at the nodes; DOF layout
// cell-major, then node, then component, matching the identity map below.
template <class F>
std::vector<double> interpolate(const CellMesh &m, int degree, int components, F component_value)
{
  std::vector<double> pos = node_positions(m, degree);
  const size_t n_nodes = pos.size() / static_cast<size_t>(m.dim);
  std::vector<double> dofs;
  for (size_t k = 0; k < n_nodes; ++k) {
    double x[3] = {0, 0, 0};
    for (int i = 0; i < m.dim; ++i) x[i] = pos[k * static_cast<size_t>(m.dim) + static_cast<size_t>(i)];
    for (int c = 0; c < components; ++c) dofs.push_back(component_value(c, x));
  }
  return dofs;
}

inline std::vector<int> identity_map(size_t n)
{
  std::vector<int> m(n);
  std::iota(m.begin(), m.end(), 0);
  return m;
}

}  // namespace femgpu::test
