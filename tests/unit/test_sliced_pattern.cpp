// The assembled operator's layout (fem/sliced_pattern.h): the cell matrices summed into
// sliced ELLPACK apply the operator itself. Against the CPU reference action, scalar and
// vector forms, 2D and 3D, with random trial values added onto a random output (y += A x),
// and with constrained DOFs (negative map entries give and receive nothing). Its nonzeros
// are those of femgpu-bench's CSR of the same mesh; the sampled estimate is exact when it
// samples every row and close when it does not; a map entry outside the rows is an error.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

#include "fem/action_tables.h"
#include "fem/lattice_mesh.h"
#include "fem/sliced_pattern.h"
#include "form/parser.h"
#include "ir/lower.h"
#include "reference/reference_action.h"
#include "reference/reference_diagonal.h"
#include "tools/lattice_csr.h"
#include "support/lattice_arrays.h"

using namespace femgpu;

namespace {

struct Case {
  ActionIR ir;
  Tabulation tab;
  LatticeMesh mesh;
};

Case make_case(const char *form, int dim, int degree, int components, int intervals)
{
  FormSignature sig{dim == 2 ? CellType::Triangle : CellType::Tetrahedron, Element{degree, components}, 1};
  ActionIR ir = lower_form(parse_form_file(default_share_dir() + "/forms/" + form + ".ufl", sig).a);
  Tabulation tab = tabulate_action(ir, default_share_dir());
  return Case{std::move(ir), std::move(tab), lattice_mesh(dim, intervals, degree, components)};
}

std::vector<double> all_cell_matrices(const Case &c, const ActionArrays &a)
{
  std::vector<double> cells;
  for (int cell = 0; cell < a.n_cells; ++cell) {
    const std::vector<double> k = reference_cell_matrix(c.ir, c.tab, a, cell);
    cells.insert(cells.end(), k.begin(), k.end());
  }
  return cells;
}

// y0 + A x by the pattern against y0 + the reference action; `constrained`: every map
// entry of the DOFs divisible by 7 made negative first.
void check_operator(const Case &c, bool constrained)
{
  const LatticeMesh &m = c.mesh;
  std::vector<int> map = m.map;
  if (constrained)
    for (int &d : map)
      if (d % 7 == 0) d = -1;
  std::mt19937 rng(11u * static_cast<unsigned>(m.n_cells));
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> x(m.n_dofs()), y0(m.n_dofs());
  for (size_t i = 0; i < x.size(); ++i) x[i] = u(rng), y0[i] = u(rng);
  const ActionArrays a = test::lattice_arrays(c.ir, m, x, map);
  const int w = cell_width(c.ir);
  const SlicedPattern p = sliced_pattern(m.n_cells, w, map.data(), map.data(), m.n_dofs(), m.n_dofs());
  REQUIRE(p.slice_start.back() == static_cast<long long>(p.stored()));
  REQUIRE(p.jmap.size() == p.stored() + 1);
  const std::vector<double> values = sum_cell_matrices(p, all_cell_matrices(c, a).data());
  std::vector<double> got = y0, want = y0;
  sliced_multiply_add(p, values, x.data(), got.data());
  reference_action(c.ir, c.tab, a, want.data());
  double scale = 0, error = 0;
  for (size_t r = 0; r < want.size(); ++r) {
    scale = std::max(scale, std::abs(want[r] - y0[r]));
    error = std::max(error, std::abs(got[r] - want[r]));
  }
  CHECK(scale > 0);
  CHECK(error <= 1e-12 * scale);
}

}  // namespace

TEST_CASE("sliced_pattern: the summed cell matrices apply the operator (scalar and vector, 2D and 3D)", "[assembled]")
{
  for (bool constrained : {false, true}) {
    INFO("constrained DOFs: " << constrained);
    check_operator(make_case("laplace", 2, 1, 1, 5), constrained);
    check_operator(make_case("mass", 3, 1, 1, 3), constrained);
    check_operator(make_case("helmholtz", 3, 2, 1, 2), constrained);
    check_operator(make_case("elasticity", 3, 1, 3, 2), constrained);
    check_operator(make_case("elasticity", 2, 2, 2, 3), constrained);
  }
}

