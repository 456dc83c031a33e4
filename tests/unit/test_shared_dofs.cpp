// Dofs::Shared (schedule.h): the schedule text carries it, its shared memory is counted
// and validated, every kernel of the covering sample built with it adds the same action
// as the CPU reference on the OpenCL device (PoCL on CI), and the tuner's second round
// picks the twins of the fastest candidates that ran and spill.
#include <catch2/catch.hpp>

#include <cmath>

#include "kernel/build.h"
#include "kernel/emit.h"
#include "runtime/opencl_runtime.h"
#include "support/opencl_check.h"
#include "support/timed_candidates.h"
#include "tune/quantities.h"
#include "tune/tuner.h"
#include "tune/twins.h"

using namespace femgpu;
using namespace femgpu::test;

namespace {

void check_sample(int dim)
{
  check_sample_kernels(
      dim, static_cast<unsigned>(17 + dim), [](const Candidate &) { return true; },
      [](const Schedule &s) { return s.with_dofs(Dofs::Shared); },
      [](const std::string &source) {
        CHECK(source.find("__local real s_") != std::string::npos);
        // Tiles of whole rows alias their DOF tiles into s_e; the others give them words of their own.
        const std::string tag = "schedule: ";
        const size_t at = source.find(tag) + tag.size();
        const Schedule s = parse_schedule(source.substr(at, source.find('\n', at) - at));
        if (s.strategy() == Strategy::Tiled) CHECK((source.find("_tile = s_e") != std::string::npos) == dofs_alias_evaluations(s));
      });
}

}  // namespace

TEST_CASE("shared-DOF kernels match the reference action in 2D", "[opencl][kernel][shared_dofs]") { check_sample(2); }
TEST_CASE("shared-DOF kernels match the reference action in 3D", "[opencl][kernel][shared_dofs]") { check_sample(3); }

TEST_CASE("shared DOFs are counted in the group's shared memory", "[schedule][shared_dofs]")
{
  std::mt19937 rng(3);
  ActionData d = make_action(form_cases()[3], 2, 3, 1, rng);  // elasticity P3: 10 basis x 2 components
  REQUIRE(d.ir.groups.size() == 1);
  const Schedule scpwi = Schedule::single_cell_per_work_item(32);
  CHECK(shared_memory_bytes(scpwi, d.ir) == 0);
  // One column per work-item: the trial DOFs (20) and the outputs (20).
  CHECK(shared_memory_bytes(scpwi.with_dofs(Dofs::Shared), d.ir) == 32LL * (20 + 20) * 8);
  CHECK(shared_memory_bytes(scpwi.with_dofs(Dofs::Shared).with_precision(Precision::FP32), d.ir) == 32LL * 40 * 4);
  // Tiled: N_c tiles of T_e^c * components words, made odd; with T_e^r < T^Q beside e,
  // with T_e^r = T^Q inside e's words (dofs_alias_evaluations), which here hold more.
  const Schedule tiled = Schedule::tiled({4, 8, 6, 3, {5}, 6, 6});
  CHECK(dof_tile_stride(tiled, d.ir, kTrialFunction) == 11);
  CHECK_FALSE(dofs_alias_evaluations(tiled.with_dofs(Dofs::Shared)));
  CHECK(shared_memory_bytes(tiled.with_dofs(Dofs::Shared), d.ir) == shared_memory_bytes(tiled, d.ir) + 4LL * 11 * 8);
  const Schedule whole_rows = Schedule::tiled({4, 8, 6, 6, {5}, 6, 6});
  CHECK_FALSE(dofs_alias_evaluations(whole_rows));
  REQUIRE(dofs_alias_evaluations(whole_rows.with_dofs(Dofs::Shared)));
  CHECK(evaluation_words(whole_rows, d.ir) == 4LL * odd_stride(6 * d.ir.n_eval()));
  REQUIRE(4LL * 11 < evaluation_words(whole_rows, d.ir));
  CHECK(shared_memory_bytes(whole_rows.with_dofs(Dofs::Shared), d.ir) == shared_memory_bytes(whole_rows, d.ir));
  // A DOF tile larger than e widens the shared region to the tile: one point per tile.
  const Schedule one_point = Schedule::tiled({4, 8, 1, 1, {10}, 6, 1}).with_dofs(Dofs::Shared);
  REQUIRE(dofs_alias_evaluations(one_point));
  CHECK(evaluation_words(one_point, d.ir) == 4LL * dof_tile_stride(one_point, d.ir, kTrialFunction));
  CHECK(shared_memory_bytes(one_point, d.ir) == 8 * (prefetch_buffer_words(one_point, d.ir) + 4LL * 21));
  // A group too large for the shared memory is refused, naming the reason.
  try {
    validate(Schedule::single_cell_per_work_item(1024).with_dofs(Dofs::Shared), d.ir, d.tab.n_points());
    FAIL("expected the shared-memory limit");
  } catch (const std::invalid_argument &e) {
    CHECK(std::string(e.what()).find("dofs=shared") != std::string::npos);
  }
  CHECK_NOTHROW(validate(Schedule::single_cell_per_work_item(1024), d.ir, d.tab.n_points()));
  // The search space's allocation count (quantities.h) is the kernel's, for every candidate.
  const KernelShape shape = KernelShape::from(d.ir, d.tab.n_points());
  for (const Schedule &c : tiled_sample(d.ir, d.tab.n_points())) {
    INFO(to_string(c));
    CHECK(allocated_local_words(shape, c.tiles()) * 8 == shared_memory_bytes(c, d.ir));
  }
  CHECK(allocated_local_words(shape, tiled.tiles()) * 8 == shared_memory_bytes(tiled, d.ir));
}

