// What every tuner shares (the paper's section 3.2.6): the candidate list (SCPWI and the
// cost model's best b tiled schedules, plus the best of each N_WI class), timing each
// candidate through a backend's callback, the median, choosing the fastest, and the
// monitor's lines. The backends' CandidateTimers (candidate_timer.h; runtime/cuda_tuner.h
// and runtime/opencl_tuner.h) supply "build and time this schedule".
//
// Takes: the IR, Q, DeviceParams (probed, or the defaults: then the ranking is the
// paper's H200 model), TuneSettings, and a callback timing one schedule.
// Returns: a TuneReport: every candidate with its evidence and the index of the best.
// A candidate whose callback throws scores infinity and tuning goes on.
// Does not: know a backend, cache results (tuning_cache.h) or know PETSc.
#pragma once

#include <cstddef>
#include <chrono>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "schedule/schedule.h"
#include "tune/cost_model.h"
#include "tune/tune_plan_value.h"

namespace femgpu {

struct TuneSettings {
  SearchLimits limits;
  std::size_t candidates = 9;  // b
  // Each selection of tiled candidates below (the b cheapest, the low-register and the
  // fit-register ones) takes at most this many of one evaluation tiling (N_c, N_WI, T^Q,
  // T_e^r, T_e^c), i.e. of candidates that differ only in the quadrature-stage tile
  // T_q^r x T_q^c. The model ranks those within a fraction of a percent of each other,
  // so without a cap all 9 of Helmholtz 3D P5's b slots went to one tiling (10.8-13.3 ms
  // on the H200) and its earlier winner, another tiling at 8.8 ms, was not timed. In the
  // 26 tuned cases of runs/ whose tiled timings were recorded, the fastest of each
  // tiling was always among its 2 cheapest by the model (1: 4 cases lost up to 12%)
  // (bench/experiments/model_per_tiling_offline.txt). 0: no cap (the paper's top b).
  std::size_t per_evaluation_tiling = 2;
  // The cost model's barrier cost (cost_model.h's t_sync) used to rank, in place of the
  // device's DeviceParams::barrier_seconds; 0 ranks by the paper's t_heur alone.
  double model_barrier_seconds = kModelBarrierSeconds;
  // The b best above are ranked by t_heur with t_sync. Also time the best this many by
  // the paper's t_heur alone (t_memory), and make the low-register and fit selections
  // below by both rankings. On the H200 t_sync moved Helmholtz 3D P5 and 2D P8 from 2.05
  // to 2.90 and 6.82 to 9.64 GDoF/s (2D P8's winner a fit pick by t_sync), while Laplace
  // 3D P5 lost its winner (the paper model's 2nd) and Laplace 2D P8 its (a low-register
  // pick by the paper's ranking): 0.91-0.95x (bench/experiments/h200_model_barriers.txt).
  // 0 turns the paper's ranking off (and with it its low-register and fit picks).
  std::size_t paper_model_candidates = 3;
  int warmups = 5;
  int min_runs = 15;
  double min_seconds = 0.2;
  int max_runs = 400;
  // Tuning (not -schedule or the studies) times a candidate in full only while it may
  // win: where cutoff > 0, a candidate's second launch (the first absorbs the module's
  // lazy load) is timed, and if it took more than cutoff times the fastest median so far
  // that one run is its time (TimedCandidate::cut) and the rest of the protocol is
  // skipped. At high order a losing candidate then costs 2 launches instead of
  // warmups + min_runs + 1: on the H200 hyperelasticity 3D P6's first round alone ran
  // past 560 s at 3 runs each, its losers taking 2-6 s a launch. 0: off (the paper's
  // protocol for every candidate).
  double cutoff = 0;
  // Where > 0 (the CUDA tuner sets it for a budgeted tuning, kBudgetCandidateSeconds), a
  // candidate whose check launch (cutoff above) took more than candidate_seconds /
  // min_runs is timed over about candidate_seconds: no further warm-ups, at least 3 runs,
  // at most min_runs. On an H100 (911f1aa) hyperelasticity 3D P6's first candidate, at
  // 608 ms a launch, took 21 launches (12.8 s) of its 10 s budget, and nothing else was
  // timed. 0: the protocol for every candidate.
  double candidate_seconds = 0;
  int compile_threads = 8;
  // SCPWI is timed once per work-group size here (sizes above limits.wg_max are left
  // out; empty: no SCPWI). One warp per group caps an SM at 32 groups, half its
  // threads; measured on the H200 the larger sizes gained at most 1.09x (P1), but the
  // best size differs from case to case (bench/experiments/h200_scpwi_sizes_*).
  std::vector<int> scpwi_work_group_sizes{32, 64, 128, 256};
  // Also time each SCPWI size with its tables in constant memory, as separate and as
  // merged copies (schedule.h's Tables::Constant and MergedConstant), where they fit:
  // up to 1.74x over global tables for scalar forms, slower where they spill more.
  bool scpwi_constant_tables = true;
  // For a vector form (C > 1 components), also time each SCPWI candidate above with one
  // lane per component (schedule.h's lanes=C), wherever wg*C <= limits.wg_max.
  bool scpwi_lanes = true;
  // Also time the model's best of each N_WI class (the paper's high-order winners use 2-6).
  std::vector<int> items_per_cell_classes{2, 3, 4, 5, 6, 8, 16, 32};
  // Also time the model's best of each of the largest this many quadrature tiles T^Q
  // (Q, ceil(Q/2), ceil(Q/3), ...): the model prefers T^Q = Q by a few percent, while
  // measured winners often tile it (Laplace 3D P5 at T^Q = Q/2: 1.39x on the H200,
  // bench/experiments/h200_paper_configs_tq_classes.txt). 0 turns this off.
  int quad_tile_classes = 6;
  // The walk of the tiled space visits at most limits.max_candidates candidates, split
  // evenly over the T^Q values (SearchLimits::max_per_quad_tile), and keeps only what
  // it selects: no T^Q is cut off by the walk's order.
  // How tiled candidates' private-array loops are compiled. Unrolled was faster than
  // leaving it to nvcc for all 14 schedules compared on the H200, 1.04-1.42x (same
  // file): nvcc kept large loops rolled and the arrays in local memory.
  Loops tiled_loops = Loops::Unrolled;
  // Also time the model's best b_low candidates among those whose register footprint
  // (register_words) is at most low_register_words, and the best of each N_WI class
  // among them: the paper's model does not see register spills. 0 turns this off.
  long long low_register_words = 48;
  std::size_t low_register_candidates = 3;
  // Also time the model's best this many candidates among those whose footprint as
  // timed (with shared DOFs where shared_dofs_above_words sends them there) fits the
  // register file, at most fit_register_words: the model's favourites at high order
  // hold 160-230 words and spill whatever the DOFs do (hyperelasticity 3D P5), while
  // the paper's winner there holds 108 and ran 2.7x faster than femgpu's earlier pick.
  // 0 turns this off.
  long long fit_register_words = 112;
  std::size_t fit_candidates = 3;
  // Unrolled tiled candidates whose register footprint with the DOF tile in registers
  // (quantities.h's register_words) is above this many words are timed with
  // Dofs::Shared instead, where that fits the shared memory: 255 registers hold 127
  // FP64 words, so such a kernel spills (ptxas: hyperelasticity 3D P5 at the paper's
  // tiles, 150 words, 528 B of spills; with shared DOFs 90 words, none). 0 turns this off.
  long long shared_dofs_above_words = 128;
  // The tuning plan's rounds of moves (tune_plan_value.h, tune_moves.h; tune_plan.h's
  // with_plan sets them and the plan's parameters above); no rounds: the backend's
  // default plan.
  TunePlan plan;
  std::function<void(const std::string &)> monitor;  // one line per timed candidate
  // Anytime tuning: stop timing new candidates once this many seconds of tuning (compiles
  // and timings) are spent, and keep the fastest so far; 0: no budget. The first
  // candidate is always timed, so a budgeted tuning always returns a schedule. With a
  // budget the first list and the tensor-core schedules are timed as one round in the
  // order of their expected gain (anytime_order; tune_plan.h's run_plan).
  // Part of the cache key: a tuning cut short is not reused where more time is given.
  // On CUDA a budget also turns the cutoff on (kBudgetCutoff) where the plan sets none.
  double budget_seconds = 0;
  // With a budget, the share of it the first round (the first list and the tensor-core
  // schedules, timed as one) may spend; the later rounds (the twins of the fastest, the
  // local search) have the rest. On the H200 the first round alone spent the 10 s in most
  // high-order cases, so the register-bound twins, 1.07-1.12x faster in four of them,
  // were never timed (tune_plan_run.cpp). 1: the first round may spend it all.
  double first_round_share = 0.8;
};

struct TimedCandidate {
  Schedule schedule = Schedule::single_cell_per_work_item();
  double model_seconds = 0;  // t_heur per cell (tiled candidates)
  double median_ms = 0, mean_ms = 0;
  int runs = 0;
  bool cut = false;   // timed once, over TuneSettings::cutoff times the fastest so far
  std::string error;  // why it could not run (then median_ms is infinity)
  int registers = 0, local_bytes = 0;  // CUDA only
  long long shared_bytes = 0;
  // The assembled operator (CUDA): its pattern, cell matrices and sums, built at its first
  // launch; tuning spends it before the timed runs (0 for action kernels).
  double setup_seconds = 0;
};

struct TuneReport {
  std::vector<TimedCandidate> candidates;
  int best = -1;
  std::size_t space_size = 0;
  bool space_truncated = false;
  double compile_seconds = 0, timing_seconds = 0;
  bool budget_spent = false;  // the budget cut tuning short (append_round sets it)
};

// The candidates tuning timed or tried: those the budget left untimed are not counted.
std::size_t candidates_timed(const TuneReport &report);

// The tuning budget's clock, started when tuning starts. Each round has its own end
// (run_plan: TuneSettings::first_round_share), so the clock holds none.
class TuneClock {
 public:
  TuneClock() : start_(std::chrono::steady_clock::now()) {}
  double elapsed() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }
  // Whether `end` (seconds since the start; 0: no budget) has passed.
  bool past(double end) const { return end > 0 && elapsed() >= end; }

