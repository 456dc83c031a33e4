// The twins of the fastest candidates so far: each twin is a timed schedule with one
// choice changed (by a TwinRule: shared DOFs, warp scatter, interleaved tables, the
// tensor-core quadrature's order ...; or computed here: a register bound, per-cell
// values in shared memory with a bound, half the cells), made by the tuning plan's moves
// (tune_moves.h).
//
// Takes: the candidates timed so far (and the IR, the SM's limits where a twin needs them).
// Returns: the twins to time, fastest original first; none that was timed already.
// Does not: time or compile anything.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ir/action_ir.h"
#include "tune/occupancy.h"
#include "tune/tune_plan.h"
#include "tune/tuner.h"

namespace femgpu {

// A twin of one choice: the schedule with some words set to other values, the first the
// choice it is about ("scatter=staged own=atomic"). It is made only where the twin's
// values apply (schedule_words.h's scopes, which validate() enforces): the tuner makes it
// of timed candidates (rule_twins), the GPU check of its sampled schedules (twin_of).
struct TwinRule {
  enum class Pick {
    Fastest,       // the twins of the n fastest candidates that ran and that it takes
    AmongFastest,  // the twins of those of the n fastest that ran (of any kind) that it takes
  };
  const char *words;                  // as schedule text: "dofs=shared"
  Pick pick = Pick::Fastest;
  std::vector<std::string> from = {};  // the first word's values it twins (empty: any other)
  std::vector<Strategy> kinds = {};    // the strategies it twins (empty: wherever its values apply)
  // Which of those that ran the tuner twins besides (their spills); nullptr: all.
  std::function<bool(const TimedCandidate &)> worth = nullptr;
  // Whether the form gives the twin anything to change (nullptr: every form); the
  // tuner's, not the GPU check's: the twin is a valid schedule all the same.
  std::function<bool(const PlanContext &)> form = nullptr;
  // The GPU check also twins the twins of the moves before it in the table (tune_moves.h's
  // with_rule_twins): where its choice's code meets theirs (the shared memory's layout,
  // the scatter). The others twin the sample alone: each would double it.
  bool checked_with_twins = false;
};

// The twin of `s` by `rule`, or none where the rule does not take s (another strategy,
// a value not in `from`, a twin whose values do not apply).
std::optional<Schedule> twin_of(const TwinRule &rule, const Schedule &s);
// The twins by `rule` of the candidates in `timed` (its Pick of the n fastest that ran),
// fastest original first; none where the form gives it nothing to change; twins already
// in `timed`, or (AmongFastest) made twice, are skipped.
std::vector<TimedCandidate> rule_twins(const TwinRule &rule, const PlanContext &ctx, const std::vector<TimedCandidate> &timed, std::size_t n);

// The register-bound twins (groups_per_sm = register_bound_groups) of the n fastest
// candidates that ran unbounded with their registers known (CUDA) and registers alone
// limiting their groups per SM, fastest first; twins already in `timed` are skipped.
std::vector<TimedCandidate> register_bound_twins(const std::vector<TimedCandidate> &timed, std::size_t n, const SmLimits &sm);
// The cells=shared twins of the n fastest tiled candidates that ran unbounded with their
// per-cell values in registers and registers alone limiting their groups per SM, bounded
// (groups_per_sm) for the groups one more step holds with the twin's shared memory;
// fastest first, none for a form without per-cell values; twins already timed skipped.
std::vector<TimedCandidate> cell_value_bound_twins(const ActionIR &ir, const std::vector<TimedCandidate> &timed, std::size_t n,
                                                   const SmLimits &sm);
// register_bound_twins (register_n of them) and then cell_value_bound_twins (cell_value_n).
std::vector<TimedCandidate> bound_twins(const ActionIR &ir, const std::vector<TimedCandidate> &timed, std::size_t register_n,
                                        std::size_t cell_value_n, const SmLimits &sm);
// The register-bound and cells=shared register-bound twins of the fastest candidate of
// `report`, one each, less those already timed: the CUDA tuner's last round, for a
// winner the local search found after the third round had twinned others.
// Elasticity 3D P4's winner came from the local search (nc=32 nwi=8, shared DOFs); its
// cells=shared bound ran 1.25x faster (bench/experiments/h200_cell_values.txt).
std::vector<TimedCandidate> bound_twins_of_best(const ActionIR &ir, const TuneReport &report, const SmLimits &sm);
// The cells per group of a half group: as many as fill half the group's warps (rounded
// up), so that no warp of the twin is left nearly empty (N_c 25 x N_WI 10, 8 warps:
// 12 cells in 4 warps, where 13 would take a fifth for 10 threads and ran 1.17x slower on
// the H200); at least 1 and fewer than N_c.
int half_group_cells(const TileSizes &t);
// The twins with half_group_cells of the n fastest tiled candidates that ran with N_c >= 2
// and no register bound, fastest first; twins already in `timed` are skipped.
std::vector<TimedCandidate> half_group_twins(const std::vector<TimedCandidate> &timed, std::size_t n);
// The candidate of `timed` that is `twin` without its register bound, or nullptr.
const TimedCandidate *unbounded_original(const std::vector<TimedCandidate> &timed, const Schedule &twin);

// Whether some evaluation group or the test function has an even number of derivative
// tables, which Tables::Interleaved reads in pairs.
bool pairs_table_loads(const ActionIR &ir);

}  // namespace femgpu
