// Benchmark meshes: lattice-numbered P_k DOFs on structured simplices integrate like
// the continuous space they represent (area, the Dirichlet energy of x, shared DOFs).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <set>

#include "fem/action_tables.h"
#include "fem/lattice_mesh.h"
#include "fem/tabulation.h"
#include "form/parser.h"
#include "ir/lower.h"
#include "reference/reference_action.h"

using namespace femgpu;

namespace {

double apply_and_dot(const char *form, int dim, int degree, const std::vector<double> &u, const std::vector<double> &v,
                     const LatticeMesh &m)
{
  FormSignature sig{dim == 2 ? CellType::Triangle : CellType::Tetrahedron, Element{degree, 1}, 1};
  ActionIR ir = lower_form(parse_form_file(default_share_dir() + "/forms/" + form + ".ufl", sig).a);
  Tabulation tab = tabulate_action(ir, default_share_dir());
  ActionArrays a;
  a.n_cells = m.n_cells;
  a.coordinates = {m.coordinates.data(), m.coordinate_map.data()};
  a.trial = {u.data(), m.map.data()};
  a.test_map = m.map.data();
  std::vector<double> out(m.n_dofs(), 0.0);
  reference_action(ir, tab, a, out.data());
  double s = 0;
  for (size_t i = 0; i < out.size(); ++i) s += out[i] * v[i];
  return s;
}

}  // namespace

// Physical position of every DOF, from the element's own (default) nodes; -1 where a
// DOF gets two different positions from two cells (a non-conforming numbering).
std::vector<double> dof_x(const LatticeMesh &m, bool *conforming)
{
  std::vector<double> nodes = lagrange_nodes(m.dim, m.degree);
  BasisTable p1 = tabulate_lagrange(m.dim, 1, nodes, 0);
  const int nb = p1.n_points, d = m.dim;
  std::vector<double> pos(m.n_dofs() * static_cast<size_t>(d), std::nan(""));
  *conforming = true;
  for (int c = 0; c < m.n_cells; ++c)
    for (int j = 0; j < nb; ++j) {
      const size_t dof = static_cast<size_t>(m.map[static_cast<size_t>(c * nb + j)]);
      for (int i = 0; i < d; ++i) {
        double x = 0;
        for (int v = 0; v <= d; ++v)
          x += p1({0, 0, 0}, j, v) * m.coordinates[static_cast<size_t>(m.coordinate_map[static_cast<size_t>(c * (d + 1) + v)] + i)];
        double &p = pos[dof * static_cast<size_t>(d) + static_cast<size_t>(i)];
        if (std::isnan(p)) p = x;
        else if (std::fabs(p - x) > 1e-12) *conforming = false;
      }
    }
  return pos;
}

TEST_CASE("lattice meshes number every node once, conformingly, and integrate exactly", "[fem][bench]")
{
  for (int dim : {2, 3})
    for (int k = 1; k <= (dim == 2 ? 5 : 4); ++k) {
      LatticeMesh m = lattice_mesh(dim, 3, k, 1);
      std::set<int> used(m.map.begin(), m.map.end());
      CHECK(used.size() == m.n_nodes);  // every lattice node appears
      CHECK(*used.rbegin() == static_cast<int>(m.n_nodes) - 1);
      bool conforming = false;
      std::vector<double> pos = dof_x(m, &conforming);
      INFO("dim " << dim << " P" << k);
      CHECK(conforming);
      std::vector<double> one(m.n_dofs(), 1.0), x(m.n_dofs());
      for (size_t i = 0; i < x.size(); ++i) x[i] = pos[i * static_cast<size_t>(dim)];
      CHECK(apply_and_dot("mass", dim, k, one, one, m) == Approx(1.0).epsilon(1e-12));  // volume
      CHECK(apply_and_dot("laplace", dim, k, x, x, m) == Approx(1.0).epsilon(1e-12));   // int |grad x|^2
      CHECK(apply_and_dot("mass", dim, k, x, one, m) == Approx(0.5).epsilon(1e-12));    // int x
    }
}
