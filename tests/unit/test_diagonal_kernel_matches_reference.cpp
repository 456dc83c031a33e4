// The generated diagonal kernel (build_diagonal), run on the OpenCL device (PoCL on
// CI), adds the same diagonal to a pre-filled output as the CPU reference
// (reference_diagonal: cell matrices from the reference action on unit vectors): mass,
// Laplace, Helmholtz, elasticity, a nonlinear Jacobian with a coefficient, an
// x-dependent form, curved P2 geometry and the hyperelastic Jacobian, in 2D P1-P3 and
// 3D P1-P2, on random cells with maps whose DOFs collide within and across cells. The
// trial function's values are NaN: the diagonal must not read them. The OpenCL
// backend's diagonal() runs the same kernel in FP64 even under an FP32 schedule, and a
// rank-1 form is rejected with a message.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "kernel/build.h"
#include "kernel/emit.h"
#include "reference/reference_diagonal.h"
#include "runtime/action_backend.h"
#include "runtime/opencl_runtime.h"
#include "support/opencl_check.h"

using namespace femgpu;
using namespace femgpu::test;

namespace {

// Random action data whose trial values are NaN (the diagonal has unit vectors instead).
ActionData diagonal_data(const FormCase &form, int dim, int degree, int n_cells, std::mt19937 &rng)
{
  ActionData d = make_action(form, dim, degree, n_cells, rng);
  std::fill(d.values[0].begin(), d.values[0].end(), std::numeric_limits<double>::quiet_NaN());
  return d;
}

std::vector<double> reference(const ActionData &d)
{
  std::vector<double> want = d.prefill;
  reference_diagonal(d.ir, d.tab, d.arrays(), want.data());
  return want;
}

}  // namespace

TEST_CASE("the generated diagonal kernel matches the reference diagonal on PoCL", "[opencl][kernel][diagonal]")
{
  std::mt19937 rng(17);
  const std::vector<std::pair<int, int>> shapes{{2, 1}, {2, 2}, {2, 3}, {3, 1}, {3, 2}};
  for (const FormCase &form : form_cases()) {
    if (form.rank != 2) continue;
    for (const auto &[dim, degree] : shapes) {
      ActionData d = diagonal_data(form, dim, degree, 29, rng);
      const kernel::Kernel k = kernel::build_diagonal(d.ir, d.tab);
      std::vector<double> got = d.prefill;
      opencl_runtime().diagonal(k, kernel::emit_opencl(k), d.ir, d.tab, d.arrays(), got.data(), got.size());
      INFO(form.name << " dim " << dim << " P" << degree << " Q " << d.tab.n_points() << ", " << k.block_x << " x " << k.block_y
                     << " work-items per group");
      CHECK(relative_error(got, reference(d), d.prefill) < 1e-12);
    }
  }
}

TEST_CASE("the OpenCL backend's diagonal is the reference's, in FP64 under an FP32 schedule", "[opencl][diagonal]")
{
  std::mt19937 rng(23);
  const std::vector<FormCase> forms = form_cases();
  for (const FormCase &form : {forms[3], forms[8]})  // elasticity, hyperelasticity
    for (const Schedule &s : {Schedule::single_cell_per_work_item(32, Precision::FP32), Schedule::single_cell_per_work_item()}) {
      ActionData d = diagonal_data(form, 3, 2, 13, rng);
      std::unique_ptr<ActionBackend> backend = make_opencl_backend(d.ir, d.tab, s);
      std::vector<double> got = d.prefill, want = reference(d);
      backend->diagonal(d.arrays(), got.size(), got.data());
      INFO(form.name << " 3D P2, " << to_string(s));
      CHECK(relative_error(got, want, d.prefill) < 1e-12);
      // A second call adds again, and the action still runs between diagonals.
      std::vector<double> action(got.size(), 0.0);
      d.values[0] = random_values(d.values[0].size(), rng);
      backend->apply(d.arrays(), action.size(), action.data());
      backend->diagonal(d.arrays(), got.size(), got.data());
      reference_diagonal(d.ir, d.tab, d.arrays(), want.data());
      CHECK(relative_error(got, want, d.prefill) < 1e-12);
    }
}

TEST_CASE("a diagonal of a residual (rank-1 form) is rejected with a message", "[kernel][diagonal]")
{
  std::mt19937 rng(3);
  const std::vector<FormCase> forms = form_cases();
  ActionData d = make_action(forms[5], 2, 1, 3, rng);  // nonlinear residual
  REQUIRE(d.ir.rank == 1);
  CHECK_THROWS_WITH(kernel::build_diagonal(d.ir, d.tab), Catch::Contains("rank 1") && Catch::Contains("bilinear form"));
  std::unique_ptr<ActionBackend> backend = make_opencl_backend(d.ir, d.tab, Schedule::single_cell_per_work_item());
  std::vector<double> out = d.prefill;
  CHECK_THROWS_AS(backend->diagonal(d.arrays(), out.size(), out.data()), std::invalid_argument);
}
