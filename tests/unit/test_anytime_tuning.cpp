// Anytime tuning (TuneSettings::budget_seconds): the order a budgeted first list is timed
// in, the budget's clock, the budget in the cache key's settings text, the monitor line of
// a candidate whose setup tuning pays (the assembled operator), and when that setup starts
// within a budget.
#include <catch2/catch.hpp>

#include <limits>
#include <thread>

#include "tune/tune_plan.h"
#include "tune/tuner.h"

using namespace femgpu;

namespace {

TimedCandidate scpwi(int wg)
{
  TimedCandidate c;
  c.schedule = Schedule::single_cell_per_work_item(wg);
  return c;
}

TimedCandidate tiled(int cells_per_group)
{
  Tiles t;
  t.cells_per_group = cells_per_group;
  t.items_per_cell = 1;
  t.quad_tile = 1;
  t.eval_rows = 1;
  t.eval_cols = {1};
  t.quad_rows = 1;
  t.quad_cols = 1;
  TimedCandidate c;
  c.schedule = Schedule::tiled(t);
  return c;
}

TimedCandidate mma(int cells_per_group)
{
  MmaSizes m;
  m.cells_per_group = cells_per_group;
  TimedCandidate c;
  c.schedule = Schedule::tensor_core(m);
  return c;
}

std::vector<std::string> texts(const std::vector<TimedCandidate> &cs)
{
  std::vector<std::string> out;
  for (const TimedCandidate &c : cs) out.push_back(to_string(c.schedule));
  return out;
}

}  // namespace

TEST_CASE("a budgeted first list starts with the model's best tiled candidate and alternates with SCPWI", "[tune]")
{
  const std::vector<TimedCandidate> first{scpwi(32), scpwi(64), scpwi(128), tiled(1), tiled(2)};
  const std::vector<std::string> got = texts(anytime_order(first));
  const std::vector<std::string> want = texts({tiled(1), scpwi(32), tiled(2), scpwi(64), scpwi(128)});
  REQUIRE(got == want);
  // Nothing is lost or repeated, whatever the mix.
  REQUIRE(anytime_order({scpwi(32)}).size() == 1);
  REQUIRE(texts(anytime_order({tiled(3), tiled(4)})) == texts({tiled(3), tiled(4)}));
}

TEST_CASE("with tensor-core schedules, a budgeted list takes the kinds in turn: tensor core, tiled, SCPWI", "[tune]")
{
  const std::vector<TimedCandidate> list{scpwi(32), scpwi(64), tiled(1), tiled(2), tiled(3), mma(8), mma(16)};
  REQUIRE(texts(anytime_order(list)) == texts({mma(8), tiled(1), scpwi(32), mma(16), tiled(2), scpwi(64), tiled(3)}));
}

TEST_CASE("the tuning clock is past an end only after it, and never without one", "[tune]")
{
  const TuneClock clock;
  REQUIRE_FALSE(clock.past(0.02));
  std::this_thread::sleep_for(std::chrono::milliseconds(40));
  REQUIRE(clock.past(0.02));
  REQUIRE_FALSE(clock.past(0));
  REQUIRE(clock.elapsed() >= 0.04);
}

TEST_CASE("one more candidate's timing is kept from the budget, longer behind a slow fastest kernel", "[tune]")
{
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(expected_timing_seconds(inf, 0.5) == 0.5);  // nothing timed yet: the floor
  CHECK(expected_timing_seconds(2.0, 0.5) == 0.5);  // fast kernels: the floor
  CHECK(expected_timing_seconds(60.0, 0.3) == Approx(0.3));
  // Hyperelasticity 3D P6 on the H200: 289 ms a launch, 5 launches at least.
  CHECK(expected_timing_seconds(289.0, 0.3) == Approx(kBudgetLaunches * 0.289));
  CHECK(expected_timing_seconds(289.0, 0.5) == Approx(1.445));
}

TEST_CASE("the budget is part of the tuning cache key's settings text", "[tune]")
{
  TuneSettings unbounded, budgeted;
  budgeted.budget_seconds = 10;
  REQUIRE(tuning_settings_text(unbounded).find("budget") == std::string::npos);
  REQUIRE(tuning_settings_text(budgeted).find(" budget=10 ") != std::string::npos);
  REQUIRE(tuning_settings_text(unbounded) != tuning_settings_text(budgeted));
}

