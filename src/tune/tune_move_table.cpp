// The table of tuning moves (tune_moves.h): each move's name, count, default, twin rule,
// builder and help, and the default plans' rounds. Adding a move is an entry here, its
// builder where it is not a twin of one choice (twins.cpp, tuning_candidates.cpp) and
// its tests (docs/layout.md, "Adding a tuning move").
#include <utility>

#include "form/form.h"
#include "tune/tune_moves.h"

namespace femgpu {

namespace {

using Make = std::function<std::vector<TimedCandidate>(std::size_t, const PlanContext &, TuneReport *)>;
using Pick = TwinRule::Pick;

// A move whose candidates `make` makes.
TuneMove made_move(const char *name, bool counted, std::size_t n, Make make, const char *help)
{
  TuneMove m{name, counted, n};
  m.make = std::move(make);
  m.help = help;
  return m;
}

// A move of twins of one choice: the twins its rule makes.
TuneMove twin_move(const char *name, std::size_t n, TwinRule rule, const char *help)
{
  TuneMove m{name, true, n};
  m.twin = rule;
  m.make = [rule](std::size_t count, const PlanContext &ctx, TuneReport *report) { return rule_twins(rule, ctx, report->candidates, count); };
  m.help = help;
  return m;
}

// A move of register-bound twins: its round screens them for spills.
TuneMove bound_move(const char *name, bool counted, std::size_t n, Make make, const char *help)
{
  TuneMove m = made_move(name, counted, n, std::move(make), help);
  m.screens_spills = true;
  return m;
}

// The moves that make their lists without timings (the first list, the tensor cores),
// and the assembled operator.
std::vector<TuneMove> list_moves()
{
  std::vector<TuneMove> m;
  m.push_back(made_move(
      "first", false, 0,
      [](std::size_t, const PlanContext &ctx, TuneReport *report) {
        std::vector<TimedCandidate> first =
            tuning_candidates(*ctx.ir, ctx.Q, ctx.device, *ctx.settings, &report->space_size, &report->space_truncated);
        for (TimedCandidate &c : first) c.schedule = c.schedule.with_precision(ctx.precision);
        return first;
      },
      "the first list, which every plan starts with alone in its round and every other move expands: SCPWI at each size of `scpwi_work_groups=` "
      "(with constant-memory tables, and for vector forms one lane per component), the cost model's best `candidates=` tiled candidates, the best"
      " of each N_WI and T^Q class and the low-register and register-fitting ones (the parameters below)"));
  m.push_back(made_move(
      "tensor_core", true, 6,
      [](std::size_t n, const PlanContext &ctx, TuneReport *) {
        if (ctx.precision != Precision::FP64) return std::vector<TimedCandidate>{};
        return tensor_core_candidates(*ctx.ir, ctx.Q, n, ctx.shared_limit, ctx.test_identity);
      },
      "CUDA tuning in FP64 also times, right after its first round, n tensor-core schedules (`mma nc=N_c warps=W tq=T^Q`: the evaluation and "
      "quadrature contractions of N_c cells as FP64 `mma.sync m8n8k4` matrix products, the pointwise program at each (cell, point) in between; "
      "`src/kernel/build_mma.cpp`): the first shapes of the tuner's list (`kMmaShapes` in `src/tune/tuner.h`; `kIdentityMmaShapes` where the test"
      " side is the identity, two of them with their operands in registers, `operands=registers`, and no `quad_steps` twin) whose shared memory "
      "fits the device; 0 turns it off. Not in the paper: its two strategies issue one FP64 multiply-add per product"));
  for (TuneMove &list : m) list.timing_free = true;
  m.push_back(made_move(
      "assembled", false, 0, [](std::size_t, const PlanContext &ctx, TuneReport *) { return assembled_candidates(*ctx.ir, ctx.Q, ctx.precision); },
      "CUDA tuning in FP64, for bilinear forms without coefficients (their matrix is fixed by the mesh and the constants), also times the "
      "assembled operator (`assembled fp64`, `Strategy::Assembled`): the cell matrices summed once on the device into a sliced ELLPACK matrix "
      "(`src/fem/sliced_pattern.h`, `src/runtime/cuda_assembled.h`), each action an SpMV (`src/kernel/sliced_spmv.h`). It is timed only where its"
      " SpMV, reading each nonzero (12 bytes) and x and y once at the device's bandwidth, would be faster than the fastest kernel so far "
      "(nonzeros estimated from 2048 sampled rows before anything is assembled; the monitor says why it was not timed) and its cell matrices hold"
      " at most 1e9 entries; with a budget, its setup (which cannot be interrupted), estimated at 0.3 s + 1.5 s per 1e8 cell-matrix entries "
      "(above each of ten setups measured on the H200 host), starts only where it ends within the budget, or where the SpMV's lower bound is "
      "below half the fastest kernel so far, a gain worth running past the budget (3D P1 on large meshes: the assembled SpMV runs at 0.9-0.95 of "
      "that bound); otherwise the monitor says \"not timed: tuning budget spent: assembling its ... entries is expected to take ... s\". At P1 "
      "the matrix-free kernels wait on gathers and the L2's atomic adds. Its first apply assembles (the pattern on the host, cell matrices and "
      "sums on the device), and new constants reassemble its values; MatView shows its nonzeros and setup time. `-mat_fem_gpu_strategy assembled`"
      " forces it. Leave it out of a plan to turn it off"));
  return m;
}

// The twins of one choice (twins.h's TwinRule), each made only where its values apply:
// where the tables, the DOFs and the tensor-core quadrature live.
std::vector<TuneMove> placement_moves()
{
  TwinRule quad_steps{"quad=steps", Pick::AmongFastest};
  // With an identity test table there is no quadrature product: the twin is the same kernel.
  quad_steps.form = [](const PlanContext &ctx) { return !ctx.test_identity; };
  TwinRule shared_dofs{"dofs=shared"};
  // A kernel that neither spills nor unrolls its loops was never faster with shared DOFs
  // (its inner loop read shared memory twice per FMA).
  shared_dofs.worth = [](const TimedCandidate &c) { return c.local_bytes > 0 || c.schedule.loops() == Loops::Unrolled; };
  TwinRule interleaved{"tables=interleaved"};
  interleaved.form = [](const PlanContext &ctx) { return pairs_table_loads(*ctx.ir); };
  interleaved.checked_with_twins = true;  // shared DOF tiles beside the interleaved prefetch buffer
  std::vector<TuneMove> m;
  m.push_back(twin_move("quad_steps", 1, quad_steps,
      "CUDA tuning also times the `quad=steps` twin of each tensor-core candidate among the n fastest so far (none where no tensor-core kernel "
      "leads, nor where the test side is the identity: no quadrature product, so the twin is the same kernel): its quadrature loads each `s_f` "
      "fragment once per step of 4 points for all of a warp's row tiles instead of once per row tile (`MmaQuadOrder` in "
      "`src/schedule/schedule.h`). On the H200 it ran the winners of mass 2D P8 and 3D P6 (8 cells, 32 points a tile) 1.08-1.09x faster and "
      "Helmholtz 3D P4's 0.88x (`records/experiments/h200_mma_operand_reuse.txt`); in the 36453ed collection the twin won 7 of the 34 "
      "rows whose winner is a tensor-core kernel, mass 2D P8 1.14x faster than before with the carveout, mass 3D P5-P6 1.04-1.06x "
      "(`records/h200_70_cases_36453ed/`); 0 turns it off"));
  m.push_back(twin_move("shared_dofs", 2, shared_dofs,
      "CUDA tuning also times the shared-DOF variant (below) of the n fastest candidates that are unrolled tiled kernels or spill registers; 0 "
      "turns it off. With loops left to the compiler it won 3 of 25 spilling twins on the H200, up to 1.18x "
      "(`records/experiments/h200_shared_dofs_76b67e6.txt`); unrolled, the shared evaluation reads each DOF once per column, and its "
      "twin won 7 of 15 forced pairs, by up to 1.36x, and lost by up to 1.63x where the larger shared arrays cut occupancy "
      "(`h200_shared_dofs_unrolled.txt`)"));
  m.push_back(twin_move("interleaved", 2, interleaved,
      "CUDA tuning also times the interleaved-table variant (`tables=interleaved`) of the n fastest first-round tiled candidates, for forms where"
      " some evaluation group or the test function has an even number of derivative tables (2D gradients, 2D vector forms); 0 turns it off. On "
      "the H200 it ran elasticity 2D P6 and P7 1.02-1.03x faster and others slower (`records/experiments/h200_interleaved_tables.txt`)"));
  return m;
}

// The twins of one choice of how the outputs are added.
std::vector<TuneMove> scatter_moves()
{
  TwinRule warp_scatter{"scatter=warp", Pick::Fastest, {"atomic"}};
  TwinRule own_dofs{"own=plain", Pick::AmongFastest, {}, {Strategy::SingleCellPerWorkItem}};
  own_dofs.form = [](const PlanContext &ctx) { return lagrange_interior_dimension(ctx.ir->dim, ctx.ir->signature.element.degree) > 0; };
  own_dofs.checked_with_twins = true;  // the plain adds beside shared DOFs and the warp scatter
  // An own=plain original and its atomic sibling make the same twin, timed once.
  TwinRule staged_scatter{"scatter=staged own=atomic", Pick::AmongFastest};
  std::vector<TuneMove> m;
  m.push_back(twin_move("warp_scatter", 2, warp_scatter,
      "CUDA tuning also times the warp-scatter variant (`scatter=warp`) of the n fastest first-round candidates; 0 turns it off. On the H200 it "
      "won for the P1 vector forms (elasticity 3D P1 1.31x, hyperelasticity 3D P1 1.11x, elasticity 2D P1 1.05x, elasticity 2D P2 1.13x) and lost"
      " for every scalar form (0.69-0.94x) (`records/experiments/h200_warp_scatter_p1.txt`)"));
  m.push_back(twin_move("own_dofs", 2, own_dofs,
      "CUDA tuning also times the `own=plain` twin of each SCPWI candidate (one work-item a cell) among the n fastest so far, where the element "
      "has DOFs of a cell's own (its interior nodes: P3 and up on triangles, P4 and up on tetrahedra): the kernel adds to those without atomics "
      "(no other cell holds them), leaving the L2's atomic units to the shared DOFs, but a plain add waits for the DOF's value where the atomic "
      "one does not (`OwnDofs` in `src/schedule/schedule.h`). In the third round, after the warp twins, so that a warp twin may be twinned, and "
      "with n=1 in the early round beside the first register bound, which a 10 s budget reaches where it does not reach the third (2D P4-P5). "
      "Forced side by side on the H200 and an H100, the twin ran the SCPWI winners of mass, Laplace, Helmholtz and elasticity at 2D P3-P5 "
      "1.04-1.12x faster, and Laplace 2D P6, Helmholtz 2D P3 and hyperelasticity 2D P4 0.75-0.95x; tuned with the 10 s budget on the H200, it won"
      " Laplace 2D P4 1.10x, P5 1.15x, elasticity 2D P3-P4 1.04-1.08x, mass 2D P3 1.06x, Helmholtz 2D P4 1.03x, Laplace 2D P3 and mass 3D P4 "
      "1.02x, and five other rows tuned within 0.999-1.003x of before (`records/experiments/h200_owned_dofs.txt`); 0 turns it off"));
  m.push_back(twin_move("staged_scatter", 2, staged_scatter,
      "CUDA tuning also times, in the early round beside the first register bound, the `scatter=staged` twin (`own=atomic`) of each SCPWI "
      "candidate of one work-item a cell with its DOFs in registers among the n fastest so far: each work-item writes its cell's outputs to a row"
      " of shared memory, and after one barrier the group adds the rows entry by entry, consecutive work-items on consecutive entries of one "
      "cell, so that the adds of a warp fall in few 32-byte sectors where cell by cell they fall in up to 32 (`Scatter::Staged` in "
      "`src/schedule/schedule.h`). Forced beside the table's winners on the H200 it ran elasticity 2D P1-P4 1.25-1.59x, 3D P2 1.75x, P3 1.22x, "
      "hyperelasticity 2D P1-P2 and 3D P1 1.24-1.33x, Laplace and Helmholtz 2D P3-P4 1.04-1.12x faster, and the scalar P2 kernels 0.93x "
      "(`records/experiments/h200_staged_scatter.txt`); 0 turns it off"));
  return m;
}

// The twins computed from a candidate's tiles and measured registers.
std::vector<TuneMove> measured_moves()
{
  std::vector<TuneMove> m;
  m.push_back(made_move(
      "half_group", true, 2, [](std::size_t n, const PlanContext &, TuneReport *report) { return half_group_twins(report->candidates, n); },
      "CUDA tuning also times the twin with half the cells per group (as many cells as fill half the group's warps, rounded up; the other tiles "
      "kept) of the n fastest tiled candidates of both rounds. The cost model prefers large groups (N_c cells share one table prefetch), but a "
      "group of 240-255 registers and 107-143 KB of shared memory is alone on its SM and waits on its DOF gathers and table prefetches behind "
      "barriers; two groups of half the size in the same registers and shared memory overlap those waits. On the H200 the tuned half twin won "
      "elasticity 2D P6 (1.16x), P7 (1.20x), 3D P3 (1.16x), P5 (1.20x), hyperelasticity 2D P7 and 3D P4, Laplace and Helmholtz 3D P6; with forced"
      " schedules it was slower (0.85-0.95x) where the group was not alone or the half group took more registers "
      "(`records/experiments/h200_half_groups.txt`); 0 turns it off"));
  m.push_back(bound_move(
      "register_bound", true, 2,
      [](std::size_t n, const PlanContext &ctx, TuneReport *report) { return register_bound_twins(report->candidates, n, ctx.sm); },
      "CUDA tuning also times the register-bound variant (`groups_per_sm=`) of the n fastest candidates of both rounds whose registers, and not "
      "shared memory or threads, hold their groups per SM lowest, asking for at least one group more (the occupancy arithmetic, with the register"
      " file split among 4 sub-partitions as ptxas bounds it, is `src/tune/occupancy.h`). Each variant is compiled and loaded first; one that "
      "uses more local memory (spills) than its original is not timed (the monitor says so). On the H200 every bound that spilled ran 1.06-8.9x "
      "slower (26 kernels), and the 5 that ptxas met without spilling ran 1.18-1.29x faster; tuned, the bounded twin won Laplace 2D P8 (134 -> "
      "128 registers, 1 -> 2 groups, 1.29x) (`records/experiments/h200_register_bounds.txt`); 0 turns it off"));
  m.push_back(bound_move(
      "cell_value_bound", true, 2,
      [](std::size_t n, const PlanContext &ctx, TuneReport *report) { return cell_value_bound_twins(*ctx.ir, report->candidates, n, ctx.sm); },
      "CUDA tuning also times, for the n fastest tiled candidates of both rounds whose registers alone hold their groups per SM lowest, the "
      "variant with `cells=shared` bounded for one group more (its own shared memory counted); one that spills more than its original is not "
      "timed. On the H200 it won elasticity 3D P4: bounded alone, 104 B of spills (not timed); with the per-cell values in shared memory, 80 "
      "registers and no spill, 3 groups of 8 warps instead of 2, 1.25x (`records/experiments/h200_cell_values.txt`); 0 turns it off"));
  return m;
}

// The local search, which times its own rounds, and the bound twins of its winner.
std::vector<TuneMove> search_moves()
{
  std::vector<TuneMove> m;
  TuneMove search{"local_search", true, 2};
  search.search = [](std::size_t n, const PlanContext &ctx, const TuneReport &report,
                      const std::function<void(std::vector<TimedCandidate>)> &time_round) {
    local_search(*ctx.ir, ctx.Q, ctx.device, *ctx.settings, n, report, time_round);
  };
  search.help =
      "After its twin rounds (OpenCL: after its one round), tuning refines the fastest tiled candidate (SCPWI may be faster) for up to n rounds: "
      "each round times its tile neighbours, every tile parameter of Algorithm 4 moved one step along its Constraint-1 ladder with the others "
      "kept (N_c to the next admissible value at the same N_WI, N_WI one up or down at the N_c with the nearest thread count, T^Q, T_e^r, each "
      "T_e^c, T_q^r, T_q^c), within whole warps, WG_max and the device's shared memory but not eta_alias_min, which most one-tile moves break; "
      "each neighbour keeps the parent's DOFs, tables, scatter and register bound; the next round refines the fastest tiled candidate again and "
      "stops when it was refined already. Run before the twins, it made them expand near-copies of the first round's fastest and lost Laplace 2D "
      "P8's register-bound winner (0.89x), so it runs last. The cost model orders nearby tiles only roughly (Table 7: the best of its top 9 is "
      "0.86 of the best of its top 70). On the H200 it gave hyperelasticity 2D P8 1.37x (2.73 -> 3.75 GDoF/s, above the paper), elasticity 3D P6 "
      "1.18x, hyperelasticity 2D P7 1.07x (`records/experiments/h200_local_search.txt`); `-mat_fem_gpu_tune_monitor` prints a line "
      "before each round (\"local search round 1: 6 tile neighbours of tiled nc=...\"); 0 turns it off";
  m.push_back(search);
  m.push_back(bound_move(
      "bound_best", false, 0, [](std::size_t, const PlanContext &ctx, TuneReport *report) { return bound_twins_of_best(*ctx.ir, *report, ctx.sm); },
      "CUDA tuning also times, last, the register-bound twin and the cells=shared register-bound twin (`register_bound`, `cell_value_bound`) of "
      "the fastest candidate of all, less those already timed: the local search may find a winner after the twin rounds have twinned others. "
      "Elasticity 3D P4's winner came from the local search (nc=32 nwi=8, shared DOFs); its cells=shared bound ran 1.25x faster "
      "(`records/experiments/h200_cell_values.txt`). A twin that spills more than its original is compiled but not timed. Leave it out"
      " of a plan to turn it off"));
  return m;
}

// The default plans' rounds. The CUDA order is measured: tensor cores before the twins so
// that the third round may bound them; the register-bound twin of the fastest so far
// right after, where a budget keeps time for it (TuneSettings::first_round_share), with
// own_dofs n=1 (with a budget the third round is often not reached, 2D P4-P5 at 10 s,
// and the own twin of the fastest SCPWI kernel was its gain); own_dofs again after the
// warp twins, so that a warp twin that won may be twinned (Laplace and elasticity 2D P3's
// winners scatter=warp, both faster with own=plain); the local search after the twins so
// that they expand the same parents; the bound twins of the search's winner last.
MoveTable make_table()
{
  MoveTable t;
  for (std::vector<TuneMove> moves : {list_moves(), placement_moves(), scatter_moves(), measured_moves(), search_moves()})
    for (TuneMove &m : moves) t.moves.push_back(std::move(m));
  t.cuda_rounds = {{{"first"}},
                   {{"tensor_core"}},
                   {{"assembled"}},
                   {{"register_bound", 1}, {"quad_steps"}, {"own_dofs", 1}, {"staged_scatter"}},
                   {{"shared_dofs"}, {"warp_scatter"}, {"interleaved"}},
                   {{"own_dofs"}, {"half_group"}, {"register_bound"}, {"cell_value_bound"}},
                   {{"local_search"}},
                   {{"bound_best"}}};
  t.opencl_rounds = {{{"first"}}, {{"local_search"}}};
  return t;
}

}  // namespace

const MoveTable &tune_moves()
{
  static const MoveTable table = make_table();
  return table;
}

}  // namespace femgpu
