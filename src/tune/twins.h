// The twins of the fastest candidates so far: each twin is a timed schedule with one
// choice changed (shared DOFs, warp scatter, interleaved tables, the tensor-core
// quadrature's order, a register bound, per-cell values in shared memory, half the
// cells), made by the tuning plan's moves (tune_plan.h).
//
// Takes: the candidates timed so far (and the IR, the SM's limits where a twin needs them).
// Returns: the twins to time, fastest original first; none that was timed already.
// Does not: time or compile anything.
#pragma once

#include <cstddef>
#include <vector>

#include "ir/action_ir.h"
#include "runtime/occupancy.h"
#include "tune/tuner.h"

namespace femgpu {

// The Dofs::Shared twins of the n fastest candidates that ran and spill (local_bytes
// > 0), fastest first; those already in shared memory, and twins already in `timed`,
// are skipped.
std::vector<TimedCandidate> shared_dofs_twins(const std::vector<TimedCandidate> &timed, std::size_t n);

// The MmaQuadOrder::Steps twins of the tensor-core candidates with MmaQuadOrder::Rows
// among the n fastest candidates that ran (of any strategy), fastest first; twins
// already in `timed` are skipped.
std::vector<TimedCandidate> quad_steps_twins(const std::vector<TimedCandidate> &timed, std::size_t n);

// The Scatter::Warp twins of the n fastest candidates that ran with Scatter::Atomic,
// fastest first; twins already in `timed` are skipped.
std::vector<TimedCandidate> warp_scatter_twins(const std::vector<TimedCandidate> &timed, std::size_t n);

// The OwnDofs::Plain twins of the SCPWI candidates of one work-item a cell with
// OwnDofs::Atomic among the n fastest that ran (of any strategy), fastest first; none
// where the test element has no own DOFs (lagrange_interior_dimension 0); twins already
// in `timed` are skipped.
std::vector<TimedCandidate> own_dofs_twins(const ActionIR &ir, const std::vector<TimedCandidate> &timed, std::size_t n);

// The Scatter::Staged twins (own=atomic) of the SCPWI candidates of one work-item a cell
// with their DOFs in registers and another scatter, among the n fastest that ran (of any
// strategy), fastest first; twins already in `timed`, or made twice, are skipped.
std::vector<TimedCandidate> staged_scatter_twins(const std::vector<TimedCandidate> &timed, std::size_t n);

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
// register_bound_twins (register_n of them) and then cell_value_bound_twins (cell_value_n):
// the bounded twins of the CUDA tuner's third round.
std::vector<TimedCandidate> bound_twins(const ActionIR &ir, const std::vector<TimedCandidate> &timed, std::size_t register_n,
                                        std::size_t cell_value_n, const SmLimits &sm);
// The register-bound and cells=shared register-bound twins of the fastest candidate of
// `report` (per the two settings), less those already timed: the CUDA tuner's last
// round, for a winner the local search found after the third round had twinned others.
// Elasticity 3D P4's winner came from the local search (nc=32 nwi=8, shared DOFs); its
// cells=shared bound ran 1.25x faster (bench/experiments/h200_cell_values.txt).
std::vector<TimedCandidate> bound_twins_of_best(const ActionIR &ir, const TuneReport &report, const SmLimits &sm, const TuneSettings &s);
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
// The Tables::Interleaved twins of the n fastest tiled candidates that ran with their
// tables one after another, fastest first (none where !pairs_table_loads(ir)); twins
// already in `timed` are skipped.
std::vector<TimedCandidate> interleaved_twins(const ActionIR &ir, const std::vector<TimedCandidate> &timed, std::size_t n);

}  // namespace femgpu
