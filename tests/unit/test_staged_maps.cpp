// Maps::Shared (schedule.h): an SCPWI group copies its cells' map rows into shared memory
// before the gathers. The schedule text carries it, its shared memory is counted against
// a hand count and validated, every SCPWI kernel of the covering sample built with it adds
// the same action as the CPU reference on the OpenCL device (PoCL on CI), CUDA places the
// int copies in the dynamic shared buffer, and the tuner's twin round picks the fastest
// one-lane SCPWI candidates.
#include <catch2/catch.hpp>

#include "kernel/build.h"
#include "kernel/emit.h"
#include "support/opencl_check.h"
#include "support/timed_candidates.h"
#include "tune/twins.h"

using namespace femgpu;
using namespace femgpu::test;

namespace {

bool one_lane_scpwi(const Candidate &c) { return c.tiled_shape < 0; }

void check_sample(int dim)
{
  const int ran = check_sample_kernels(
      dim, static_cast<unsigned>(29 + dim), one_lane_scpwi, [](const Schedule &s) { return s.with_maps(Maps::Shared); },
      [](const std::string &source) {
        CHECK(source.find("__local int s_test_map[") != std::string::npos);
        CHECK(source.find("__local int s_coords_map[") != std::string::npos);
        CHECK(source.find("barrier(") != std::string::npos);
        CHECK(source.find("g_test_map[(r_cell") == std::string::npos);  // the scatter reads the copy
      });
  CHECK(ran >= 10);
}

}  // namespace

TEST_CASE("SCPWI kernels with staged maps match the reference action in 2D", "[opencl][kernel][staged_maps]") { check_sample(2); }
TEST_CASE("SCPWI kernels with staged maps match the reference action in 3D", "[opencl][kernel][staged_maps]") { check_sample(3); }

TEST_CASE("staged maps with constant tables match the reference action", "[opencl][kernel][staged_maps]")
{
  std::mt19937 rng(41);
  const std::vector<FormCase> forms = form_cases();
  for (size_t f = 0; f < forms.size(); ++f)
    for (int wg : {32, 64}) {
      ActionData d = make_action(forms[f], 2, 3, 150, rng);  // several groups, the last one partly past n_cells
      const Schedule s = Schedule::single_cell_per_work_item(wg).with_tables(Tables::MergedConstant).with_maps(Maps::Shared);
      INFO(forms[f].name << ": " << to_string(s));
      CHECK(opencl_action_error(d, s) < 1e-12);
    }
}

TEST_CASE("staged maps: text, shared memory and where they apply", "[schedule][staged_maps]")
{
  const Schedule s = parse_schedule("scpwi wg=32 tables=constant scatter=warp maps=shared groups_per_sm=4 fp64");
  CHECK(s.maps() == Maps::Shared);
  CHECK(to_string(s) == "scpwi wg=32 tables=constant scatter=warp maps=shared groups_per_sm=4 fp64");
  CHECK(to_string(Schedule::single_cell_per_work_item(64)) == "scpwi wg=64 fp64");

  std::mt19937 rng(5);
  const ActionData lap = make_action(form_cases()[1], 2, 3, 1, rng);  // Laplace 2D P3: 10 DOFs, 3 vertices
  REQUIRE(lap.ir.n_test_basis == 10);
  const std::vector<StagedMap> maps = staged_maps(lap.ir);
  REQUIRE(maps.size() == 3);
  CHECK((maps[0].function == kCoordinates && maps[0].width == 3 && maps[0].stride == 3));
  CHECK((maps[1].function == kTrialFunction && maps[1].width == 10 && maps[1].stride == 11));
  CHECK((maps[2].function == kTestFunction && maps[2].width == 10 && maps[2].stride == 11));
  // By hand, 32 rows of 4-byte entries: 3 + 11 + 11 entries a row = 3200 bytes in FP64 words.
  const Schedule scpwi = Schedule::single_cell_per_work_item(32);
  CHECK(shared_memory_bytes(scpwi, lap.ir) == 0);
  CHECK(shared_memory_bytes(scpwi.with_maps(Maps::Shared), lap.ir) == 32 * (3 + 11 + 11) * 4);
  // wg=33: each copy rounded up to whole 8-byte words (396 -> 400 bytes, 1452 -> 1456 twice).
  CHECK(shared_memory_bytes(Schedule::single_cell_per_work_item(33).with_maps(Maps::Shared), lap.ir) == 400 + 1456 + 1456);
  CHECK(shared_memory_bytes(scpwi.with_maps(Maps::Shared).with_dofs(Dofs::Shared), lap.ir) ==
        shared_memory_bytes(scpwi.with_dofs(Dofs::Shared), lap.ir) + 32 * 25 * 4);
  CHECK_NOTHROW(validate(scpwi.with_maps(Maps::Shared), lap.ir, lap.tab.n_points()));

  // Only one-lane SCPWI reads map rows a work-item each.
  auto refused = [&](const Schedule &t, const ActionData &d, const std::string &why) {
    try {
      validate(t, d.ir, d.tab.n_points());
      FAIL("expected a refusal of " << to_string(t));
    } catch (const std::invalid_argument &e) {
      INFO(e.what());
      CHECK(std::string(e.what()).find(why) != std::string::npos);
    }
  };
  refused(Schedule::tiled({4, 8, 6, 6, {10}, 6, 6}).with_maps(Maps::Shared), lap, "maps=shared is for SCPWI");
  refused(Schedule::tensor_core({8, 4, 16}).with_maps(Maps::Shared), lap, "maps=shared is for SCPWI");
  const ActionData el = make_action(form_cases()[3], 3, 3, 1, rng);  // elasticity 3D P3: 60 DOFs a row
  refused(Schedule::single_cell_per_work_item(32).with_lanes(3).with_maps(Maps::Shared), el, "maps=shared is for SCPWI");
  // 1024 rows of 5 + 61 + 61 entries (520 KB) do not fit: the limit names the copies.
  refused(Schedule::single_cell_per_work_item(1024).with_maps(Maps::Shared), el, "maps=shared");
}

