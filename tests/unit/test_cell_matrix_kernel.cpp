// The generated cell-matrix kernel (build_cell_matrix), run by the OpenCL backend (PoCL
// on CI), gives every cell's matrix as the CPU reference does (reference_cell_matrix:
// the reference action on unit vectors), for every bilinear form of the test cases in
// 2D P1-P3 and 3D P1-P2 on random cells and coefficients; the trial values are NaN (the
// kernel must not read them) and the output is poisoned first. The kernel of a cell
// with more entries than a group row (3D P3 vector: 30^2 entries) takes several passes.
// NVRTC compiles the same kernels for sm_90 where the CUDA toolkit is present.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "kernel/build.h"
#include "kernel/emit.h"
#include "reference/reference_diagonal.h"
#include "runtime/action_backend.h"
#include "support/opencl_check.h"

using namespace femgpu;
using namespace femgpu::test;

namespace {

std::vector<double> reference_matrices(const ActionData &d)
{
  const size_t w = static_cast<size_t>(cell_width(d.ir));
  std::vector<double> all;
  for (int cell = 0; cell < d.arrays().n_cells; ++cell) {
    const std::vector<double> m = reference_cell_matrix(d.ir, d.tab, d.arrays(), cell);
    REQUIRE(m.size() == w * w);
    all.insert(all.end(), m.begin(), m.end());
  }
  return all;
}

double largest_difference(const std::vector<double> &got, const std::vector<double> &want)
{
  double scale = 0.0, diff = 0.0;
  for (size_t i = 0; i < want.size(); ++i) {
    scale = std::max(scale, std::abs(want[i]));
    diff = std::max(diff, std::isfinite(got[i]) ? std::abs(got[i] - want[i]) : INFINITY);
  }
  return diff / std::max(scale, 1e-300);
}

}  // namespace

TEST_CASE("the OpenCL cell-matrix kernel gives the reference's cell matrices", "[opencl][kernel][cell_matrix]")
{
  std::mt19937 rng(31);
  const std::vector<std::tuple<int, int>> shapes{{2, 1}, {2, 2}, {2, 3}, {3, 1}, {3, 2}};
  for (const FormCase &form : form_cases()) {
    if (form.rank != 2) continue;
    for (const auto &[dim, degree] : shapes) {
      ActionData d = make_action(form, dim, degree, 11, rng);
      std::fill(d.values[0].begin(), d.values[0].end(), std::numeric_limits<double>::quiet_NaN());
      std::unique_ptr<ActionBackend> backend = make_opencl_backend(d.ir, d.tab, Schedule::single_cell_per_work_item());
      const std::vector<double> want = reference_matrices(d);
      std::vector<double> got(want.size(), std::numeric_limits<double>::quiet_NaN());
      backend->cell_matrices(d.arrays(), got.data());
      INFO(form.name << " dim " << dim << " P" << degree);
      CHECK(largest_difference(got, want) < 1e-12);
    }
  }
}

TEST_CASE("a cell-matrix kernel with more entries than a group row takes several passes", "[opencl][kernel][cell_matrix]")
{
  std::mt19937 rng(32);
  const FormCase elasticity = form_cases()[3];
  ActionData d = make_action(elasticity, 3, 3, 5, rng);
  const kernel::Kernel k = kernel::build_cell_matrix(d.ir, d.tab);
  CHECK(cell_width(d.ir) * cell_width(d.ir) > k.block_x);
  std::unique_ptr<ActionBackend> backend = make_opencl_backend(d.ir, d.tab, Schedule::single_cell_per_work_item());
  const std::vector<double> want = reference_matrices(d);
  std::vector<double> got(want.size(), std::numeric_limits<double>::quiet_NaN());
  backend->cell_matrices(d.arrays(), got.data());
  CHECK(largest_difference(got, want) < 1e-12);
}
