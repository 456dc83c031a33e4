// Register bounds (schedule.h's groups_per_sm): the occupancy arithmetic that picks
// them (occupancy.h) on hand-checked kernels, the schedule text, what CUDA and OpenCL
// emit, that a bounded kernel adds the same action as the reference on the OpenCL
// device, and the tuner's third round, which twins its fastest register-limited
// candidates. test_nvrtc_compiles_variants.cpp: NVRTC passes the bound to ptxas.
#include <catch2/catch.hpp>

#include "kernel/build.h"
#include "kernel/emit.h"
#include "support/opencl_check.h"
#include "support/source_text.h"
#include "support/timed_candidates.h"
#include "tune/occupancy.h"
#include "tune/tuner.h"
#include "tune/twins.h"

using namespace femgpu;
using namespace femgpu::test;

TEST_CASE("resident groups per SM follow CUDA's register, shared-memory and thread rules", "[tune][occupancy]")
{
  const SmLimits sm;  // sm_90: 64 Ki registers, 228 KiB shared, 1 KiB reserved per group
  // The paper's Helmholtz 2D P8 tiles with shared DOFs as ptxas built them on the H200:
  // 128 threads, 137 registers (4384 per warp, allocated as 4608), 54176 B shared.
  Residency r = residency(sm, 128, 137, 54176);
  CHECK(r.by_registers == 3);  // 65536 / (4 warps * 4608)
  CHECK(r.by_shared == 4);     // 233472 / (54176 + 1024)
  CHECK(r.by_threads == 16);
  CHECK(r.groups() == 3);
  CHECK(r.register_limited());
  CHECK(register_bound_groups(sm, 128, 137, 54176) == 4);
  CHECK(registers_for(sm, 128, 4) == 128);  // ptxas built it at 126, no spill
  // Elasticity 3D P3's winner: 256 threads, 254 registers, 106920 B: one group by
  // registers, two by shared memory, so the twin asks for two (128 registers).
  CHECK(register_bound_groups(sm, 256, 254, 106920) == 2);
  CHECK(registers_for(sm, 256, 2) == 128);
  // Mass 3D P6's: 210 registers but 142752 B of shared memory, one group either way.
  r = residency(sm, 256, 210, 142752);
  CHECK(r.by_registers == 1);
  CHECK(r.by_shared == 1);
  CHECK_FALSE(r.register_limited());
  CHECK(register_bound_groups(sm, 256, 210, 142752) == 0);
  // SCPWI, one warp per group at 255 registers: 8192 registers per warp, two warps per
  // sub-partition of 16384, 8 groups; no shared memory. The bound for 9 groups needs
  // three warps per sub-partition, 168 registers each (ptxas on the H200: 168), which
  // hold 12 groups: the twin is named for 12.
  r = residency(sm, 32, 255, 0);
  CHECK(r.by_registers == 8);
  CHECK(r.by_shared == 32);
  CHECK(r.by_threads == 32);
  CHECK(registers_for(sm, 32, 9) == 168);
  CHECK(registers_for(sm, 32, 12) == 168);
  CHECK(register_bound_groups(sm, 32, 255, 0) == 12);
  // Elasticity 3D P2's SCPWI winner, 146 registers (4864 per warp): three warps per
  // sub-partition, 12 groups; bounded for 14, ptxas gave 128 registers, which hold 16.
  CHECK(residency(sm, 32, 146, 0).by_registers == 12);
  CHECK(registers_for(sm, 32, 14) == 128);
  CHECK(register_bound_groups(sm, 32, 146, 0) == 16);
  // Threads hold it: 1024 threads at 64 registers fill the register file and the SM's
  // 2048 threads at two groups; at 32 registers threads still allow only two.
  CHECK(residency(sm, 1024, 32, 0).groups() == 2);
  CHECK_FALSE(residency(sm, 1024, 32, 0).register_limited());
  CHECK(register_bound_groups(sm, 1024, 32, 0) == 0);
  // 1024 threads at 40 registers: one group by registers, two by threads; the twin's
  // bound leaves 32 registers per thread (the least any bound within the SM's 2048
  // threads can).
  CHECK(register_bound_groups(sm, 1024, 40, 0) == 2);
  CHECK(registers_for(sm, 1024, 2) == 32);
  // 21 warps: three groups by threads (2016 of 2048), one by registers at 64.
  CHECK(residency(sm, 672, 64, 0).by_threads == 3);
  CHECK(register_bound_groups(sm, 672, 64, 0) == 2);
  CHECK(registers_for(sm, 672, 2) == 40);  // 42 warps, 11 per sub-partition: 16384 / 11 = 1489, 1280 in granules
}

