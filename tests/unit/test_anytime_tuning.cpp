// Anytime tuning (TuneSettings::budget_seconds): the order a budgeted first list is timed
// in, the budget's clock, the budget in the cache key's settings text, and the monitor
// line of a candidate whose setup tuning pays (the assembled operator).
#include <catch2/catch.hpp>

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

TEST_CASE("the tuning clock is spent only after its budget, and never without one", "[tune]")
{
  const TuneClock none(0), short_budget(0.02);
  REQUIRE_FALSE(short_budget.spent());
  std::this_thread::sleep_for(std::chrono::milliseconds(40));
  REQUIRE(short_budget.spent());
  REQUIRE_FALSE(none.spent());
  REQUIRE(none.elapsed() >= 0.04);
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
