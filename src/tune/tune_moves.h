// The moves of a tuning plan, each declared once (STYLE.md habits 13 and 14) in the
// table of tune_move_table.cpp: its name, whether it takes a count and the count the
// default plans give it, its twin rule (the schedule words it sets, made only where
// their values apply: schedule_words.h's scopes, which validate() enforces), what makes
// its candidates, and its help. The plan's reader and printer (tune_plan.cpp), the
// default plans, the loop that runs a plan (tune_plan_run.cpp), -mat_fem_gpu_tune_plan's
// -help, the GPU check's sample of twins (tests/gpu/gpu_check.cpp) and the moves table
// of docs/petsc.md are made from it.
//
// Takes: a move's name. Returns: its entry, the default plans' rounds, the help and the
// docs table.
// Does not: time anything (a round's timer does), know PETSc.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tune/tune_plan.h"
#include "tune/twins.h"

namespace femgpu {

struct TuneMove {
  const char *name;
  bool counted;           // takes n= (else it makes its whole list)
  std::size_t default_n;  // its count where the default plans give none (counted moves)
  // Makes its candidates without timings (the first list, the tensor cores): with a
  // budget run_plan times such a second round with the first.
  bool timing_free = false;
  // Makes register-bound twins: a round holding it compiles but does not time a twin
  // that spills more than its original.
  bool screens_spills = false;
  // A twin of one choice (twins.h): the GPU check samples it too.
  std::optional<TwinRule> twin = std::nullopt;
  // The candidates of the move with count n, made from the report so far.
  std::function<std::vector<TimedCandidate>(std::size_t n, const PlanContext &, TuneReport *)> make = nullptr;
  // Or, for a move that times its own rounds (the local search): runs n of them, each
  // handed to `time_round`.
  std::function<void(std::size_t n, const PlanContext &, const TuneReport &, const std::function<void(std::vector<TimedCandidate>)> &time_round)>
      search = nullptr;
  const char *help = "";  // what it times, and why (docs/petsc.md's table)
};

// A move of a default plan: its name and count (none: the table's default_n).
struct DefaultMove {
  const char *name;
  std::optional<std::size_t> n = std::nullopt;
};
using DefaultRound = std::vector<DefaultMove>;

struct MoveTable {
  std::vector<TuneMove> moves;  // in the order of -help and the docs table
  std::vector<DefaultRound> cuda_rounds, opencl_rounds;  // the default plans
};

const MoveTable &tune_moves();
// The entry named `name`, or nullptr.
const TuneMove *find_tune_move(const std::string &name, const MoveTable &table = tune_moves());
// The candidates that the move `name` makes with count n from `timed`, as a plan round
// makes them (ctx: the form and the device where the move needs them).
std::vector<TimedCandidate> move_candidates(const std::string &name, std::size_t n, const PlanContext &ctx, const std::vector<TimedCandidate> &timed);

// `sample` with the twins of its schedules by the twin rule of each move of `table` that
// has one and is not in `skip`, in the table's order (twin_of: only where the twin's
// values apply, with no tuning heuristic about the form), each move twinning every
// schedule of `sample` it takes, and where its rule says so (checked_with_twins) the
// twins the moves before it made; none twice. The GPU check's sample of twins.
std::vector<Schedule> with_rule_twins(std::vector<Schedule> sample, const std::set<std::string> &skip, const MoveTable &table = tune_moves());

// "first tensor_core n=6 assembled ...": the moves with their default counts, for -help.
std::string tune_moves_help(const MoveTable &table = tune_moves());
// -mat_fem_gpu_tune_plan's -help: the plan's syntax, the moves and the parameters.
std::string tune_plan_help();
// The Markdown table of moves, as docs/petsc.md holds it.
std::string tune_moves_docs_table(const MoveTable &table = tune_moves());

}  // namespace femgpu