TEST_CASE("a kernel asks for the shared memory its resident groups need, the rest left to L1", "[tune][occupancy]")
{
  const SmLimits sm;  // 233472 B of shared memory an SM, 1 KiB reserved per group
  // The Helmholtz 2D P8 tiles above: registers hold 3 groups, 3 x (54176 + 1024) B =
  // 165600 B = 70.9% of 233472 B, rounded up.
  CHECK(shared_percent_for(sm, 128, 137, 54176) == 71);
  // Mass 3D P6's tensor-core winner as ncu saw it: 128 threads, 56 registers, 8.9 KiB:
  // 9 groups by registers, so 9 x (9114 + 1024) B = 91242 B, 40% (the driver gave 135 KiB).
  CHECK(residency(sm, 128, 56, 9114).groups() == 9);
  CHECK(shared_percent_for(sm, 128, 56, 9114) == 40);
  // Mass 3D P6's SCPWI-era kernel above: one group of 142752 + 1024 B, 62%.
  CHECK(shared_percent_for(sm, 256, 210, 142752) == 62);
  // 32 groups (the most an SM holds) of 6 KiB + 1 KiB: 229376 B, 98.2%.
  CHECK(shared_percent_for(sm, 32, 32, 6 * 1024) == 99);
  // No shared memory: no preference.
  CHECK(shared_percent_for(sm, 256, 64, 0) == 0);
}

TEST_CASE("groups_per_sm is part of the schedule text and validated", "[schedule][occupancy]")
{
  const Schedule scpwi = Schedule::single_cell_per_work_item(32).with_tables(Tables::Constant).with_scatter(Scatter::Warp).with_groups_per_sm(9);
  CHECK(to_string(scpwi) == "scpwi wg=32 tables=constant scatter=warp groups_per_sm=9 fp64");
  CHECK(to_string(parse_schedule(to_string(scpwi))) == to_string(scpwi));
  const std::string tiled = "tiled nc=64 nwi=2 tq=28 ter=28 tec=[8] tqr=45 tqc=5 dofs=shared loops=unrolled groups_per_sm=4 fp64";
  CHECK(parse_schedule(tiled).groups_per_sm() == 4);
  CHECK(to_string(parse_schedule(tiled)) == tiled);
  CHECK(parse_schedule("scpwi wg=32 fp64").groups_per_sm() == 0);
  CHECK_THROWS_WITH(parse_schedule("scpwi wg=32 groups_per_sm=0 fp64"), Catch::Contains("'groups_per_sm=0' is out of range (groups_per_sm=1-32)"));
  CHECK_THROWS_WITH(parse_schedule("scpwi wg=32 groups_per_sm=2 scatter=warp fp64"), Catch::Contains("cannot read the schedule"));

  std::mt19937 rng(61);
  const std::vector<FormCase> forms = form_cases();
  ActionData d = make_action(forms[1], 2, 2, 1, rng);
  const int Q = d.tab.n_points();
  CHECK_NOTHROW(validate(Schedule::single_cell_per_work_item(64).with_groups_per_sm(32), d.ir, Q));
  CHECK_THROWS_WITH(validate(Schedule::single_cell_per_work_item(32).with_groups_per_sm(33), d.ir, Q),
                    Catch::Contains("groups_per_sm = 33 must be <= 32"));
  CHECK_THROWS_WITH(validate(Schedule::single_cell_per_work_item(128).with_groups_per_sm(17), d.ir, Q),
                    Catch::Contains("groups_per_sm*threads per group = 2176 must be <= 2048"));
}

