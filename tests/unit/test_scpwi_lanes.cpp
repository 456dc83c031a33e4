// SCPWI with one lane per component (schedule lanes=C): the kernels add the same
// action as the CPU reference on the OpenCL device (PoCL on CI), for every vector form
// of the sample, a vector form with a scalar coefficient (evaluated whole by every
// lane), a vector residual and a vector mass (its test side the identity); the schedule is validated against the form; the
// exchange buffer has the size the launch reserves.
#include <catch2/catch.hpp>

#include "support/opencl_check.h"

using namespace femgpu;
using namespace femgpu::test;

namespace {

std::string rejection(const Schedule &s, const ActionIR &ir, int Q)
{
  try {
    validate(s, ir, Q);
  } catch (const std::invalid_argument &e) {
    return e.what();
  }
  return "accepted";
}

// (1 + c^2) grad u : grad v + c u . v with c a scalar P1 coefficient and u, v vectors.
FormCase scalar_coefficient_case()
{
  return {"vector with a scalar coefficient", 0, 2, 1, [](FormBuilder &b) {
            const int d = b.dim();
            Expr c = b.coefficient("c", Element{1, 1});
            Expr u = b.trial_function(), v = b.test_function();
            return one(add(mul(add(literal(1.0), mul(c, c)), inner(grad(u, d), grad(v, d))), mul(c, inner(u, v))));
          }};
}

FormCase vector_residual_case() { return {"hyperelastic residual", 0, 1, 1, hyperelastic_residual}; }

// u . v: its test side becomes the identity (Tabulation::test_identity), each point
// scattered by its lane.
FormCase vector_mass_case()
{
  return {"vector mass", 0, 2, 1, [](FormBuilder &b) { return one(inner(b.trial_function(), b.test_function())); }};
}

}  // namespace

TEST_CASE("OpenCL SCPWI kernels with one lane per component match the reference action", "[opencl][kernel][scpwi][lanes]")
{
  std::mt19937 rng(31);
  std::vector<FormCase> forms;
  for (const FormCase &f : form_cases())
    if (f.components == 0) forms.push_back(f);  // elasticity, curved P2 geometry, hyperelasticity, own-element coefficients
  REQUIRE(forms.size() == 4);
  forms.push_back(scalar_coefficient_case());
  forms.push_back(vector_residual_case());
  forms.push_back(vector_mass_case());
  for (const FormCase &f : forms)
    for (int dim : {2, 3})
      for (int degree = 1; degree <= (dim == 2 ? 3 : 2); ++degree) {
        // 37 cells: 5 groups of 8, the last one partly past n_cells.
        ActionData d = make_action(f, dim, degree, 37, rng);
        if (f.name == "vector mass") REQUIRE(d.tab.test_identity);
        for (const Schedule &s : {Schedule::single_cell_per_work_item(8).with_lanes(dim),
                                  Schedule::single_cell_per_work_item(16).with_lanes(dim).with_tables(Tables::Constant),
                                  Schedule::single_cell_per_work_item(8).with_lanes(dim).with_tables(Tables::MergedConstant)}) {
          INFO(f.name << " dim " << dim << " P" << degree << ": " << to_string(s));
          CHECK(opencl_action_error(d, s) < 1e-12);
        }
      }
}

TEST_CASE("a lanes schedule is validated against the form", "[schedule][lanes]")
{
  std::mt19937 rng(3);
  ActionData laplace = make_action(form_cases()[1], 2, 2, 1, rng);
  ActionData elasticity = make_action(form_cases()[3], 3, 2, 1, rng);
  const int Q = elasticity.tab.n_points();
  CHECK(rejection(Schedule::single_cell_per_work_item(32).with_lanes(2), laplace.ir, laplace.tab.n_points()) ==
        "invalid schedule: lanes = 2 must be == 1 (the form's test element has one component)");
  CHECK(rejection(Schedule::single_cell_per_work_item(32).with_lanes(2), elasticity.ir, Q) ==
        "invalid schedule: lanes = 2 must be == 3 (one lane per component of the test element)");
  CHECK(rejection(Schedule::single_cell_per_work_item(32).with_lanes(3).with_dofs(Dofs::Shared), elasticity.ir, Q) ==
        "invalid schedule: lanes = 3 must be == 1 (dofs=shared keeps whole cells in shared memory)");
  CHECK(rejection(Schedule::single_cell_per_work_item(512).with_lanes(3), elasticity.ir, Q) ==
        "invalid schedule: work_group_size*lanes = 1536 must be <= 1024 (threads per group limit)");
  CHECK(rejection(Schedule::single_cell_per_work_item(256).with_lanes(3), elasticity.ir, Q) == "accepted");
  CHECK(threads_per_group(Schedule::single_cell_per_work_item(64).with_lanes(3)) == 192);
  CHECK(cells_per_group(Schedule::single_cell_per_work_item(64).with_lanes(3)) == 64);
}

TEST_CASE("the lanes' exchange buffer holds one row per split function and derivative", "[schedule][lanes]")
{
  std::mt19937 rng(5);
  // Elasticity in 3D: grad u, 3 reference derivatives of one split function.
  ActionData elasticity = make_action(form_cases()[3], 3, 2, 1, rng);
  CHECK(lane_exchange_rows(elasticity.ir).size() == 3);
  CHECK(shared_memory_bytes(Schedule::single_cell_per_work_item(64).with_lanes(3), elasticity.ir) == 2LL * 3 * 3 * 64 * 8);
  CHECK(shared_memory_bytes(Schedule::single_cell_per_work_item(64), elasticity.ir) == 0);
  // Hyperelasticity in 2D: grad u and grad w (the coefficient), 2 derivatives each.
  ActionData hyper = make_action(form_cases()[8], 2, 2, 1, rng);
  CHECK(lane_exchange_rows(hyper.ir).size() == 4);
  CHECK(shared_memory_bytes(Schedule::single_cell_per_work_item(32, Precision::FP32).with_lanes(2), hyper.ir) == 2LL * 4 * 2 * 32 * 4);
  // A scalar coefficient is not split: it adds no row.
  ActionData scalar_c = make_action(scalar_coefficient_case(), 2, 2, 1, rng);
  for (const LaneRow &r : lane_exchange_rows(scalar_c.ir)) CHECK(r.function == kTrialFunction);
  CHECK_FALSE(lane_split(scalar_c.ir, coefficient_function(0)));
  CHECK(lane_split(scalar_c.ir, kTrialFunction));
  CHECK_FALSE(lane_split(scalar_c.ir, kCoordinates));
}

TEST_CASE("a lanes kernel gathers its component and meets one barrier per quadrature point", "[kernel][lanes]")
{
  std::mt19937 rng(9);
  ActionData d = make_action(form_cases()[3], 2, 2, 1, rng);
  const kernel::Kernel k = kernel::build_kernel(d.ir, d.tab, Schedule::single_cell_per_work_item(32).with_lanes(2));
  CHECK(k.block_x == 64);
  CHECK(k.cells_per_group == 32);
  const std::string cuda = kernel::emit_cuda(k);
  CHECK(cuda.find("(i_dof * N_COMPONENTS)) + r_lane]") != std::string::npos);
  const size_t loop = cuda.find("for (int i_quad");
  REQUIRE(loop != std::string::npos);
  const size_t first = cuda.find("__syncthreads()");
  CHECK(first > loop);
  CHECK(cuda.find("__syncthreads()", first + 1) == std::string::npos);
}
