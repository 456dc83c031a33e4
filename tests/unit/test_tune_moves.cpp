// The table of tuning moves (tune/tune_moves.h): a move added to a copy of the table
// reaches the plan's reader and printer, the default plan, -help, the docs table and the
// GPU check's sample; the twins of one choice are made only where validate() takes them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "schedule/schedule_words.h"
#include "support/action_cases.h"
#include "support/timed_candidates.h"
#include "tune/tune_moves.h"
#include "tune/tune_plan.h"
#include "tune/twins.h"

using namespace femgpu;
using namespace femgpu::test;

namespace {

std::vector<std::string> texts(const std::vector<TimedCandidate> &candidates)
{
  std::vector<std::string> out;
  for (const TimedCandidate &c : candidates) out.push_back(to_string(c.schedule));
  return out;
}

bool holds(const std::vector<Schedule> &list, const Schedule &s)
{
  return std::any_of(list.begin(), list.end(), [&](const Schedule &t) { return to_string(t) == to_string(s); });
}

// A copy of the table with one more move, as docs/layout.md's "Adding a tuning move" says:
// an entry (the cells=shared twins of tiled candidates, 3 by default) and a round of the
// default CUDA plan before its last.
MoveTable table_with_cells_twin()
{
  MoveTable table = tune_moves();
  TuneMove cells{"cells_twin", true, 3};
  cells.twin = TwinRule{"cells=shared"};
  cells.make = [rule = *cells.twin](std::size_t n, const PlanContext &ctx, TuneReport *report) { return rule_twins(rule, ctx, report->candidates, n); };
  cells.help = "the cells=shared twins of the n fastest tiled candidates";
  table.moves.push_back(cells);
  table.cuda_rounds.insert(table.cuda_rounds.end() - 1, DefaultRound{{"cells_twin"}});
  return table;
}

}  // namespace

TEST_CASE("tune moves: a move added to a copy of the table reaches the plan, -help, the docs table and the GPU check", "[tune][tune_moves]")
{
  const MoveTable table = table_with_cells_twin();
  const TuneMove *cells = find_tune_move("cells_twin", table);
  REQUIRE(cells != nullptr);
  // the real table is unchanged
  CHECK(find_tune_move("cells_twin") == nullptr);
  CHECK_THROWS_WITH(parse_tune_plan("first; cells_twin n=2"), Catch::Contains("unknown move 'cells_twin'"));
  // the plan's reader and printer
  const TunePlan plan = parse_tune_plan("first; cells_twin n=2 + shared_dofs", table);
  REQUIRE(plan.rounds.size() == 2);
  CHECK(plan.rounds[1].moves[0].move == cells);
  CHECK(plan.rounds[1].moves[0].n == 2);
  CHECK(to_string(plan) == "first; cells_twin n=2 + shared_dofs n=1");
  CHECK_THROWS_WITH(parse_tune_plan("first; cells_twin n=x", table), Catch::Contains("n=x"));
  // the default plan, at the table's count
  std::string expected = to_string(default_cuda_plan());
  expected.replace(expected.rfind("; bound_best"), std::string::npos, "; cells_twin n=3; bound_best");
  CHECK(to_string(default_cuda_plan(table)) == expected);
  // -help and the docs table
  CHECK_THAT(tune_moves_help(table), Catch::EndsWith(" bound_best cells_twin n=3"));
  CHECK_THAT(tune_moves_help(), !Catch::Contains("cells_twin"));
  CHECK_THAT(tune_moves_docs_table(table), Catch::EndsWith("| `cells_twin n=` | 3 | `cells=shared` | the cells=shared twins of the n fastest tiled candidates |\n"));
  // its candidates: the twins of the tiled kernels
  const Schedule tiled = Schedule::tiled({4, 8, 6, 6, {6}, 6, 6}), scpwi = Schedule::single_cell_per_work_item();
  TuneReport report;
  report.candidates = {timed_candidate(scpwi, 0.1), timed_candidate(tiled, 0.2)};
  CHECK(texts(cells->make(2, PlanContext{}, &report)) == std::vector<std::string>{to_string(tiled.with_cell_values(CellValues::Shared))});
  // the GPU check's sample
  const std::vector<Schedule> sample = with_rule_twins({scpwi, tiled}, {}, table);
  CHECK(holds(sample, tiled.with_cell_values(CellValues::Shared)));
  CHECK_FALSE(holds(with_rule_twins({scpwi, tiled}, {"cells_twin"}, table), tiled.with_cell_values(CellValues::Shared)));
  CHECK_FALSE(holds(with_rule_twins({scpwi, tiled}, {}), tiled.with_cell_values(CellValues::Shared)));
}

TEST_CASE("tune moves: every move is in -help, and the plan's moves are the table's", "[tune][tune_moves]")
{
  const std::string help = tune_plan_help();
  for (const TuneMove &m : tune_moves().moves) {
    INFO(m.name);
    CHECK_THAT(help, Catch::Contains(std::string(" ") + m.name + (m.counted ? " n=" + std::to_string(m.default_n) : "")));
    REQUIRE((m.make != nullptr) != (m.search != nullptr));  // one way to make its candidates
    const std::string text = std::string("first; ") + m.name;
    if (std::string(m.name) != "first") CHECK(parse_tune_plan(text).rounds.back().moves[0].move == &m);
  }
  CHECK_THAT(help, Catch::Contains("Parameters: param candidates="));
  for (const TunePlan &plan : {default_cuda_plan(), default_opencl_plan()})
    for (const PlanRound &round : plan.rounds)
      for (const PlanMove &m : round.moves) CHECK(find_tune_move(m.move->name) == m.move);
}

