// Lattice-numbered P_k DOFs on structured simplex meshes.
#include "fem/lattice_mesh.h"

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "fem/structured_cells.h"
#include "fem/tabulation.h"

namespace femgpu {

LatticeMesh lattice_mesh(int dim, int n_intervals, int degree, int components)
{
  if ((dim != 2 && dim != 3) || n_intervals < 1 || degree < 1 || components < 1)
    throw std::invalid_argument("lattice_mesh: bad sizes");
  LatticeMesh m;
  m.dim = dim;
  m.n_intervals = n_intervals;
  m.degree = degree;
  m.components = components;
  const std::int64_t N = n_intervals, k = degree, L = k * N + 1;  // lattice points per direction
  const std::int64_t faces[3] = {N, N, N};
  std::vector<std::int64_t> cells = structured_cells(dim, faces);
  m.n_cells = static_cast<int>(cells.size() / static_cast<size_t>(dim + 1));
  m.n_nodes = static_cast<size_t>(dim == 2 ? L * L : L * L * L);
  const std::int64_t nv = N + 1, n_vertices = dim == 2 ? nv * nv : nv * nv * nv;
  for (std::int64_t v = 0; v < n_vertices; ++v) {
    const std::int64_t idx[3] = {v % nv, (v / nv) % nv, v / (nv * nv)};
    for (int d = 0; d < dim; ++d) m.coordinates.push_back(static_cast<double>(idx[d]) / static_cast<double>(N));
  }
  // lambda[j][v]: the P1 basis at the element's lattice nodes, to place node j in a cell.
  std::vector<double> nodes = lagrange_lattice_nodes(dim, degree);
  BasisTable p1 = tabulate_lagrange(dim, 1, nodes, 0);
  const int nb = p1.n_points;
  m.coordinate_map.reserve(cells.size());
  m.map.reserve(static_cast<size_t>(m.n_cells) * static_cast<size_t>(nb * components));
  for (int c = 0; c < m.n_cells; ++c) {
    const std::int64_t *cv = &cells[static_cast<size_t>(c) * static_cast<size_t>(dim + 1)];
    for (int v = 0; v <= dim; ++v) m.coordinate_map.push_back(static_cast<int>(cv[v] * dim));
    for (int j = 0; j < nb; ++j) {
      std::int64_t lattice = 0, stride = 1;
      for (int d = 0; d < dim; ++d) {
        double x = 0.0;  // in lattice units: vertex index times k
        for (int v = 0; v <= dim; ++v) {
          const std::int64_t vi = d == 0 ? cv[v] % nv : d == 1 ? (cv[v] / nv) % nv : cv[v] / (nv * nv);
          x += p1({0, 0, 0}, j, v) * static_cast<double>(vi * k);
        }
        const double r = std::round(x);
        if (std::fabs(x - r) > 1e-6)
          throw std::runtime_error("lattice_mesh: P" + std::to_string(degree) + " nodes are not equispaced");
        lattice += static_cast<std::int64_t>(r) * stride;
        stride *= L;
      }
      for (int comp = 0; comp < components; ++comp) m.map.push_back(static_cast<int>(lattice * components + comp));
    }
  }
  return m;
}

}  // namespace femgpu