TEST_CASE("sliced_pattern: its nonzeros are the CSR's of the same mesh, each row's columns distinct and sorted", "[assembled]")
{
  const Case c = make_case("mass", 3, 2, 1, 3);
  const LatticeMesh &m = c.mesh;
  const int w = cell_width(c.ir);
  const SlicedPattern p = sliced_pattern(m.n_cells, w, m.map.data(), m.map.data(), m.n_dofs(), m.n_dofs());
  std::vector<double> ones(static_cast<size_t>(m.n_cells) * static_cast<size_t>(w * w), 1.0);
  const Csr csr = lattice_csr(m, ones);
  CHECK(p.nonzeros == static_cast<long long>(csr.rows.back()));
  constexpr int R = SlicedPattern::kSliceRows;
  for (size_t s = 0; s + 1 < p.slice_start.size(); ++s)
    for (int lane = 0; lane < R && s * R + static_cast<size_t>(lane) < m.n_dofs(); ++lane) {
      std::vector<int> columns;
      for (long long k = p.slice_start[s] + lane; k < p.slice_start[s + 1]; k += R)
        if (p.jmap[static_cast<size_t>(k) + 1] > p.jmap[static_cast<size_t>(k)]) columns.push_back(p.columns[static_cast<size_t>(k)]);
      const size_t r = s * R + static_cast<size_t>(lane);
      CHECK(columns == std::vector<int>(csr.columns.begin() + csr.rows[r], csr.columns.begin() + csr.rows[r + 1]));
    }
}

// Above kThreadedSlices (4096 slices) threads build runs of slices; the pattern must not
// depend on how many. 2D P1 on 400 x 400 squares: 160801 rows, 5026 slices; some map
// entries constrained, as a Dirichlet boundary leaves them.
TEST_CASE("sliced_pattern: the same pattern on one thread and on several", "[assembled]")
{
  const LatticeMesh m = lattice_mesh(2, 400, 1, 1);
  std::vector<int> map = m.map;
  for (std::size_t k = 0; k < map.size(); k += 7)
    if (map[k] % 5 == 0) map[k] = -1 - map[k];
  const int w = 3;
  const SlicedPattern one = sliced_pattern(m.n_cells, w, map.data(), map.data(), m.n_dofs(), m.n_dofs(), 1);
  REQUIRE(one.slice_start.size() - 1 > 4096);
  for (int threads : {2, 3, 8}) {
    INFO(threads << " threads");
    const SlicedPattern many = sliced_pattern(m.n_cells, w, map.data(), map.data(), m.n_dofs(), m.n_dofs(), threads);
    CHECK(many.nonzeros == one.nonzeros);
    CHECK(many.slice_start == one.slice_start);
    CHECK(many.columns == one.columns);
    CHECK(many.jmap == one.jmap);
    CHECK(many.perm == one.perm);
  }
}

TEST_CASE("estimate_nonzeros: exact over every row, close over a sample", "[assembled]")
{
  const Case c = make_case("laplace", 3, 1, 1, 8);
  const LatticeMesh &m = c.mesh;
  const int w = cell_width(c.ir);
  const SlicedPattern p = sliced_pattern(m.n_cells, w, m.map.data(), m.map.data(), m.n_dofs(), m.n_dofs());
  const double all = estimate_nonzeros(m.n_cells, w, m.map.data(), m.map.data(), m.n_dofs(), static_cast<int>(m.n_dofs()));
  CHECK(all == Approx(static_cast<double>(p.nonzeros)).epsilon(1e-12));
  const double sampled = estimate_nonzeros(m.n_cells, w, m.map.data(), m.map.data(), m.n_dofs(), 64);
  CHECK(sampled == Approx(static_cast<double>(p.nonzeros)).epsilon(0.1));
}

TEST_CASE("sliced_pattern: a map entry outside the rows or columns is an error naming it", "[assembled]")
{
  const std::vector<int> map{0, 1, 2, 1, 2, 5};
  CHECK_THROWS_WITH(sliced_pattern(2, 3, map.data(), map.data(), 5, 5), Catch::Contains("test map's entry 5") && Catch::Contains("cell 1"));
  const std::vector<int> test{0, 1, 2, 1, 2, 3};
  CHECK_THROWS_WITH(sliced_pattern(2, 3, test.data(), map.data(), 5, 5), Catch::Contains("trial map's entry 5"));
}