 private:
  std::chrono::steady_clock::time_point start_;
};

// The cutoff of a budgeted CUDA tuning whose plan sets none (TuneSettings::cutoff).
constexpr double kBudgetCutoff = 2;
// TuneSettings::candidate_seconds of a budgeted CUDA tuning.
constexpr double kBudgetCandidateSeconds = 1.0;
// Launches a budgeted tuning spends at least on a candidate that may win: the module's
// lazy load, the check, then at least 3 runs (TuneSettings::candidate_seconds).
constexpr int kBudgetLaunches = 5;
// What timing one more candidate is expected to take, at least `floor` seconds, where the
// fastest so far runs in fastest_ms: kBudgetLaunches of it (a candidate slower than the
// cutoff stops after 2 launches of at most cutoff x that). On the H200 (36453ed) a twin
// of hyperelasticity 3D P6's 289 ms winner started 0.8 s before the budget's end and
// ended 0.7 s past it.
double expected_timing_seconds(double fastest_ms, double floor);

// The reason a candidate left untimed by the budget carries (TimedCandidate::error),
// alone or followed by ": " and what it would have taken.
extern const char *const kBudgetSpent;
bool left_by_budget(const TimedCandidate &c);

// What setting up the assembled operator (Strategy::Assembled: the pattern on the host,
// the cell-matrix kernel's compile, the first cell matrices and their sum) is expected to
// take, from its cell-matrix entries, so that a budgeted tuning starts it only where it
// ends within the budget (the setup cannot be interrupted). Fitted above each of the ten
// setups measured on the H200 host (4aacc31, four tunings sharing its cores: 0.24-5.3 s,
// 1.1-2.0 s per 1e8 entries from 1.7e7 to 4.2e8): Helmholtz 3D P3 (4.2e8 entries) took
// 5.3 s where 2 s of a 10 s budget were left, and tuned in 13.6 s.
double assembled_setup_seconds(double cell_entries);

