// femgpu-bench's SpMV baseline multiplies the matrix lattice_csr assembles: it must be the
// operator itself. Its product with random values equals the CPU reference action on the
// same lattice mesh, scalar and vector forms, 2D and 3D; rows are sorted and unique.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>

#include "fem/action_tables.h"
#include "fem/lattice_mesh.h"
#include "form/parser.h"
#include "ir/lower.h"
#include "reference/reference_action.h"
#include "reference/reference_diagonal.h"
#include "tools/lattice_csr.h"

using namespace femgpu;

namespace {

void check_operator(const char *form, int dim, int degree, int components, int intervals)
{
  FormSignature sig{dim == 2 ? CellType::Triangle : CellType::Tetrahedron, Element{degree, components}, 1};
  const ActionIR ir = lower_form(parse_form_file(default_share_dir() + "/forms/" + form + ".ufl", sig).a);
  const Tabulation tab = tabulate_action(ir, default_share_dir());
  const LatticeMesh m = lattice_mesh(dim, intervals, degree, components);
  std::mt19937 rng(7u * static_cast<unsigned>(dim + degree));
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> x(m.n_dofs()), w(m.n_dofs());
  for (size_t i = 0; i < x.size(); ++i) x[i] = u(rng), w[i] = 0.1 * u(rng);
  ActionArrays a;
  a.n_cells = m.n_cells;
  a.coordinates = {m.coordinates.data(), m.coordinate_map.data()};
  a.trial = {x.data(), m.map.data()};
  for (size_t i = 0; i < ir.coefficients.size(); ++i) a.coefficients.push_back({w.data(), m.map.data()});
  a.test_map = m.map.data();
  for (const ConstantInfo &k : ir.constants) a.constants.push_back(k.default_value);
  const size_t width = static_cast<size_t>(cell_width(ir));
  std::vector<double> cells;
  for (int c = 0; c < m.n_cells; ++c) {
    const std::vector<double> k = reference_cell_matrix(ir, tab, a, c);
    cells.insert(cells.end(), k.begin(), k.end());
  }
  REQUIRE(cells.size() == static_cast<size_t>(m.n_cells) * width * width);
  const Csr csr = lattice_csr(m, cells);
  std::vector<double> expected(m.n_dofs(), 0.0), got(m.n_dofs(), 0.0);
  reference_action(ir, tab, a, expected.data());
  double scale = 0, error = 0;
  for (size_t r = 0; r < m.n_dofs(); ++r) {
    REQUIRE(std::is_sorted(csr.columns.begin() + csr.rows[r], csr.columns.begin() + csr.rows[r + 1]));
    REQUIRE(std::adjacent_find(csr.columns.begin() + csr.rows[r], csr.columns.begin() + csr.rows[r + 1]) == csr.columns.begin() + csr.rows[r + 1]);
    for (int k = csr.rows[r]; k < csr.rows[r + 1]; ++k) got[r] += csr.values[static_cast<size_t>(k)] * x[static_cast<size_t>(csr.columns[static_cast<size_t>(k)])];
    scale = std::max(scale, std::abs(expected[r]));
    error = std::max(error, std::abs(got[r] - expected[r]));
  }
  INFO(form << " " << dim << "D P" << degree);
  CHECK(scale > 0);
  CHECK(error <= 1e-12 * scale);
}

}  // namespace

TEST_CASE("lattice_csr: the assembled matrix applies the operator (scalar and vector, 2D and 3D)", "[spmv]")
{
  check_operator("laplace", 2, 2, 1, 3);
  check_operator("helmholtz", 2, 3, 1, 2);
  check_operator("mass", 3, 2, 1, 2);
  check_operator("elasticity", 2, 2, 2, 2);
  check_operator("hyperelasticity", 3, 1, 3, 2);
}