TEST_CASE("CUDA kernels carry the bound as __launch_bounds__, OpenCL ones as a comment", "[kernel][occupancy]")
{
  std::mt19937 rng(67);
  const std::vector<FormCase> forms = form_cases();
  ActionData d = make_action(forms[3], 2, 2, 1, rng);  // elasticity
  const Schedule tiled = Schedule::tiled({4, 8, d.tab.n_points(), d.tab.n_points(), {d.ir.groups[0].n_basis}, d.ir.n_test_basis, 1})
                             .with_loops(Loops::Unrolled);
  for (const Schedule &s : {Schedule::single_cell_per_work_item(64), tiled}) {
    const Schedule bounded = s.with_groups_per_sm(3);
    INFO(to_string(bounded));
    const std::string cuda = action_cuda_source(d, bounded);
    const std::string threads = std::to_string(threads_per_group(s));
    CHECK(count_of(cuda, "__launch_bounds__(" + threads + ", 3) femgpu_action(") == 1);
    CHECK(count_of(action_cuda_source(d, s), "__launch_bounds__") == 0);
    const std::string opencl = kernel::emit_opencl(kernel::build_kernel(d.ir, d.tab, bounded));
    CHECK(count_of(opencl, "__launch_bounds__") == 0);
    CHECK(count_of(opencl, "// groups_per_sm=3: a CUDA register bound") == 1);
  }
}

TEST_CASE("register-bound kernels match the reference action", "[opencl][kernel][occupancy]")
{
  const int checked = check_sample_kernels(
      2, 71u, [](const Candidate &c) { return c.degree <= 2; }, [](const Schedule &s) { return s.with_groups_per_sm(2); },
      [](const std::string &source) { CHECK(source.find("groups_per_sm=2") != std::string::npos); });
  CHECK(checked >= 5);
}

TEST_CASE("the tuner's third round twins its fastest register-limited candidates", "[tune][occupancy]")
{
  const SmLimits sm;
  const auto timed = [](const Schedule &s, double ms, int registers, long long shared, int spill = 0) {
    TimedCandidate c = timed_candidate(s, ms, "", spill);
    c.registers = registers;
    c.shared_bytes = shared;
    return c;
  };
  const Schedule scpwi = Schedule::single_cell_per_work_item(32);
  const Schedule a = Schedule::tiled({64, 2, 28, 28, {8}, 45, 5}).with_loops(Loops::Unrolled).with_dofs(Dofs::Shared);
  const Schedule b = Schedule::tiled({128, 2, 55, 55, {1}, 45, 1}).with_loops(Loops::Unrolled);
  const Schedule c = Schedule::tiled({64, 4, 55, 28, {15}, 45, 11}).with_loops(Loops::Unrolled);
  std::vector<TimedCandidate> round{timed(scpwi, 16.2, 254, 0),       // 8 groups by registers: twin at 12
                                    timed(a, 12.5, 137, 54176),       // 3 by registers, 4 by shared: twin at 4
                                    timed(b, 17.7, 252, 170280),      // shared memory holds it at one group
                                    timed(c, 15.4, 128, 96360)};      // 2 by registers and 2 by shared
  round.push_back(timed_candidate(a.with_tables(Tables::Interleaved), 1.0, "not compiled"));  // failed: skipped
  std::vector<TimedCandidate> twins = register_bound_twins(round, 2, sm);
  REQUIRE(twins.size() == 2);
  CHECK(to_string(twins[0].schedule) == to_string(a.with_groups_per_sm(4)));  // fastest first
  CHECK(to_string(twins[1].schedule) == to_string(scpwi.with_groups_per_sm(12)));
  CHECK(register_bound_twins(round, 10, sm).size() == 2);  // b and c are not register-limited
  CHECK(register_bound_twins(round, 0, sm).empty());
  // Registers unknown (an OpenCL timing): no twin.
  std::vector<TimedCandidate> unknown{timed_candidate(a, 12.5)};
  CHECK(register_bound_twins(unknown, 2, sm).empty());
  // A twin already timed is not timed again, nor a bounded candidate bounded further.
  round.push_back(timed(a.with_groups_per_sm(4), 10.6, 126, 54176));
  twins = register_bound_twins(round, 1, sm);
  REQUIRE(twins.size() == 1);
  CHECK(to_string(twins[0].schedule) == to_string(scpwi.with_groups_per_sm(12)));
  // The twin's original, whose spill bounds what the twin may spill to be timed.
  const TimedCandidate *original = unbounded_original(round, a.with_groups_per_sm(4));
  REQUIRE(original != nullptr);
  CHECK(original->registers == 137);
  CHECK(unbounded_original(round, b.with_dofs(Dofs::Shared).with_groups_per_sm(2)) == nullptr);
}