// Why a budgeted tuning does not start the assembled operator's setup, or "" where it
// does: where nothing was timed yet (`fastest_ms` infinite), where the setup
// (assembled_setup_seconds) ends within the `seconds_left` of the budget, or where its
// SpMV's lower bound (`spmv_bound_ms`: each nonzero and x and y read
// once at the device's bandwidth) is below kAssembledOverrunShare of the fastest kernel so
// far, a gain worth running past the budget. The assembled SpMV runs near that bound at P1
// (0.90-0.95 of it on the H200's 3D P1 meshes of 3e6-9.5e6 DOFs, 1.46x cuSPARSE where the
// matrix-free kernel reached 0.47x) and far from it at higher order (Helmholtz 3D P3: the
// bound was about 0.55 of the fastest kernel, the SpMV took 1.37x that kernel's time).
constexpr double kAssembledOverrunShare = 0.5;
std::string assembled_budget_reason(double cell_entries, double spmv_bound_ms, double fastest_ms, double seconds_left);

// The first list (with the tensor-core schedules) in the order of its expected gain, for
// a budgeted tuning: round robin over the kinds, each in its given order: the first
// tensor-core shape, the best tiled candidate by the cost model, the first SCPWI size,
// then the second of each, and so on (the model does not rank SCPWI or tensor cores
// against tiled kernels: SCPWI wins at low order, tensor cores at high order, and a fast
// first candidate lets the cutoff cut the slow ones); the report says which ran.
std::vector<TimedCandidate> anytime_order(std::vector<TimedCandidate> first);

