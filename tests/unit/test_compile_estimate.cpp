// The compile estimate of the budgeted tuner (tune/compile_estimate.h) and the unrolled
// size it reads (kernel/kernel_size.h): loops marked for unrolling and innermost loops
// count their trips, and the unrolled tiled kernels of a high-order case are estimated far
// above its tensor-core and SCPWI kernels, as NVRTC's times are
// (records/tuning/nvrtc_compile_estimates*.txt).
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "kernel/build.h"
#include "kernel/kernel_size.h"
#include "support/action_cases.h"
#include "tune/compile_estimate.h"
#include "tune/tuner.h"

using namespace femgpu;
using namespace femgpu::kernel;
using namespace femgpu::test;

namespace {

Kernel one_loop(bool unroll, const Ex &hi)
{
  Kernel k;
  k.sizes = {{"N_QUAD", 10}};
  Stmt l = loop("q", lit(0), hi, {accumulate(var("r_sum"), var("r_x") * var("r_y"))});
  k.body = {unroll ? unrolled(l) : l};
  return k;
}

// The same loop around an inner loop of one trip: it holds a loop, so unmarked it stays
// rolled.
Kernel outer_loop(bool unroll, const Ex &hi)
{
  Kernel k;
  k.sizes = {{"N_QUAD", 10}};
  Stmt l = loop("q", lit(0), hi, {loop("i", lit(0), lit(1), {accumulate(var("r_sum"), var("r_x") * var("r_y"))})});
  k.body = {unroll ? unrolled(l) : l};
  return k;
}

}  // namespace

TEST_CASE("a loop marked for unrolling counts its body once per trip, an unmarked loop around another once", "[tune][budget]")
{
  // The body: the inner loop (itself, lo, hi) and its statement of three expression nodes
  // and a target.
  const double rolled = unrolled_size(outer_loop(false, var("N_QUAD")));
  const double by_size = unrolled_size(outer_loop(true, var("N_QUAD")));
  const double by_literal = unrolled_size(outer_loop(true, lit(10)));
  const double body = rolled - unrolled_size(Kernel{}) - (1 + 1 + 1);  // the loop: itself, lo, hi
  REQUIRE(body == 8);
  REQUIRE(by_size == Approx(rolled + 9 * body));
  REQUIRE(by_literal == Approx(by_size));
  // A bound it cannot read counts the body once.
  REQUIRE(unrolled_size(outer_loop(true, var("n_unknown"))) == Approx(rolled));
}

TEST_CASE("an innermost loop with constant bounds counts its trips, marked or not: nvcc unrolls it on its own", "[tune][budget]")
{
  // The loop (itself, lo, hi) and ten bodies of five.
  REQUIRE(unrolled_size(one_loop(false, lit(10))) == Approx(3 + 10 * 5));
  REQUIRE(unrolled_size(one_loop(false, var("N_QUAD"))) == Approx(unrolled_size(one_loop(true, var("N_QUAD")))));
  // A bound it cannot read counts the body once.
  REQUIRE(unrolled_size(one_loop(false, var("n_unknown"))) == Approx(3 + 5));
}

TEST_CASE("the estimate grows with the unrolled size", "[tune][budget]")
{
  REQUIRE(compile_estimate_seconds(outer_loop(false, lit(10))) < compile_estimate_seconds(outer_loop(true, lit(10))));
  REQUIRE(compile_estimate_seconds(one_loop(true, lit(10))) < compile_estimate_seconds(one_loop(true, lit(100000))));
}

TEST_CASE("at P5 the unrolled tiled kernels are estimated far above the tensor-core and SCPWI ones", "[tune][budget]")
{
  std::mt19937 rng(5);
  const ActionData d = make_action(form_cases()[0], 3, 5, 1, rng);  // mass 3D P5
  const int Q = d.tab.n_points();
  // The H200's probed parameters (share/femgpu/bench/h200_device_params.json), with which
  // the device's tuning ranks tiled kernels that hold their DOFs in registers first.
  DeviceParams h200;
  h200.beta_global = 4.41e12, h200.beta_local = 33.02e12, h200.beta_ldg = 33.03e12, h200.flops_peak = 33.02e12;
  h200.sg_sat_global = 12, h200.sg_sat_local = 5;
  TuneSettings s;
  std::size_t space = 0;
  bool truncated = false;
  double tiled = 0, quick = 0;
  for (const TimedCandidate &c : tuning_candidates(d.ir, Q, h200, s, &space, &truncated)) {
    const double e = compile_estimate_seconds(build_kernel(d.ir, d.tab, c.schedule));
    if (c.schedule.strategy() == Strategy::Tiled && c.schedule.loops() == Loops::Unrolled) tiled = std::max(tiled, e);
    else quick = std::max(quick, e);
  }
  for (const TimedCandidate &c : tensor_core_candidates(d.ir, Q, 3, 232448))
    quick = std::max(quick, compile_estimate_seconds(build_kernel(d.ir, d.tab, c.schedule)));
  REQUIRE(quick > 0);
  REQUIRE(tiled > 10 * quick);
}

TEST_CASE("hyperelasticity 3D P5's SCPWI kernel is estimated no shorter than its compile on one idle thread", "[tune][budget]")
{
  // Its loops carry no unroll mark, but nvcc unrolls the innermost (the DOF gathers, the
  // per-point basis sums): on one idle thread of the CI machine it compiled in 1.3 s
  // (nvrtc_compile_estimates.txt), when the size of its marked loops alone gave 0.32 s and
  // the queue started it as one of the cheapest.
  std::mt19937 rng(5);
  const std::vector<FormCase> forms = form_cases();
  const auto hyper = std::find_if(forms.begin(), forms.end(), [](const FormCase &f) { return f.name == "hyperelasticity"; });
  REQUIRE(hyper != forms.end());
  const ActionData d = make_action(*hyper, 3, 5, 1, rng);
  REQUIRE(compile_estimate_seconds(build_kernel(d.ir, d.tab, Schedule::single_cell_per_work_item(32))) >= 1.3);
}
