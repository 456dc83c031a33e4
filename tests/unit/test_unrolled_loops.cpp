// Loops::Unrolled (schedule.h): the schedule text carries it and only tiled schedules
// take it; every tiled kernel of the covering sample built with it (also with shared
// DOFs) adds the same action as the CPU reference on the OpenCL device (PoCL on CI);
// its private-array loops, and only those, carry #pragma unroll; the quadrature loop
// reads each e_j once per point (test_nvrtc_compiles_variants.cpp: NVRTC compiles every
// such kernel). The tuner's tiled candidates are unrolled by default and cover the
// largest T^Q classes, and the walk of the space gives each T^Q its share of the budget.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <regex>
#include <set>

#include "kernel/build.h"
#include "kernel/emit.h"
#include "support/opencl_check.h"
#include "tune/cost_model.h"
#include "tune/kernel_shape.h"
#include "tune/quantities.h"
#include "tune/tuner.h"

using namespace femgpu;
using namespace femgpu::test;

namespace {

// The sample's tiled kernels with their private-array loops unrolled.
void check_sample(int dim, Dofs dofs)
{
  const int checked = check_sample_kernels(
      dim, static_cast<unsigned>(29 + dim), [](const Candidate &c) { return c.tiled_shape >= 0; },
      [&](const Schedule &s) { return s.with_loops(Loops::Unrolled).with_dofs(dofs); },
      [](const std::string &source) { CHECK(source.find("#pragma unroll") != std::string::npos); });
  CHECK(checked > 10);
}

// The loops a `#pragma unroll` line precedes, by induction variable.
std::multiset<std::string> unrolled_loops(const std::string &source)
{
  std::multiset<std::string> names;
  const std::regex pragma_then_for(R"(#pragma unroll\n\s*for \(int (\w+) = )");
  for (auto it = std::sregex_iterator(source.begin(), source.end(), pragma_then_for); it != std::sregex_iterator(); ++it)
    names.insert((*it)[1]);
  return names;
}

}  // namespace

TEST_CASE("unrolled tiled kernels match the reference action in 2D", "[opencl][kernel][tiled][unrolled]")
{
  check_sample(2, Dofs::Registers);
}
TEST_CASE("unrolled tiled kernels match the reference action in 3D", "[opencl][kernel][tiled][unrolled]")
{
  check_sample(3, Dofs::Registers);
}
TEST_CASE("unrolled tiled kernels with shared DOFs match the reference action", "[opencl][kernel][tiled][unrolled][shared_dofs]")
{
  check_sample(2, Dofs::Shared);
}
TEST_CASE("unrolled tiled kernels with shared DOFs match the reference action in 3D", "[opencl][kernel][tiled][unrolled][shared_dofs]")
{
  check_sample(3, Dofs::Shared);
}

TEST_CASE("loops=unrolled is written, read back and only taken by tiled schedules", "[schedule][unrolled]")
{
  const Schedule t = Schedule::tiled({4, 8, 6, 6, {6}, 6, 6});
  CHECK(to_string(t.with_loops(Loops::Unrolled)) == "tiled nc=4 nwi=8 tq=6 ter=6 tec=[6] tqr=6 tqc=6 loops=unrolled fp64");
  CHECK(to_string(t.with_loops(Loops::Unrolled).with_dofs(Dofs::Shared).with_precision(Precision::FP32)) ==
        "tiled nc=4 nwi=8 tq=6 ter=6 tec=[6] tqr=6 tqc=6 dofs=shared loops=unrolled fp32");
  for (const Schedule &s : {t.with_loops(Loops::Unrolled), t.with_loops(Loops::Unrolled).with_dofs(Dofs::Shared)}) {
    const Schedule back = parse_schedule(to_string(s));
    CHECK(back.loops() == Loops::Unrolled);
    CHECK(back.dofs() == s.dofs());
    CHECK(to_string(back) == to_string(s));
  }
  CHECK(parse_schedule(to_string(t)).loops() == Loops::Compiler);
  for (const char *bad : {"tiled nc=4 nwi=8 tq=6 ter=6 tec=[6] tqr=6 tqc=6 loops=unrolled dofs=shared fp64",  // order
                          "tiled nc=4 nwi=8 tq=6 ter=6 tec=[6] tqr=6 tqc=6 loops=compiler fp64",  // the default, not written
                          "tiled nc=4 nwi=8 tq=6 ter=6 tec=[6] tqr=6 tqc=6 fp64 loops=unrolled",
                          "tiled nc=4 nwi=8 tq=6 ter=6 tec=[6] tqr=6 tqc=6 loops=unrolled loops=unrolled fp64"}) {
    INFO(bad);
    CHECK_THROWS_AS(parse_schedule(bad), std::invalid_argument);
  }
  std::mt19937 rng(3);
  ActionData d = make_action(form_cases()[0], 2, 2, 4, rng);
  try {
    validate(Schedule::single_cell_per_work_item(32).with_loops(Loops::Unrolled), d.ir, d.tab.n_points());
    FAIL("an unrolled SCPWI schedule was accepted");
  } catch (const std::invalid_argument &e) {
    CHECK(std::string(e.what()).find("loops=unrolled is for tiled kernels") != std::string::npos);
  }
}