TEST_CASE("the tuner's third round also twins its fastest tiled candidates with half the cells per group", "[tune][occupancy]")
{
  const Schedule scpwi = Schedule::single_cell_per_work_item(32);
  const Schedule a = Schedule::tiled({128, 2, 33, 33, {12}, 36, 11}).with_loops(Loops::Unrolled).with_tables(Tables::Interleaved);
  const Schedule b = Schedule::tiled({25, 10, 112, 38, {2}, 36, 2}).with_loops(Loops::Unrolled).with_dofs(Dofs::Shared).with_scatter(Scatter::Warp);
  const Schedule one = Schedule::tiled({1, 32, 6, 6, {6}, 6, 6});
  std::vector<TimedCandidate> round{timed_candidate(scpwi, 1.0),   // SCPWI has no N_c to halve
                                    timed_candidate(a, 7.1),       // N_c 128 -> 64
                                    timed_candidate(one, 7.5),     // one cell per group: nothing to halve
                                    timed_candidate(b, 43.6),      // N_c 25 -> 12 (4 of 8 warps), every other knob kept
                                    timed_candidate(a.with_groups_per_sm(2), 2.0),  // bounded: not twinned
                                    timed_candidate(a.with_cells_per_group(32), 0.5, "not compiled")};
  std::vector<TimedCandidate> twins = half_group_twins(round, 2);
  REQUIRE(twins.size() == 2);
  CHECK(to_string(twins[0].schedule) == "tiled nc=64 nwi=2 tq=33 ter=33 tec=[12] tqr=36 tqc=11 loops=unrolled tables=interleaved fp64");
  CHECK(to_string(twins[1].schedule) == "tiled nc=12 nwi=10 tq=112 ter=38 tec=[2] tqr=36 tqc=2 dofs=shared loops=unrolled scatter=warp fp64");
  CHECK(twins[0].model_seconds == round[1].model_seconds);
  CHECK(half_group_twins(round, 0).empty());
  // A twin already listed is not timed again: a's (nc=64, now timed and the fastest) and
  // nc=64's own (nc=32, which failed); b's comes next.
  round.push_back(timed_candidate(a.with_cells_per_group(64), 6.0));
  twins = half_group_twins(round, 1);
  REQUIRE(twins.size() == 1);
  CHECK(to_string(twins[0].schedule) == "tiled nc=12 nwi=10 tq=112 ter=38 tec=[2] tqr=36 tqc=2 dofs=shared loops=unrolled scatter=warp fp64");
  CHECK_THROWS_AS(scpwi.with_cells_per_group(2), std::logic_error);
  CHECK_THROWS_AS(scpwi.with_tiles(a.tiles()), std::logic_error);
  // Half the warps, whole cells: 128 x 2 (8 warps) -> 64; 42 x 6 (8 warps) -> 21; 36 x 7
  // -> 18; 3 x 32 (3 warps) -> 2 warps, 2 cells; 2 x 8 (1 warp) -> 1 cell; 1 cell: none.
  auto half = [](int nc, int nwi) { return half_group_cells(TileSizes{nc, nwi, 1, 1, {1}, 1, 1}); };
  CHECK(half(128, 2) == 64);
  CHECK(half(42, 6) == 21);
  CHECK(half(36, 7) == 18);
  CHECK(half(3, 32) == 2);
  CHECK(half(2, 8) == 1);
  CHECK(half(1, 32) == 1);
}

TEST_CASE("MatView's occupancy line says how many groups an SM holds and what holds them", "[tune][occupancy]")
{
  const SmLimits sm;
  CHECK(describe_residency(sm, 256, 134, 92080) ==
        "1 group of 256 threads per SM (8 of 64 warps); registers allow 1, shared memory 2, threads 8");
  CHECK(describe_residency(sm, 256, 128, 92080) ==
        "2 groups of 256 threads per SM (16 of 64 warps); registers allow 2, shared memory 2, threads 8");
  CHECK(describe_residency(sm, 32, 40, 0) == "32 groups of 32 threads per SM (32 of 64 warps); registers allow 48, shared memory 32, threads 32");
}

