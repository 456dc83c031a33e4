// Tuning as a plan (STYLE.md habit 13): the rounds of tuning as data, one loop that runs
// any plan, and each backend supplying only "compile and time this round".
//
// A plan is a list of rounds separated by ';'. A round is one or more moves joined by
// '+', each a name and optionally n=<count> (how many of the fastest so far it expands;
// for local_search, how many rounds). The moves, what each makes, its count in the
// default plans and its twin rule are the table of tune_moves.h.
// A segment "param name=value ..." in place of a round sets tuning parameters
// (tune_params.h: search bounds, the first list's counts, the cost model, the cutoff);
// a text of parameters alone ("param wg_max=128") keeps the backend's default rounds.
// A segment "print" asks for the plan to be printed when tuning ("param wg_max=128; print").
//
// Takes: a plan text, or the move table (tune_moves.h) for the default plans.
// Returns: the plan, its text, or the candidates of each round handed to a timer.
// Does not: compile or time (the backend's CandidateTimer does: candidate_timer.h), know PETSc.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "tune/occupancy.h"
#include "tune/tune_plan_value.h"
#include "tune/tuner.h"

namespace femgpu {

struct MoveTable;  // tune_moves.h

// The CUDA tuner's plan where none is given: the move table's default CUDA rounds, each
// move at its table count (tune_moves.h); moves with a count of 0 are left out.
TunePlan default_cuda_plan();
TunePlan default_cuda_plan(const MoveTable &table);
// OpenCL: the first list and the local search (it reports no spills, so no twins).
TunePlan default_opencl_plan();
TunePlan default_opencl_plan(const MoveTable &table);

// "param wg_max=128; first; tensor_core n=6; shared_dofs n=2 + warp_scatter n=2; ..."
// (parse_tune_plan reads it back; the parameters first, where there are any).
std::string to_string(const TunePlan &plan);
// Throws std::invalid_argument naming the word it cannot read, or a TuneParamError
// (tune_params.h) naming a parameter and its range.
TunePlan parse_tune_plan(const std::string &text);
// The same with the moves of `table` (tune_moves.h's, or a copy with another move).
TunePlan parse_tune_plan(const std::string &text, const MoveTable &table);
// `s` with the parameters of `plan` set (checked when it was parsed) and s.plan its
// rounds alone (none where it has none: the backend's default rounds).
TuneSettings with_plan(TuneSettings s, const TunePlan &plan);

// Whether a round's twins must be screened for spills (it holds a register bound).
bool screens_spills(const PlanRound &round);

// What the moves need besides the timed candidates.
struct PlanContext {
  const ActionIR *ir = nullptr;
  int Q = 0;
  DeviceParams device;        // as ranked (the local search's t_heur)
  SmLimits sm;                // the bound twins' occupancy
  long long shared_limit = 0; // the tensor-core schedules' shared memory
  bool test_identity = false;  // Tabulation::test_identity: other tensor-core shapes, no quad=steps twins
  Precision precision = Precision::FP64;
  const TuneSettings *settings = nullptr;
};

// Times `round` (its candidates), appending them to `report` (append_round); `screen`:
// whether bound twins that spill more than their originals must be skipped; `budget`:
// the seconds since tuning started by which this round's timing must end (0: no budget).
using RoundTimer = std::function<void(TuneReport *report, std::vector<TimedCandidate> round, bool screen, double budget)>;

// Runs `plan` into *report: each round's candidates are made from the report so far and
// handed to `time`; an empty round is skipped. The space size of the first list is
// recorded in the report. With a budget, the first round (the first list and the
// tensor-core schedules, timed as one) is given TuneSettings::first_round_share of it and
// every later round the whole budget: the rest is kept for the twins of the fastest.
void run_plan(const TunePlan &plan, const PlanContext &ctx, TuneReport *report, const RoundTimer &time);

// The plan of `s`: s.plan (rounds, no parameters: with_plan) where it has rounds, else `fallback`.
TunePlan settings_plan(const TuneSettings &s, const TunePlan &fallback);

}  // namespace femgpu