TEST_CASE("an unrolled tiled kernel marks exactly its private-array loops", "[kernel][tiled][unrolled]")
{
  std::mt19937 rng(5);
  const std::vector<FormCase> forms = form_cases();
  for (size_t f = 0; f < forms.size(); ++f) {
    ActionData d = make_action(forms[f], 2, 3, 4, rng);
    std::vector<int> cols;
    for (const EvalGroup &g : d.ir.groups) cols.push_back(std::min(3, g.n_basis));  // a DG0 group has one column
    const Schedule plain = Schedule::tiled({2, 4, d.tab.n_points(), d.tab.n_points(), cols, 5, 4});
    INFO(forms[f].name << ": " << to_string(plain));
    const std::string rolled = kernel::emit_cuda(kernel::build_kernel(d.ir, d.tab, plain));
    const std::string unrolled = kernel::emit_cuda(kernel::build_kernel(d.ir, d.tab, plain.with_loops(Loops::Unrolled)));
    CHECK(unrolled_loops(rolled).empty());
    const std::multiset<std::string> marked = unrolled_loops(unrolled);
    // Per group and per function: accumulator reset, DOF gather, rows x columns; then
    // pointwise rows, output reset, points x rows, scatter rows.
    CHECK(marked.count("i_col") == d.ir.groups.size());
    CHECK(marked.count("i_qcol") == 1);
    CHECK(marked.count("i_out") == 1);
    CHECK(marked.count("i_dof") >= d.ir.groups.size());
    CHECK(marked.count("i_row") >= 2 * d.ir.groups.size() + 3);
    // Group-wide loops (tiles, prefetch rounds) keep barriers inside and stay rolled.
    for (const char *rolled_loop : {"i_quad_tile", "i_row_tile", "i_col_tile", "i_round", "i_qrow_tile", "i_qcol_tile"})
      CHECK(marked.count(rolled_loop) == 0);
    // e_j is read once per point, outside the loop over the work-item's rows.
    const size_t e_read = unrolled.find("const real r_e0 = s_e[");
    REQUIRE(e_read != std::string::npos);
    CHECK(unrolled.find("for (int i_row", e_read) < unrolled.find("r_out[", e_read));
    CHECK(rolled.find("r_e0") == std::string::npos);
    // Shared DOFs: each DOF value of a column is read from the shared tile once, outside
    // the loop over the work-item's rows, and the FMAs use that register.
    const std::string shared = kernel::emit_cuda(kernel::build_kernel(d.ir, d.tab, plain.with_loops(Loops::Unrolled).with_dofs(Dofs::Shared)));
    const size_t dof_read = shared.find("_dof0 = s_");
    REQUIRE(dof_read != std::string::npos);
    CHECK(shared.find("for (int i_row", dof_read) < shared.find("r_acc_g0_t0[i_row] +=", dof_read));
    CHECK(shared.find("* s_u_tile[") == std::string::npos);
    CHECK(shared.find("* s_w0_tile[") == std::string::npos);
    CHECK(unrolled_loops(shared).count("i_col") == d.ir.groups.size());
  }
}