// The settings that choose which candidates are timed, as one line of text: the tuning
// parameters that enter the key (tune_params.h's table: "candidates=9 eta_alias_min=0.8
// ... loops=unrolled") and the plan's rounds (" plan=first; ..."; tune_plan.cpp). Part of
// the tuning cache's key. The timing protocol (warm-ups, runs, cutoff) and the monitor
// are left out: they do not change the list.
std::string tuning_settings_text(const TuneSettings &s);

// The schedules to time: SCPWI at each work-group size, then the cost model's best b
// tiled candidates, the best of each N_WI class and T^Q class, and the low-register,
// and register-fitting ones. *space_size is the number of tiled candidates the walk visited, *truncated
// whether it left some out (see quad_tile_classes).
std::vector<TimedCandidate> tuning_candidates(const ActionIR &ir, int Q, const DeviceParams &device, const TuneSettings &s,
                                              std::size_t *space_size, bool *truncated);

// Shapes of the tensor-core candidates, in the order they are taken (N_c, warps, T^Q;
// T^Q is capped at Q rounded up to 8, and repeats are dropped).
extern const std::vector<MmaSizes> kMmaShapes;
// The same for kernels of an identity test table (Tabulation::test_identity: no
// quadrature product, no s_f or r_y), which take other shapes.
extern const std::vector<MmaSizes> kIdentityMmaShapes;
// The first n tensor-core schedules of kMmaShapes (of kIdentityMmaShapes where
// test_identity) (FP64) whose shared memory is at most shared_limit bytes.
std::vector<TimedCandidate> tensor_core_candidates(const ActionIR &ir, int Q, std::size_t n, long long shared_limit,
                                                   bool test_identity = false);

// The assembled schedule, alone, where the form and precision allow it (validate():
// FP64, a bilinear form without coefficients), else none.
std::vector<TimedCandidate> assembled_candidates(const ActionIR &ir, int Q, Precision precision);

// The tile neighbours of the fastest tiled candidate in `timed` (SCPWI may be faster), if
// it is not yet in *expanded (it is added, and written to *parent_text when given): each tile parameter of Algorithm 4 moved one step along its
// Constraint-1 ladder (tile_sizes) with the others kept: N_c to the next admissible value
// up and down at the same N_WI, N_WI one up and down at the N_c whose thread count is
// nearest, T^Q (T_e^r and T_q^c snapped onto its ladder), T_e^r, each T_e^c, T_q^r and T_q^c.
// Each keeps the parent's DOFs, loops, tables, scatter and register bound; only
// neighbours within the space's hard limits (eta_simd_min, WG_max, the device's shared
// memory; not eta_alias_min, which most one-tile moves break) that validate and are not
// in `timed` are returned, with their t_heur.
std::vector<TimedCandidate> tile_neighbours(const ActionIR &ir, int Q, const DeviceParams &device, const TuneSettings &s,
                                            const std::vector<TimedCandidate> &timed, std::set<std::string> *expanded,
                                            std::string *parent_text = nullptr);

// `rounds` rounds of tile_neighbours on report's candidates (the plan's local_search n=),
// each handed to time_round, which times them and appends them to the report; stops at the
// first round with no neighbours (its parent refined already). The monitor gets a line
// before each round: "local search round 1: 12 tile neighbours of <parent schedule>".
void local_search(const ActionIR &ir, int Q, const DeviceParams &device, const TuneSettings &s, std::size_t rounds, const TuneReport &report,
                  const std::function<void(std::vector<TimedCandidate>)> &time_round);

// Appends a second round's candidates (timed in their own report) to `report`; best
// becomes the fastest of both rounds.
void append_round(TuneReport *report, TuneReport &&round);

// Wall-clock timing of `run` (which must wait for its work): `warmups` untimed runs,
// then at least min_runs runs or min_seconds, at most max_runs; median and mean in ms.
TimedCandidate time_wall_clock(const std::function<void()> &run, const TuneSettings &s);

// One monitor line: the schedule and its time, or why it failed.
std::string describe(const TimedCandidate &c);

// Times report->candidates[i] with time(i) in order; keeps the schedule and model
// estimate of each, records errors (an exception for which fatal() is true is rethrown),
// sets report->best and timing_seconds, and calls the monitor once per candidate. Once
// stop() returns true the remaining candidates are not timed (error `stop_reason`).
void time_candidates(TuneReport *report, const std::function<TimedCandidate(std::size_t)> &time, const TuneSettings &s,
                     const std::function<bool(const std::exception &)> &fatal = nullptr, const std::function<bool()> &stop = nullptr,
                     const char *stop_reason = "not timed: stopped");

}  // namespace femgpu
