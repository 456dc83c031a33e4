// Every schedule, run on the OpenCL device (PoCL on CI), adds the same action to a
// pre-filled output as the CPU reference: mass, Laplace, Helmholtz, elasticity, a
// nonlinear Jacobian and residual with a coefficient, x-dependent and curved P2
// geometry, in 2D P1-P4 and 3D P1-P3, on maps whose DOFs collide across cells.
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>

#include "kernel/build.h"
#include "kernel/emit.h"
#include "runtime/opencl_runtime.h"
#include "support/action_cases.h"

using namespace femgpu;
using namespace femgpu::test;

namespace {

OpenCLRuntime &runtime()
{
  static OpenCLRuntime r;
  return r;
}

// max |got - want| relative to the size of the action and of the pre-filled output.
double relative_error(const std::vector<double> &got, const std::vector<double> &want, const std::vector<double> &prefill)
{
  double err = 0.0, scale = 0.0;
  for (size_t i = 0; i < want.size(); ++i) {
    err = std::max(err, std::fabs(got[i] - want[i]));
    scale = std::max(scale, std::fabs(want[i] - prefill[i]) + std::fabs(prefill[i]));
  }
  return err / scale;
}

double run_and_compare(const ActionData &d, const Schedule &s)
{
  std::vector<double> want = d.prefill, got = d.prefill;
  reference_action(d.ir, d.tab, d.arrays(), want.data());
  kernel::Kernel k = kernel::build_kernel(d.ir, d.tab, s);
  std::string source = kernel::emit_opencl(k, default_share_dir());
  runtime().apply(k, source, d.ir, d.tab, d.arrays(), got.data(), got.size());
  return relative_error(got, want, d.prefill);
}

}  // namespace

TEST_CASE("OpenCL kernels of every schedule match the reference action in FP64", "[opencl][kernel]")
{
  std::mt19937 rng(7);
  int case_index = 0;
  for (const FormCase &c : form_cases())
    for (int dim : {2, 3})
      for (int degree = 1; degree <= (dim == 2 ? 4 : 3); ++degree) {
        ActionData d = make_action(c, dim, degree, 37, rng);
        std::vector<Schedule> tiled = tiled_sample(d.ir, d.tab.n_points());
        // SCPWI always; two of the four tiled shapes, rotating so each meets every form.
        std::vector<Schedule> schedules{Schedule::single_cell_per_work_item(),
                                        tiled[static_cast<size_t>(case_index % 4)],
                                        tiled[static_cast<size_t>((case_index + 1) % 4)]};
        ++case_index;
        for (const Schedule &s : schedules) {
          INFO(c.name << " dim " << dim << " P" << degree << " Q " << d.tab.n_points() << ": " << to_string(s));
          CHECK(run_and_compare(d, s) < 1e-12);
        }
      }
}

TEST_CASE("OpenCL kernels in FP32 match the reference action to single precision", "[opencl][kernel][fp32]")
{
  std::mt19937 rng(11);
  const std::vector<FormCase> forms = form_cases();
  for (const FormCase &c : {forms[1], forms[3], forms[4]})
    for (int dim : {2, 3}) {
      ActionData d = make_action(c, dim, 2, 37, rng);
      for (const Schedule &s : {Schedule::single_cell_per_work_item(64, Precision::FP32),
                                tiled_sample(d.ir, d.tab.n_points())[0].with_precision(Precision::FP32)}) {
        INFO(c.name << " dim " << dim << " P2: " << to_string(s));
        CHECK(run_and_compare(d, s) < 1e-5);
      }
    }
}
