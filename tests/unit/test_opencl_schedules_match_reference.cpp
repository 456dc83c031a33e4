// Every schedule of the covering sample (support/action_cases.h), run on the OpenCL
// device (PoCL on CI), adds the same action to a pre-filled output as the CPU
// reference: mass, Laplace, Helmholtz, elasticity, a nonlinear Jacobian and residual
// with a coefficient, x-dependent and curved P2 geometry, in 2D P1-P4 and 3D P1-P3, on
// maps whose DOFs collide within and across cells and work-groups.
#include <catch2/catch.hpp>

#include <cmath>

#include "kernel/build.h"
#include "kernel/emit.h"
#include "runtime/opencl_runtime.h"
#include "support/opencl_check.h"

using namespace femgpu;
using namespace femgpu::test;

namespace {

void check_sample(int dim, bool tiled)
{
  check_sample_kernels(
      dim, static_cast<unsigned>(7 + dim), [&](const Candidate &c) { return (c.tiled_shape >= 0) == tiled; },
      [](const Schedule &s) { return s; });
}

}  // namespace

TEST_CASE("OpenCL SCPWI kernels match the reference action in 2D", "[opencl][kernel][scpwi]") { check_sample(2, false); }
TEST_CASE("OpenCL SCPWI kernels match the reference action in 3D", "[opencl][kernel][scpwi]") { check_sample(3, false); }
// Constant tables: printed into the source (c_tables) instead of read from g_tables;
// every form, both dimensions, with registers and shared DOFs, separate and merged.
TEST_CASE("OpenCL SCPWI kernels with constant-memory tables match the reference action", "[opencl][kernel][scpwi]")
{
  std::mt19937 rng(19);
  const std::vector<FormCase> forms = form_cases();
  for (size_t f = 0; f < forms.size(); ++f)
    for (int dim : {2, 3}) {
      ActionData d = make_action(forms[f], dim, dim == 2 ? 3 : 2, 37, rng);
      for (const Schedule &s : {Schedule::single_cell_per_work_item(16).with_tables(Tables::Constant),
                                Schedule::single_cell_per_work_item(8).with_dofs(Dofs::Shared).with_tables(Tables::Constant),
                                Schedule::single_cell_per_work_item(16).with_tables(Tables::MergedConstant)}) {
        INFO(forms[f].name << " dim " << dim << ": " << to_string(s));
        CHECK(opencl_action_error(d, s) < 1e-12);
      }
    }
}

// Merged constant tables (pack_tables stores equal tables once): Helmholtz P8 in 2D,
// whose 3 + 3 tables (at its 45 compressed points) fit constant memory only merged.
TEST_CASE("an OpenCL SCPWI kernel with merged constant tables matches the reference action", "[opencl][kernel][scpwi]")
{
  std::mt19937 rng(29);
  ActionData d = make_action(form_cases()[2], 2, 8, 5, rng);
  const Schedule s = Schedule::single_cell_per_work_item(4).with_tables(Tables::MergedConstant);
  REQUIRE(constant_table_bytes(s.with_tables(Tables::Constant), d.ir, d.tab.n_points()) > kMaxConstantTableBytes);
  INFO(to_string(s) << ", Q " << d.tab.n_points());
  CHECK(opencl_action_error(d, s) < 1e-12);
}

TEST_CASE("OpenCL tiled kernels match the reference action in 2D", "[opencl][kernel][tiled]") { check_sample(2, true); }
TEST_CASE("OpenCL tiled kernels match the reference action in 3D", "[opencl][kernel][tiled]") { check_sample(3, true); }

TEST_CASE("OpenCL kernels in FP32 match the reference action to single precision", "[opencl][kernel][fp32]")
{
  std::mt19937 rng(11);
  const std::vector<FormCase> forms = form_cases();
  for (size_t f : {size_t{3}, size_t{4}})  // elasticity, nonlinear Jacobian
    for (int dim : {2, 3}) {
      ActionData d = make_action(forms[f], dim, 2, 37, rng);
      for (const Schedule &s : {Schedule::single_cell_per_work_item(64, Precision::FP32),
                                tiled_sample(d.ir, d.tab.n_points())[0].with_precision(Precision::FP32)}) {
        INFO(forms[f].name << " dim " << dim << " P2: " << to_string(s));
        CHECK(opencl_action_error(d, s) < 1e-5);
      }
    }
}

TEST_CASE("an OpenCL build failure reports the build log and the source", "[opencl]")
{
  std::mt19937 rng(2);
  ActionData d = make_action(form_cases()[0], 2, 1, 3, rng);
  kernel::Kernel k = kernel::build_kernel(d.ir, d.tab, Schedule::single_cell_per_work_item());
  const std::string broken = "__kernel void femgpu_action(__global double *g_out) { g_out[0] = r_undeclared; }\n";
  std::vector<double> out = d.prefill;
  try {
    opencl_runtime().apply(k, broken, d.ir, d.tab, d.arrays(), out.data(), out.size());
    FAIL("expected a build failure");
  } catch (const std::runtime_error &e) {
    const std::string what = e.what();
    CHECK(what.find("OpenCL build failed") != std::string::npos);
    CHECK(what.find("r_undeclared") != std::string::npos);  // in the log and in the source
    CHECK(what.find("--- source") != std::string::npos);
  }
}
