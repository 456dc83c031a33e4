// The one loop that runs a tuning plan (tune_plan.h): each move (tune_moves.h) makes
// candidates from the report so far; a round's moves are made together and timed by the
// backend's timer.
#include <algorithm>
#include <utility>

#include "tune/tune_moves.h"
#include "tune/tune_plan.h"

namespace femgpu {

namespace {

void append(std::vector<TimedCandidate> *to, std::vector<TimedCandidate> more)
{
  for (TimedCandidate &c : more) to->push_back(std::move(c));
}

// Whether a round's moves need no timings (its candidates can be made up front).
bool timing_free(const PlanRound &round)
{
  return std::all_of(round.moves.begin(), round.moves.end(), [](const PlanMove &m) { return m.move->timing_free; });
}

}  // namespace

void run_plan(const TunePlan &plan, const PlanContext &ctx, TuneReport *report, const RoundTimer &time)
{
  // With a budget, the first round and the timing-free round after it (the tensor-core
  // schedules) are timed as one, in the order of their expected gain (anytime_order):
  // at high order the tensor-core kernels win and compile fast, and the first list's
  // compiles alone can spend a 10 s budget (Helmholtz 3D P4 on an H100).
  std::vector<PlanRound> rounds = plan.rounds;
  const double budget = std::max(0.0, ctx.settings->budget_seconds);
  const bool budgeted = budget > 0;
  if (budgeted && rounds.size() > 1 && timing_free(rounds[0]) && timing_free(rounds[1])) {
    for (const PlanMove &m : rounds[1].moves) rounds[0].moves.push_back(m);
    rounds.erase(rounds.begin() + 1);
  }
  // A plan of several rounds: the first stops at its share of the budget, so that the
  // register-bound twin of its fastest kernel (the default plan's early register_bound
  // n=1 round) always gets a try. On the H200 the first round spent the whole 10 s in 4
  // of the 7 cases whose winner was more than 5% slower than the unbounded tuner's, and
  // each time the unbounded winner was the register-bound twin of the budgeted one
  // (records/h200_70_cases_db38b28/unbounded_2598b12).
  const double first_budget = rounds.size() > 1 ? budget * ctx.settings->first_round_share : budget;
  for (std::size_t r = 0; r < rounds.size(); ++r) {
    const PlanRound &round = rounds[r];
    std::vector<TimedCandidate> candidates;
    for (const PlanMove &m : round.moves) {
      if (m.move->make) {
        append(&candidates, m.move->make(m.n, ctx, report));
        continue;
      }
      // The local search times its own rounds: each expands the fastest so far.
      m.move->search(m.n, ctx, *report, [&](std::vector<TimedCandidate> near) { time(report, std::move(near), false, budget); });
    }
    if (budgeted && r == 0) candidates = anytime_order(std::move(candidates));
    if (!candidates.empty()) time(report, std::move(candidates), screens_spills(round), r == 0 ? first_budget : budget);
  }
}

}  // namespace femgpu
