// Right-hand-side kernels (rank-1 forms with no trial function and no coefficient, some
// with no evaluation group at all): the CPU reference integrates a constant load exactly
// (the basis sums to one, so the entries of a cell sum to -c |cell|), and OpenCL SCPWI and
// tiled kernels add what the reference adds, in 2D P1-P4 and 3D P1-P3.
#include <catch2/catch.hpp>

#include <numeric>

#include "support/opencl_check.h"
#include "support/right_hand_sides.h"

using namespace femgpu;
using namespace femgpu::test;

namespace {

// Volume of simplex `cell` of d's affine coordinates.
double cell_volume(const ActionData &d, int dim, int cell)
{
  const double *x[4];
  for (int k = 0; k <= dim; ++k) x[k] = &d.coords[static_cast<size_t>(d.coords_map[static_cast<size_t>(cell * (dim + 1) + k)])];
  double j[3][3];
  for (int r = 0; r < dim; ++r)
    for (int c = 0; c < dim; ++c) j[r][c] = x[c + 1][r] - x[0][r];
  const double det = dim == 2 ? j[0][0] * j[1][1] - j[0][1] * j[1][0]
                              : j[0][0] * (j[1][1] * j[2][2] - j[1][2] * j[2][1]) - j[0][1] * (j[1][0] * j[2][2] - j[1][2] * j[2][0]) +
                                    j[0][2] * (j[1][0] * j[2][1] - j[1][1] * j[2][0]);
  return std::fabs(det) / (dim == 2 ? 2.0 : 6.0);
}

}  // namespace

TEST_CASE("the reference integrates a constant right-hand side exactly", "[reference][rhs]")
{
  std::mt19937 rng(41);
  const FormCase c = right_hand_side_cases()[1];  // L = c v
  for (int dim : {2, 3})
    for (int degree : {1, 2, 3}) {
      ActionData d = make_action(c, dim, degree, 5, rng);
      REQUIRE(d.ir.groups.empty());
      const int width = d.ir.n_test_basis;
      std::vector<int> own(static_cast<size_t>(d.n_cells * width));
      std::iota(own.begin(), own.end(), 0);  // every cell its own entries
      d.test_map = own;
      std::vector<double> out(own.size(), 0.0);
      ActionArrays arrays = d.arrays();
      reference_action(d.ir, d.tab, arrays, out.data());
      for (int cell = 0; cell < d.n_cells; ++cell) {
        const double sum = std::accumulate(out.begin() + cell * width, out.begin() + (cell + 1) * width, 0.0);
        INFO("dim " << dim << " P" << degree << " cell " << cell);
        CHECK(sum == Approx(-d.constants[0] * cell_volume(d, dim, cell)).epsilon(1e-13));
      }
    }
}

TEST_CASE("OpenCL right-hand-side kernels match the reference action", "[opencl][kernel][rhs]")
{
  std::mt19937 rng(43);
  const std::vector<std::pair<int, int>> pairs{{2, 1}, {2, 2}, {2, 3}, {2, 4}, {3, 1}, {3, 2}, {3, 3}};
  for (const FormCase &c : right_hand_side_cases())
    for (const auto &[dim, degree] : pairs) {
      ActionData d = make_action(c, dim, degree, 37, rng);
      std::vector<Schedule> schedules = tiled_sample(d.ir, d.tab.n_points());
      schedules.push_back(Schedule::single_cell_per_work_item(32));
      schedules.push_back(Schedule::single_cell_per_work_item(16).with_tables(Tables::Constant));
      for (const Schedule &s : schedules) {
        INFO(c.name << " dim " << dim << " P" << degree << ": " << to_string(s));
        CHECK(opencl_action_error(d, s) < 1e-12);
      }
    }
}
