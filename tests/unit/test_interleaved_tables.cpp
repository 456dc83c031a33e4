// Tables::Interleaved (schedule.h): a tiled kernel's prefetch buffer holds a point's
// derivative tables side by side. Every tiled kernel of the covering sample built with
// it (registers and shared DOFs, rolled and unrolled loops) adds the same action as the
// CPU reference on the OpenCL device (PoCL on CI), and the CUDA tuner's second round
// twins its fastest tiled candidates with it, for forms with an even number of tables in
// some group or the test function only. test_nvrtc_interleaved_tables.cpp compiles it.
#include <catch2/catch.hpp>

#include "kernel/build.h"
#include "kernel/emit.h"
#include "support/opencl_check.h"
#include "support/timed_candidates.h"
#include "tune/tuner.h"
#include "tune/twins.h"

using namespace femgpu;
using namespace femgpu::test;

namespace {

void check_sample(int dim, Dofs dofs, Loops loops)
{
  const int checked = check_sample_kernels(
      dim, static_cast<unsigned>(41 + dim), [](const Candidate &c) { return c.tiled_shape >= 0; },
      [&](const Schedule &s) { return s.with_tables(Tables::Interleaved).with_dofs(dofs).with_loops(loops); },
      [](const std::string &source) { CHECK(source.find("tables=interleaved") != std::string::npos); });
  CHECK(checked > 10);
}

}  // namespace

TEST_CASE("interleaved-table kernels match the reference action in 2D", "[opencl][kernel][tiled][interleaved]")
{
  check_sample(2, Dofs::Registers, Loops::Unrolled);
  check_sample(2, Dofs::Shared, Loops::Compiler);
}

TEST_CASE("interleaved-table kernels match the reference action in 3D", "[opencl][kernel][tiled][interleaved]")
{
  check_sample(3, Dofs::Shared, Loops::Unrolled);
  check_sample(3, Dofs::Registers, Loops::Compiler);
}

TEST_CASE("forms whose groups or test function have an even number of tables pair their loads", "[tune][interleaved]")
{
  std::mt19937 rng(47);
  const std::vector<FormCase> forms = form_cases();
  for (const FormCase &f : forms)
    for (int dim : {2, 3}) {
      ActionData d = make_action(f, dim, 2, 1, rng);
      bool even = d.ir.test_derivatives.size() % 2 == 0;
      for (const auto &g : d.ir.groups) even = even || g.derivatives.size() % 2 == 0;
      INFO(f.name << " dim " << dim);
      CHECK(pairs_table_loads(d.ir) == even);
      if (f.name == "laplace") CHECK(pairs_table_loads(d.ir) == (dim == 2));  // grad v: 2 tables in 2D, 3 in 3D
      if (f.name == "mass") CHECK_FALSE(pairs_table_loads(d.ir));            // one table each
    }
}

TEST_CASE("the tuner's second round twins the fastest tiled candidates with interleaved tables", "[tune][interleaved]")
{
  const auto timed = [](const Schedule &s, double ms, const std::string &error = "") { return timed_candidate(s, ms, error); };
  std::mt19937 rng(53);
  const std::vector<FormCase> forms = form_cases();
  ActionData laplace2 = make_action(forms[1], 2, 2, 1, rng), laplace3 = make_action(forms[1], 3, 2, 1, rng);
  REQUIRE(forms[1].name == "laplace");
  const Schedule scpwi = Schedule::single_cell_per_work_item(32);
  const Schedule a = Schedule::tiled({4, 8, 6, 6, {6}, 6, 6}).with_loops(Loops::Unrolled), b = Schedule::tiled({2, 4, 6, 3, {6}, 6, 3});
  const std::vector<TimedCandidate> round1{timed(scpwi, 0.05), timed(a, 0.10, "too many resources requested"), timed(b, 0.30),
                                           timed(a.with_dofs(Dofs::Shared), 0.20), timed(b.with_scatter(Scatter::Warp), 0.40)};
  std::vector<TimedCandidate> twins = move_twins("interleaved", round1, 2, &laplace2.ir);
  REQUIRE(twins.size() == 2);
  // SCPWI and the failed candidate are skipped; fastest first.
  CHECK(to_string(twins[0].schedule) == to_string(a.with_dofs(Dofs::Shared).with_tables(Tables::Interleaved)));
  CHECK(to_string(twins[1].schedule) == to_string(b.with_tables(Tables::Interleaved)));
  CHECK(twins[1].model_seconds == round1[2].model_seconds);
  CHECK(move_twins("interleaved", round1, 10, &laplace2.ir).size() == 3);
  CHECK(move_twins("interleaved", round1, 0, &laplace2.ir).empty());
  // No pairs to load: Laplace in 3D has three gradient tables.
  CHECK(move_twins("interleaved", round1, 2, &laplace3.ir).empty());
  // A twin already timed is not timed again, nor an interleaved candidate twinned.
  std::vector<TimedCandidate> with_twin = round1;
  with_twin.push_back(timed(a.with_dofs(Dofs::Shared).with_tables(Tables::Interleaved), 0.01));
  twins = move_twins("interleaved", with_twin, 1, &laplace2.ir);
  REQUIRE(twins.size() == 1);
  CHECK(to_string(twins[0].schedule) == to_string(b.with_tables(Tables::Interleaved)));
}