TEST_CASE("CUDA places the staged maps in the dynamic shared buffer", "[kernel][staged_maps]")
{
  std::mt19937 rng(7);
  const ActionData d = make_action(form_cases()[1], 2, 4, 1, rng);  // 15 DOFs: rows of 15, odd already
  const Schedule s = Schedule::single_cell_per_work_item(64).with_maps(Maps::Shared);
  const std::string cuda = kernel::emit_cuda(kernel::build_kernel(d.ir, d.tab, s));
  CHECK(cuda.find("int *s_coords_map = (int *)(s_dynamic);") != std::string::npos);
  CHECK(cuda.find("int *s_u_map = (int *)(s_dynamic + (4 * (3 * WORK_GROUP_SIZE) + sizeof(real) - 1) / sizeof(real));") != std::string::npos);
  CHECK(cuda.find("__syncthreads();") != std::string::npos);
  CHECK(cuda.find("s_u_map[(r_slot * 15) + i_dof]") != std::string::npos);
}

TEST_CASE("the tuner twins its fastest one-lane SCPWI candidates with staged maps", "[tune][staged_maps]")
{
  const Schedule a = Schedule::single_cell_per_work_item(32).with_tables(Tables::Constant);
  const Schedule b = Schedule::single_cell_per_work_item(128);
  const Schedule lanes = Schedule::single_cell_per_work_item(32).with_lanes(2);
  const Schedule tiled = Schedule::tiled({4, 8, 6, 6, {6}, 6, 6});
  const Schedule mma = Schedule::tensor_core({8, 4, 16});
  const std::vector<TimedCandidate> timed{timed_candidate(tiled, 0.05), timed_candidate(mma, 0.06), timed_candidate(lanes, 0.07),
                                          timed_candidate(b, 0.09, "too many resources requested"), timed_candidate(a, 0.20),
                                          timed_candidate(b.with_tables(Tables::MergedConstant), 0.30)};
  std::vector<TimedCandidate> twins = staged_maps_twins(timed, 2);
  // Tiled, tensor-core and lanes kernels read no map rows a work-item each; b failed.
  REQUIRE(twins.size() == 2);
  CHECK(to_string(twins[0].schedule) == "scpwi wg=32 tables=constant maps=shared fp64");
  CHECK(to_string(twins[1].schedule) == "scpwi wg=128 tables=constant-merged maps=shared fp64");
  CHECK(staged_maps_twins(timed, 0).empty());
  // A twin timed already is not timed again, nor is a staged candidate twinned.
  std::vector<TimedCandidate> with_twin = timed;
  with_twin.push_back(timed_candidate(a.with_maps(Maps::Shared), 0.01));
  twins = staged_maps_twins(with_twin, 1);
  REQUIRE(twins.size() == 1);
  CHECK(to_string(twins[0].schedule) == "scpwi wg=128 tables=constant-merged maps=shared fp64");
}