TEST_CASE("the tuner's second round twins the fastest spilling or unrolled candidates that ran", "[tune][shared_dofs]")
{
  // Candidates spill 64 bytes unless told otherwise.
  const auto timed = [](const Schedule &s, double ms, const std::string &error = "", int spill = 64) { return timed_candidate(s, ms, error, spill); };
  const Schedule scpwi = Schedule::single_cell_per_work_item();
  const Schedule a = Schedule::tiled({4, 8, 6, 6, {6}, 6, 6}), b = Schedule::tiled({2, 16, 6, 6, {3}, 6, 6});
  const Schedule c = Schedule::tiled({8, 4, 6, 3, {6}, 3, 6});
  const Schedule d = Schedule::tiled({1, 32, 6, 6, {6}, 6, 6});
  const std::vector<TimedCandidate> round1{timed(scpwi, 0.30), timed(a, 0.10, "too many resources requested"), timed(b, 0.20),
                                           timed(d, 0.21, "", 0), timed(c, 0.25)};
  std::vector<TimedCandidate> twins = move_twins("shared_dofs", round1, 2);
  REQUIRE(twins.size() == 2);
  // a failed and d does not spill: neither is twinned.
  CHECK(to_string(twins[0].schedule) == to_string(b.with_dofs(Dofs::Shared)));
  CHECK(to_string(twins[1].schedule) == to_string(c.with_dofs(Dofs::Shared)));
  CHECK(twins[0].model_seconds == round1[2].model_seconds);
  CHECK(twins[0].error.empty());
  CHECK(move_twins("shared_dofs", round1, 0).empty());
  CHECK(move_twins("shared_dofs", round1, 10).size() == 3);
  // A twin already listed (or a shared candidate itself) is not timed twice.
  std::vector<TimedCandidate> with_twin = round1;
  with_twin.push_back(timed(b.with_dofs(Dofs::Shared), 0.05));
  twins = move_twins("shared_dofs", with_twin, 1);
  REQUIRE(twins.size() == 1);
  CHECK(to_string(twins[0].schedule) == to_string(c.with_dofs(Dofs::Shared)));
  // Unrolled tiled kernels are twinned whether they spill or not (their shared
  // evaluation reads each DOF once per column); lanes kernels never.
  const Schedule du = d.with_loops(Loops::Unrolled);
  const std::vector<TimedCandidate> unrolled{timed(du, 0.21, "", 0), timed(scpwi, 0.1, "", 0),
                                             timed(Schedule::single_cell_per_work_item(32).with_lanes(2), 0.05, "", 64)};
  twins = move_twins("shared_dofs", unrolled, 3);
  REQUIRE(twins.size() == 1);
  CHECK(to_string(twins[0].schedule) == to_string(du.with_dofs(Dofs::Shared)));
  // The second round's fastest becomes the report's best when it beats the first's.
  TuneReport report;
  report.candidates = round1;
  report.best = 2;
  TuneReport round;
  round.candidates = {timed(b.with_dofs(Dofs::Shared), 0.15), timed(c.with_dofs(Dofs::Shared), 0.40)};
  round.best = 0;
  append_round(&report, std::move(round));
  REQUIRE(report.candidates.size() == 7);
  CHECK(report.best == 5);
  TuneReport slower;
  slower.candidates = {timed(scpwi.with_dofs(Dofs::Shared), 0.5)};
  slower.best = 0;
  append_round(&report, std::move(slower));
  CHECK(report.best == 5);
}