TEST_CASE("the third round also bounds its fastest register-limited tiled candidates with cells=shared", "[tune][occupancy][cell_values]")
{
  const SmLimits sm;
  std::mt19937 rng(11);
  const ActionData elasticity = make_action(form_cases()[3], 3, 4, 1, rng);  // 12 per-cell values in 3D
  // Elasticity 3D P4's winner as the H200 ran it: 256 threads, 124 registers (2 groups),
  // 72312 B of shared memory (3 groups); with cells=shared 75640 B, still 3 groups.
  const Schedule a = Schedule::tiled({32, 8, 23, 23, {35}, 35, 23}).with_dofs(Dofs::Shared).with_loops(Loops::Unrolled);
  const Schedule b = Schedule::tiled({16, 8, 23, 23, {35}, 35, 23}).with_loops(Loops::Unrolled);
  REQUIRE(shared_memory_bytes(a, elasticity.ir) == 72312);
  REQUIRE(shared_memory_bytes(a.with_cell_values(CellValues::Shared), elasticity.ir) == 75640);
  const auto timed = [](const Schedule &s, double ms, int registers, long long shared) {
    TimedCandidate c = timed_candidate(s, ms);
    c.registers = registers;
    c.shared_bytes = shared;
    return c;
  };
  std::vector<TimedCandidate> round{timed(Schedule::single_cell_per_work_item(32), 9.0, 255, 0),  // SCPWI: no twin
                                    timed(a, 4.04, 124, 72312),
                                    timed(b, 5.0, 200, 40000)};  // 128 threads: 2 groups by registers, 5 by shared: twin at 3
  std::vector<TimedCandidate> twins = cell_value_bound_twins(elasticity.ir, round, 2, sm);
  REQUIRE(twins.size() == 2);
  CHECK(to_string(twins[0].schedule) == to_string(a.with_cell_values(CellValues::Shared).with_groups_per_sm(3)));
  CHECK(to_string(twins[1].schedule) == to_string(b.with_cell_values(CellValues::Shared).with_groups_per_sm(3)));
  // The twin's original, for the spill screen, is the candidate with its values in registers.
  const TimedCandidate *original = unbounded_original(round, twins[0].schedule);
  REQUIRE(original != nullptr);
  CHECK(original->registers == 124);
  CHECK(cell_value_bound_twins(elasticity.ir, round, 0, sm).empty());
  round.push_back(timed(twins[0].schedule, 3.31, 80, 75640));  // timed already: not again
  twins = cell_value_bound_twins(elasticity.ir, round, 1, sm);
  REQUIRE(twins.size() == 1);
  CHECK(to_string(twins[0].schedule) == to_string(b.with_cell_values(CellValues::Shared).with_groups_per_sm(3)));
  // The third round's bounded twins: the register-bound ones, then the cells=shared ones.
  const std::vector<TimedCandidate> both = bound_twins(elasticity.ir, round, 2, 2, sm);
  const std::vector<TimedCandidate> registers_only = register_bound_twins(round, 2, sm);
  REQUIRE(both.size() == registers_only.size() + twins.size());
  CHECK(to_string(both.back().schedule) == to_string(twins.back().schedule));
  // The last round: the bound twins of the fastest of all only, less those already timed.
  TuneReport report;
  report.candidates = {timed(b, 5.0, 200, 40000), timed(a, 4.04, 124, 72312)};
  report.best = 1;
  std::vector<TimedCandidate> last = bound_twins_of_best(elasticity.ir, report, sm);
  REQUIRE(last.size() == 2);
  CHECK(to_string(last[0].schedule) == to_string(a.with_groups_per_sm(3)));
  CHECK(to_string(last[1].schedule) == to_string(a.with_cell_values(CellValues::Shared).with_groups_per_sm(3)));
  report.candidates.push_back(timed(a.with_groups_per_sm(3), 3.5, 80, 72312));
  last = bound_twins_of_best(elasticity.ir, report, sm);
  REQUIRE(last.size() == 1);
  CHECK(last[0].schedule.cell_values() == CellValues::Shared);
  report.best = -1;
  CHECK(bound_twins_of_best(elasticity.ir, report, sm).empty());
  // A form whose cells hold no values for the points (curved cells: the Jacobian varies) gets none.
  const std::vector<FormCase> forms = form_cases();
  const auto curved_form = std::find_if(forms.begin(), forms.end(), [](const FormCase &f) { return f.name == "curved P2 geometry"; });
  REQUIRE(curved_form != forms.end());
  const ActionData curved = make_action(*curved_form, 2, 2, 1, rng);
  REQUIRE(held_cell_values(curved.ir.pointwise).empty());
  CHECK(cell_value_bound_twins(curved.ir, round, 2, sm).empty());
}