TEST_CASE("tune moves: a twin is made only where validate() takes its choices", "[tune][tune_moves]")
{
  std::mt19937 rng(5);
  const ActionData p3 = make_action(form_named("laplace"), 2, 3, 1, rng);  // own DOFs
  // A staged kernel that spills leads: own=plain and dofs=shared do not apply beside
  // scatter=staged (schedule_words.h's scopes), so neither twin is made of it.
  const Schedule staged = Schedule::single_cell_per_work_item(32).with_scatter(Scatter::Staged), plain = Schedule::single_cell_per_work_item(64);
  const std::vector<TimedCandidate> timed{timed_candidate(staged, 0.1, "", 64), timed_candidate(plain, 0.2, "", 64)};
  CHECK(texts(move_twins("own_dofs", timed, 2, &p3.ir)) == std::vector<std::string>{"scpwi wg=64 own=plain fp64"});
  CHECK(texts(move_twins("shared_dofs", timed, 2, &p3.ir)) == std::vector<std::string>{"scpwi wg=64 dofs=shared fp64"});
  // Every twin of every rule, of valid schedules of each strategy with any one choice
  // changed, validates.
  const ActionData vector = make_action(form_named("elasticity"), 2, 3, 1, rng);
  for (const ActionData *d : {&p3, &vector}) {
    const int Q = d->tab.n_points(), C = d->ir.signature.element.components;
    std::vector<int> eval_cols;
    for (const EvalGroup &g : d->ir.groups) eval_cols.push_back(g.n_basis);
    std::vector<Schedule> bases{Schedule::single_cell_per_work_item(), Schedule::tiled({2, 8, Q, Q, eval_cols, d->ir.n_test_basis, Q}),
                                Schedule::tensor_core({16, 4, 16}), Schedule::tensor_core({8, 1, 8, MmaQuadOrder::Rows, MmaOperands::Registers})};
    if (C > 1) bases.push_back(Schedule::single_cell_per_work_item().with_lanes(C));
    std::vector<Schedule> sample;
    for (const Schedule &b : bases)
      for (const ScheduleWord &w : schedule_words())
        for (const char *value : w.choices)
          if (word_takes(w, b.strategy())) sample.push_back(w.apply(b, value));
    int twins = 0;
    for (const Schedule &s : sample) {
      try {
        validate(s, d->ir, Q, 1 << 30);
      } catch (const std::invalid_argument &) {
        continue;
      }
      for (const TuneMove &m : tune_moves().moves) {
        if (!m.twin) continue;
        const std::optional<Schedule> twin = twin_of(*m.twin, s);
        if (!twin) continue;
        INFO(m.name << ": " << to_string(s) << " -> " << to_string(*twin));
        CHECK(to_string(*twin) != to_string(s));
        CHECK_NOTHROW(validate(*twin, d->ir, Q, 1 << 30));
        ++twins;
      }
    }
    CHECK(twins > 20);
  }
  // A rule names choices of the schedule words.
  CHECK_THROWS_AS(twin_of(TwinRule{"dofs=sideways"}, Schedule::single_cell_per_work_item()), std::logic_error);
  CHECK_THROWS_AS(twin_of(TwinRule{"wg=64"}, Schedule::single_cell_per_work_item()), std::logic_error);
}

TEST_CASE("tune moves: the GPU check's sample holds each rule's twins of every schedule it takes", "[tune][tune_moves]")
{
  const Schedule scpwi = Schedule::single_cell_per_work_item(), tiled = Schedule::tiled({4, 8, 6, 6, {6}, 6, 6}).with_loops(Loops::Unrolled);
  const Schedule mma = Schedule::tensor_core({16, 4, 16});
  const std::vector<Schedule> sample = with_rule_twins({scpwi, tiled, mma}, {});
  std::set<std::string> distinct;
  for (const Schedule &s : sample) CHECK(distinct.insert(to_string(s)).second);
  for (const char *text : {"scpwi wg=32 dofs=shared fp64", "scpwi wg=32 scatter=warp fp64", "scpwi wg=32 own=plain fp64", "scpwi wg=32 scatter=staged fp64",
                           "mma nc=16 warps=4 tq=16 quad=steps fp64"})
    CHECK(holds(sample, parse_schedule(text)));
  for (const Schedule &t : {tiled.with_dofs(Dofs::Shared), tiled.with_tables(Tables::Interleaved), tiled.with_scatter(Scatter::Warp),
                            tiled.with_dofs(Dofs::Shared).with_tables(Tables::Interleaved)})  // interleaved twins the shared-DOF twin too
    CHECK(holds(sample, t));
  // own=plain twins the warp and shared-DOF twins too; a move left out makes none
  CHECK(holds(sample, parse_schedule("scpwi wg=32 scatter=warp own=plain fp64")));
  CHECK(holds(sample, parse_schedule("scpwi wg=32 dofs=shared own=plain fp64")));
  const std::vector<Schedule> no_warp = with_rule_twins({scpwi, tiled, mma}, {"warp_scatter"});
  CHECK(std::none_of(no_warp.begin(), no_warp.end(), [](const Schedule &s) { return s.scatter() == Scatter::Warp; }));
  // nothing that does not apply: no staged twin of the tiled kernel, no own=plain of mma
  CHECK_FALSE(holds(sample, tiled.with_scatter(Scatter::Staged)));
  CHECK_FALSE(holds(sample, mma.with_own_dofs(OwnDofs::Plain)));
}