TEST_CASE("a monitor line gives the assembled operator's assembly seconds, and no such part for a kernel", "[tune]")
{
  TimedCandidate c;
  c.schedule = parse_schedule("assembled fp64");
  c.median_ms = 0.5, c.runs = 15, c.registers = 30, c.setup_seconds = 4.25;
  CHECK(describe(c) == "assembled fp64: 0.5 ms (median of 15), 30 regs, 0 B spill, 0 B shared, assembled in 4.25 s");
  c.schedule = Schedule::single_cell_per_work_item();
  c.setup_seconds = 0;
  CHECK(describe(c) == "scpwi wg=32 fp64: 0.5 ms (median of 15), 30 regs, 0 B spill, 0 B shared");
}

TEST_CASE("the assembled operator's setup estimate lies above each setup measured on the H200 host, within 2.5x", "[tune]")
{
  // Cell-matrix entries and setup seconds of the ten assembled candidates the 70-case
  // collection timed (records/h200_70_cases_4aacc31/bench_*.log, "assembled in").
  const double measured[][2] = {{2.95e7, 0.404}, {2.95e7, 0.436}, {2.95e7, 0.459}, {1.18e8, 1.626}, {1.69e7, 0.340},
                                {1.69e7, 0.312}, {1.69e7, 0.239}, {1.05e8, 1.163}, {4.21e8, 5.302}, {1.52e8, 1.713}};
  for (const auto &m : measured) {
    INFO(m[0] << " entries, " << m[1] << " s measured, " << assembled_setup_seconds(m[0]) << " s estimated");
    CHECK(assembled_setup_seconds(m[0]) > m[1]);
    CHECK(assembled_setup_seconds(m[0]) < 2.5 * m[1]);
  }
}

TEST_CASE("a candidate whose reason starts with the budget's counts as left by it, and marks the tuning cut short", "[tune]")
{
  TimedCandidate timed = scpwi(32);
  timed.median_ms = 1.0;
  TimedCandidate assembled;
  assembled.schedule = parse_schedule("assembled fp64");
  assembled.error = "not timed: its SpMV reads at least 12 MB (about 1e6 nonzeros), 0.003 ms at 4.27 TB/s, not below the fastest so far";
  TuneReport round;
  round.candidates = {timed, assembled};
  round.best = 0;
  TuneReport whole;
  append_round(&whole, TuneReport(round));
  CHECK_FALSE(whole.budget_spent);  // left for a reason of its own: the plan was timed in full
  CHECK(candidates_timed(whole) == 2);

  round.candidates[1].error = std::string(kBudgetSpent) + ": assembling its 4.2e+08 cell-matrix entries is expected to take 6.6 s, 1.5 s of the budget left";
  CHECK(left_by_budget(round.candidates[1]));
  CHECK_FALSE(left_by_budget(round.candidates[0]));
  TuneReport cut;
  append_round(&cut, TuneReport(round));
  CHECK(cut.budget_spent);
  CHECK(candidates_timed(cut) == 1);
  CHECK(cut.best == 0);
}

TEST_CASE("the assembled operator's setup starts where it fits the budget, or past it for an SpMV bound below half the fastest", "[tune]")
{
  // Helmholtz 3D P3 at 4aacc31: 4.2e8 entries (about 6.6 s), 1.6 s left, bound about 0.55 of the fastest.
  const std::string why = assembled_budget_reason(4.21e8, 0.40, 0.74, 1.6);
  CHECK(why.rfind(kBudgetSpent, 0) == 0);
  CHECK(why.find("4.21e+08 cell-matrix entries") != std::string::npos);
  CHECK(why.find("1.6 s of the budget left") != std::string::npos);
  // The same with the budget left for it: it starts.
  CHECK(assembled_budget_reason(4.21e8, 0.40, 0.74, 7.0).empty());
  // 3D P1 at 9.5e6 DOFs: 9e8 entries (about 13.8 s) never fit a 10 s budget; its bound is
  // about 0.3 of the matrix-free kernel's time, a gain worth running past the budget.
  CHECK(assembled_budget_reason(9.02e8, 0.43, 1.42, 8.0).empty());
  // Just above half: left.
  CHECK_FALSE(assembled_budget_reason(9.02e8, 0.72, 1.42, 8.0).empty());
  // No budget: never left.
  CHECK(assembled_budget_reason(9.02e8, 1.0, 1.1, std::numeric_limits<double>::infinity()).empty());
  // Nothing timed yet (the first candidate): never left.
  CHECK(assembled_budget_reason(4.21e8, 0.40, std::numeric_limits<double>::infinity(), 1.6).empty());
}