TEST_CASE("tuning times unrolled tiled candidates, including the best of the largest T^Q classes", "[tune][unrolled]")
{
  std::mt19937 rng(8);
  ActionData d = make_action(form_cases()[1], 3, 3, 1, rng);  // Laplace 3D P3
  const int Q = d.tab.n_points();
  TuneSettings s;
  s.scpwi_work_group_sizes = {};
  size_t space = 0;
  bool truncated = true;
  std::vector<TimedCandidate> cands = tuning_candidates(d.ir, Q, DeviceParams{}, s, &space, &truncated);
  REQUIRE(!cands.empty());
  std::set<int> quad_tiles;
  for (const TimedCandidate &c : cands) {
    REQUIRE(c.schedule.strategy() == Strategy::Tiled);
    CHECK(c.schedule.loops() == Loops::Unrolled);
    quad_tiles.insert(c.schedule.tiles().quad_tile);
  }
  const std::vector<int> sizes = tile_sizes(Q);
  for (size_t k = 0; k < std::min<size_t>(6, sizes.size()); ++k) {
    INFO("T^Q = " << sizes[k]);
    CHECK(quad_tiles.count(sizes[k]) == 1);
  }
  CHECK(space > 0);
  s.tiled_loops = Loops::Compiler;
  s.quad_tile_classes = 0;
  for (const TimedCandidate &c : tuning_candidates(d.ir, Q, DeviceParams{}, s, &space, &truncated))
    CHECK(c.schedule.loops() == Loops::Compiler);
}

TEST_CASE("tuning keeps the DOF tile of an unrolled candidate in shared memory when its register footprint is too large",
          "[tune][unrolled][shared_dofs]")
{
  std::mt19937 rng(10);
  ActionData d = make_action(form_cases()[1], 3, 3, 1, rng);  // Laplace 3D P3
  const int Q = d.tab.n_points();
  const KernelShape shape = KernelShape::from(d.ir, Q);
  TuneSettings s;
  s.scpwi_work_group_sizes = {};
  size_t space = 0;
  bool truncated = true;
  // A threshold between the chosen candidates' smallest and largest footprints.
  s.shared_dofs_above_words = 0;
  std::vector<long long> words;
  for (const TimedCandidate &c : tuning_candidates(d.ir, Q, DeviceParams{}, s, &space, &truncated))
    words.push_back(register_words(shape, c.schedule.tiles()));
  std::sort(words.begin(), words.end());
  REQUIRE(words.front() < words.back());
  s.shared_dofs_above_words = words.front();
  int shared = 0, registers = 0;
  for (const TimedCandidate &c : tuning_candidates(d.ir, Q, DeviceParams{}, s, &space, &truncated)) {
    INFO(to_string(c.schedule) << ": " << register_words(shape, c.schedule.tiles()) << " words");
    CHECK(c.schedule.loops() == Loops::Unrolled);
    const bool above = register_words(shape, c.schedule.tiles()) > s.shared_dofs_above_words;
    CHECK((c.schedule.dofs() == Dofs::Shared) == above);
    if (above) CHECK(static_cast<double>(shared_memory_bytes(c.schedule, d.ir)) <= DeviceParams{}.local_max_per_group);
    ++(above ? shared : registers);
    // Shared DOFs hold one column's values: the footprint shrinks by the rest of the tile.
    CHECK(register_words(shape, c.schedule.tiles(), true) <= register_words(shape, c.schedule.tiles()));
  }
  CHECK(shared > 0);
  CHECK(registers > 0);
  // Off, or with loops left to the compiler (whose shared DOFs read memory per FMA): none.
  for (auto off : {std::function<void(TuneSettings &)>([](TuneSettings &t) { t.shared_dofs_above_words = 0; }),
                   std::function<void(TuneSettings &)>([](TuneSettings &t) { t.tiled_loops = Loops::Compiler; })}) {
    TuneSettings t = s;
    off(t);
    for (const TimedCandidate &c : tuning_candidates(d.ir, Q, DeviceParams{}, t, &space, &truncated)) CHECK(c.schedule.dofs() == Dofs::Registers);
  }
}

TEST_CASE("the walk of the tiled space gives every T^Q its share of the budget", "[tune][search_space]")
{
  std::mt19937 rng(9);
  ActionData d = make_action(form_cases()[1], 3, 3, 1, rng);
  const KernelShape shape = KernelShape::from(d.ir, d.tab.n_points());
  const std::vector<int> sizes = tile_sizes(shape.Q);
  std::map<int, long long> full, limited;
  SearchLimits limits;
  CHECK_FALSE(visit_tiles(shape, limits, DeviceParams{}, [&](const Tiles &t) { return ++full[t.quad_tile], true; }));
  long long largest = 0;
  for (const auto &[tq, n] : full) largest = std::max(largest, n);
  REQUIRE(largest > 10);
  limits.max_per_quad_tile = largest / 2;
  CHECK(visit_tiles(shape, limits, DeviceParams{}, [&](const Tiles &t) { return ++limited[t.quad_tile], true; }));
  for (const auto &[tq, n] : full) {
    INFO("T^Q = " << tq);
    CHECK(limited[tq] == std::min(n, limits.max_per_quad_tile));
  }
}
