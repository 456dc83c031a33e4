// A schedule: how one action kernel maps onto a GPU (the paper's section 3).
//
// Takes: a strategy and its parameters, through the factories below.
// Returns: an immutable value; "changing" a parameter makes a new Schedule.
// Does not: know the device. validate() checks a schedule against one form (loop
// lengths, group count), the generic 1024-thread limit and a shared-memory limit
// (default: CUDA's 48 KiB of static shared memory).
#pragma once

#include <string>
#include <vector>

#include "ir/action_ir.h"

namespace femgpu {

// TensorCore (CUDA, FP64, sm_80 and later): the evaluation and quadrature contractions
// of N_c cells at once as matrix products on the FP64 tensor cores (mma.sync m8n8k4,
// build_mma.cpp). Not the paper's: its two strategies run every multiply-add of Eq. (12)
// on the FP64 units, one instruction per product; one m8n8k4 instruction does 256 of
// them. At high order those contractions are 80-95% of a vector form's FLOPs.
// Assembled (CUDA, FP64, bilinear forms without coefficient functions): no action kernel;
// the cell matrices are summed once into a sparse matrix on the device and each action is
// an SpMV (kernel/sliced_spmv.h, fem/sliced_pattern.h). At P1 the matrix-free kernels are
// bound by gathers and atomics, and an SpMV of the few nonzeros a row may be faster;
// which is measured (the tuner's move `assembled`, tune_plan.h). Its matrix changes with
// the mesh and the constants only, so forms with coefficients cannot take it.
enum class Strategy { SingleCellPerWorkItem, Tiled, TensorCore, Assembled };
enum class Precision { FP64, FP32 };
// Where a work-item keeps the DOF values it reads in the evaluation loops (and, for
// SCPWI, its output accumulators). Registers: the paper's private arrays; at high
// order and for vector forms they are most of a work-item's registers (spills, one
// group per SM). Shared: in the group's shared memory, gathered once per cell
// (tiled: by the cell's N_WI work-items together; SCPWI: each work-item its own
// column, no barrier), read where registers were. Which is faster is measured.
enum class Dofs { Registers, Shared };
// Where a tiled kernel keeps the per-cell values of the pointwise program that its
// point code reads (the inverse Jacobian, |det J|, constants: held_cell_values).
// Registers: computed once per cell before the loops and live across all of them, two
// registers per FP64 value (elasticity 3D: 13 values, 26 of a work-item's registers,
// through every evaluation and quadrature loop). Shared: still computed once per cell,
// then stored in the group's shared memory (N_c x odd_stride(count) words) and read
// back at each point, so the loops hold none of them. ptxas, elasticity 3D P4 nc=32
// nwi=8: 128 -> 96 registers. Which is faster is measured (a tuner twin).
enum class CellValues { Registers, Shared };
// Where an SCPWI kernel reads the element tables (Phi, Psi) from. Global: the g_tables
// argument, one load instruction per entry, through L1. Constant: baked into the
// kernel source as a constant-memory array; the loads are uniform across a warp, so
// the constant cache serves them and, in unrolled loops, the FMAs take the entries as
// operands with no load at all. MergedConstant: the same, with each distinct table
// stored once (pack_tables' merge_equal): half the constant-cache footprint for a
// square form, but nvcc may keep the shared entries live between the evaluation and
// test loops and spill; which wins is measured (both are tuning candidates). Only
// for tables of at most kMaxConstantTableBytes.
// Interleaved (tiled only): the prefetch buffer holds a basis function's derivative
// tables at one point side by side ([row][column][derivative]) instead of one table
// after another, so where a group (or the test function) has an even number of them
// the unrolled loops read two with one 16-byte shared load (ld.shared.v2.f64): half
// the load instructions per FMA. On the H200 it ran elasticity 2D P6 and P7 1.02-1.03x
// faster at N_WI = 2, and others slower (elasticity 2D P8 0.73x: two more registers
// halved its groups per SM; hyperelasticity 2D P7 0.92x at N_WI = 10)
// (bench/experiments/h200_interleaved_tables.txt), so it is measured: the CUDA tuner
// times the Interleaved twins of its fastest tiled candidates.
enum class Tables { Global, Constant, MergedConstant, Interleaved };
// How a tiled kernel's loops over a work-item's private arrays (its rows of the
// evaluation accumulators, its DOF column tile, its output rows) are compiled.
// Compiler: left to nvcc, which keeps large ones rolled and then indexes those arrays
// in local memory (ptxas "bytes stack frame": 368 B for mass 3D P6 nc=64 nwi=2 tq=61,
// every accumulation a local load and store). Unrolled: #pragma unroll on each, so
// the arrays live in registers (that kernel: 96 -> 216 registers, no stack) and the
// quadrature loop reads each e_j once per point for all of its rows. Which is faster
// is measured.
enum class Loops { Compiler, Unrolled };
// How a kernel adds its outputs into the global vector. Atomic: one atomic add per
// output entry (the paper's scatter). Warp (CUDA only): the work-items of a warp that
// add to the same entry first sum their values (__match_any_sync groups them by the
// entry's 32-bit index, shuffles sum each group) and one atomic per distinct entry
// remains. At low order the L2's atomic units bound a kernel (about 1.2e11 FP64
// atomics/s measured on the H200): on the paper's meshes the warp twin ran elasticity
// 3D P1 1.31x and 2D P2 1.13x faster, and every scalar form 0.69-0.94x as fast
// (bench/experiments/h200_warp_scatter_p1.txt). Which wins is measured: the CUDA tuner
// times the Warp twin of its fastest candidates.
// Staged (SCPWI of one work-item a cell with DOFs in registers): each work-item writes
// its cell's outputs to a row of N_TEST_DOFS words in shared memory, and after a barrier
// the group adds the rows entry by entry, consecutive work-items on consecutive entries
// of one cell (the test map's rows read in order). Cell by cell, the 32 adds of one warp
// instruction fall in up to 32 cells' DOFs; entry by entry they follow one cell's map
// row, whose interior, edge and component DOFs are numbered together, a few sectors.
// Forced beside the SCPWI winners on the H200: the vector forms 1.24-1.75x, scalar 2D
// P3-P4 1.04-1.12x, scalar P2 0.93x (bench/experiments/h200_staged_scatter.txt); the
// tuner times it as a twin. The tensor-core kernels' Y staged the same way ran 0.79-1.07x
// (h200_mma_staged.txt): they keep their atomic scatter.
enum class Scatter { Atomic, Warp, Staged };
// How an SCPWI kernel (one work-item a cell) adds to its cell's own DOFs, the interior
// nodes no other cell holds (kernel/build_common.h). Atomic: as to the DOFs cells share.
// Plain: without an atomic, which leaves the L2's atomic units to the shared DOFs but
// waits for the DOF's value where the atomic add does not. Side by side, the SCPWI
// winners at 2D P3-P5 ran 1.04-1.12x faster plain, some others 0.75-0.95x
// (bench/experiments/h200_owned_dofs.txt), so it is measured: the CUDA tuner times the
// Plain twin of its fastest SCPWI candidates where the element has own DOFs (P3 and up
// on triangles, P4 and up on tetrahedra).
enum class OwnDofs { Atomic, Plain };
// A CUDA kernel's register budget, as the number of its groups that must fit on one SM
// at once (groups_per_sm=K: __launch_bounds__(threads, K), so ptxas keeps each thread at
// or below 65536 / (K * threads) registers and spills the rest to local memory). 0: no
// bound, ptxas takes what it needs (up to 255 per thread). The vector forms at high
// order take 240-255 registers, one or two groups per SM and 8 warps (ncu, elasticity
// 2D P7: 12.5% of warps active, 37% of stalls waiting on global loads); a bound trades
// spills for warps. Measured on the H200, every bound that made ptxas spill was slower
// (26 of 26, 1.06-8.9x) and the 5 it met without spilling ran 1.18-1.29x faster
// (bench/experiments/h200_register_bounds.txt): the CUDA tuner times the bounded twins
// of its fastest register-limited candidates that spill no more than they did. OpenCL has no such bound; its kernels carry
// the knob as a comment and run the same.
// SCPWI work-items per cell. 1: the paper's one cell per work-item. The number of
// components C of a vector form's test element (lanes=C): one work-item per component
// of each cell. It gathers, evaluates and accumulates only its component's DOFs of the
// vector functions, a C-th of the private arrays that make a vector SCPWI kernel
// spill at 255 registers (ncu and ptxas: 2D elasticity P4 at 252 registers, 8 warps
// per SM), and the cell's C work-items exchange their evaluated values through shared
// memory once per quadrature point (one barrier). The pointwise program runs on every
// lane. Work-items [c*wg, (c+1)*wg) of a group take component c, so with wg a multiple
// of 32 every warp works on one component.

int bytes_per_real(Precision p);

// Parameters of the parametric multi-level tiling (Algorithm 4). Paper symbols:
// cells_per_group N_c, items_per_cell N_WI, quad_tile T^Q, eval_rows T_e^r,
// eval_cols T_e^c (one per evaluation group), quad_rows T_q^r, quad_cols T_q^c.
struct TileSizes {
  int cells_per_group = 1;
  int items_per_cell = 32;
  int quad_tile = 1;
  int eval_rows = 1;
  std::vector<int> eval_cols;
  int quad_rows = 1;
  int quad_cols = 1;
};

inline bool operator==(const TileSizes &a, const TileSizes &b)
{
  return a.cells_per_group == b.cells_per_group && a.items_per_cell == b.items_per_cell && a.quad_tile == b.quad_tile &&
         a.eval_rows == b.eval_rows && a.eval_cols == b.eval_cols && a.quad_rows == b.quad_rows && a.quad_cols == b.quad_cols;
}

// Parameters of Strategy::TensorCore. A group of `warps` warps takes cells_per_group
// cells (a multiple of 8, the width of a product's column tile) and their quadrature
// points in tiles of quad_tile (a multiple of 8, the height of a row tile): for each
// tile, the evaluated values of every cell as products (tables x DOFs), the pointwise
// program at each (cell, point), and the quadrature contraction accumulated in
// registers (test tables x e).
//
// quad_order: the quadrature's loop nest in each warp. Rows: each of the warp's row tiles
// of Y in turn, every step of 4 points loading its s_f (B) fragments again for that row
// tile. Steps: each step of 4 points in turn, its B fragments loaded once and multiplied
// with the A fragment of every row tile the warp holds (row tiles + column tiles loads a
// step instead of row tiles x (1 + column tiles)). On the H200 Steps ran mass 2D P8 and
// 3D P6's winners 1.08-1.09x faster and Helmholtz 3D P4's 0.88x
// (bench/experiments/h200_mma_operand_reuse.txt), so it is measured: a tuner twin.
enum class MmaQuadOrder { Rows, Steps };

// Where a tensor-core kernel keeps the products' operands and results. Shared: the group
// gathers its cells' DOFs into shared memory (B), the evaluation stores E there and the
// points read it back, with barriers between (build_mma.cpp). Registers (kernels whose
// test table is the identity): each warp takes 8 cells of its own, gathers their DOFs
// straight into its B fragments, runs the pointwise program on its accumulators and adds
// the results to the test DOFs: no shared operands, one barrier (the per-cell values)
// (build_mma_registers.cpp). Forced on the H200's mass cases, Registers ran 2D P3 1.15x
// and P4 1.04x faster, 2D P5-P8 and 3D P5-P6 0.74-0.99x
// (bench/experiments/h200_mma_registers.txt), so the tuner times both (kIdentityMmaShapes).
enum class MmaOperands { Shared, Registers };

struct MmaSizes {
  int cells_per_group = 8;
  int warps = 4;
  int quad_tile = 16;
  MmaQuadOrder quad_order = MmaQuadOrder::Rows;
  MmaOperands operands = MmaOperands::Shared;
};

inline bool operator==(const MmaSizes &a, const MmaSizes &b)
{
  return a.cells_per_group == b.cells_per_group && a.warps == b.warps && a.quad_tile == b.quad_tile && a.quad_order == b.quad_order &&
         a.operands == b.operands;
}

class Schedule {
 public:
  // SCPWI (Algorithm 3): one cell per work-item, work_group_size cells per group.
  static Schedule single_cell_per_work_item(int work_group_size = 32, Precision precision = Precision::FP64);
  static Schedule tiled(const TileSizes &tiles, Precision precision = Precision::FP64);
  static Schedule tensor_core(const MmaSizes &sizes, Precision precision = Precision::FP64);
  static Schedule assembled();  // FP64; no other choice applies

  Schedule with_precision(Precision precision) const;
  Schedule with_dofs(Dofs dofs) const;
  Schedule with_cell_values(CellValues where) const;  // tiled only (validate)
  Schedule with_tables(Tables tables) const;
  Schedule with_lanes(int lanes_per_cell) const;  // SCPWI only
  Schedule with_loops(Loops loops) const;         // tiled only
  Schedule with_scatter(Scatter scatter) const;
  Schedule with_own_dofs(OwnDofs own) const;  // SCPWI with one lane only (validate)
  Schedule with_groups_per_sm(int groups) const;  // 0: no bound
  Schedule with_tiles(const TileSizes &tiles) const;  // tiled only: every other choice kept
  Schedule with_cells_per_group(int cells) const;  // tiled only: N_c, the other tiles kept
  Schedule with_mma(const MmaSizes &sizes) const;    // TensorCore only
  Schedule with_work_group_size(int cells) const;    // SCPWI only

  Strategy strategy() const { return strategy_; }
  Precision precision() const { return precision_; }
  Dofs dofs() const { return dofs_; }
  CellValues cell_values() const { return cell_values_; }
  Tables tables() const { return tables_; }
  Loops loops() const { return loops_; }
  Scatter scatter() const { return scatter_; }
  OwnDofs own_dofs() const { return own_dofs_; }
  int work_group_size() const { return work_group_size_; }  // SCPWI only: cells per group
  int lanes() const { return lanes_; }                      // SCPWI only: work-items per cell
  int groups_per_sm() const { return groups_per_sm_; }      // CUDA register bound, 0: none
  const TileSizes &tiles() const { return tiles_; }         // Tiled only
  const MmaSizes &mma() const { return mma_; }              // TensorCore only

 private:
  Schedule() = default;
  Strategy strategy_ = Strategy::SingleCellPerWorkItem;
  Precision precision_ = Precision::FP64;
  Dofs dofs_ = Dofs::Registers;
  CellValues cell_values_ = CellValues::Registers;
  Tables tables_ = Tables::Global;
  Loops loops_ = Loops::Compiler;
  Scatter scatter_ = Scatter::Atomic;
  OwnDofs own_dofs_ = OwnDofs::Atomic;
  int work_group_size_ = 32;
  int lanes_ = 1;
  int groups_per_sm_ = 0;
  TileSizes tiles_;
  MmaSizes mma_;
};

constexpr int kMaxThreadsPerGroup = 1024;
// Threads per group of the assembled operator's SpMV (one row each, kernel/sliced_spmv.h).
constexpr int kAssembledThreadsPerGroup = 256;
// Threads one SM holds at once (2048 on every CUDA GPU from sm_50 to sm_90): a
// register bound asking for more resident threads than this cannot be met.
constexpr int kMaxThreadsPerSM = 2048;
// Groups one SM holds at once (32 on sm_80 to sm_90).
constexpr int kMaxGroupsPerSM = 32;
// Statically declared shared memory per group: CUDA's limit without the dynamic
// opt-in (cudaFuncAttributeMaxDynamicSharedMemorySize), which the kernels do not use.
constexpr long long kMaxStaticSharedBytes = 48 * 1024;
// Constant memory a kernel may fill with its tables: CUDA's 64 KiB, and OpenCL's least
// CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE.
constexpr long long kMaxConstantTableBytes = 64 * 1024;

// Words of the packed element tables (kernel_abi.h's pack_tables), Q rows per table:
// every evaluation group's and test table, or with `merged` each distinct (element
// degree, reference derivative) table once.
long long table_words(const ActionIR &ir, int n_quadrature_points, bool merged = false);
// Bytes of a constant-table schedule's c_tables (0 for Tables::Global and Interleaved).
long long constant_table_bytes(const Schedule &s, const ActionIR &ir, int n_quadrature_points);

// Throws std::invalid_argument naming the parameter, its value and the limit.
void validate(const Schedule &s, const ActionIR &ir, int n_quadrature_points,
              long long max_shared_bytes = kMaxStaticSharedBytes);

// e.g. "scpwi wg=32 fp64", "tiled nc=4 nwi=32 tq=16 ter=8 tec=[15] tqr=15 tqc=8 fp64",
// "mma nc=16 warps=4 tq=32 fp64" (which may add only "quad=steps" after tq, then
// "operands=registers", and a register bound);
// SCPWI with several lanes per cell adds "lanes=C" after wg; shared DOFs add
// "dofs=shared", per-cell values in shared memory "cells=shared", unrolled tiled loops "loops=unrolled", constant tables
// "tables=constant" or "tables=constant-merged", the warp-aggregated scatter
// "scatter=warp", a register bound "groups_per_sm=K", in that order, before the
// precision; a tiled kernel's interleaved tables "tables=interleaved" where constant
// tables would be. Written from the table of schedule words (schedule_words.h), in its order.
std::string to_string(const Schedule &s);
// The inverse of to_string: accepts exactly the text to_string writes (so a stored
// schedule is canonical) and throws std::invalid_argument saying what it could not read.
// Checks the syntax and each word's range (schedule_words.h); validate() checks the
// schedule against a form.
Schedule parse_schedule(const std::string &text);

int threads_per_group(const Schedule &s);
int cells_per_group(const Schedule &s);

// Shared tables are stored with odd row strides (odd_stride): the work-items of one
// cell read different rows of a tile at the same column, and with an even stride
// (in 8-byte words) several rows fall into the same banks. ncu measured 23% of the
// shared wavefronts of a tiled elasticity kernel as bank-conflict replays.
int odd_stride(int words);
// Words of the prefetch buffer B (Eq. 5), counting the distinct tables of each group
// (components of a Lagrange vector share one table) and the distinct test tables, with
// rows of odd_stride(T_e^c) and odd_stride(T_q^c) words.
long long prefetch_buffer_words(const Schedule &s, const ActionIR &ir);
// B plus the evaluation results e[N_c][odd_stride(T^Q N_eval)] (tiled), plus the DOF
// arrays of Dofs::Shared (dof_tile_stride), plus lane_exchange_words, plus the per-cell
// values of CellValues::Shared, plus staged_output_words, in bytes; 0 for SCPWI in
// registers with one lane and an atomic or warp scatter.
long long shared_memory_bytes(const Schedule &s, const ActionIR &ir);
// Whether a tiled kernel's shared DOF tiles live inside the words of e: when each
// quadrature tile is one evaluation row tile (T_e^r = T^Q), every read of a DOF tile
// comes before the barrier after which the tile's points write e, and the next tile
// gathers DOFs only after the barrier that ends the quadrature phase's reads of e.
// Elasticity 3D P4 nc=32 nwi=8: 99 KB -> 72 KB of shared memory per group.
bool dofs_alias_evaluations(const Schedule &s);
// Words of the region that holds e (and the DOF tiles where they alias it).
long long evaluation_words(const Schedule &s, const ActionIR &ir);
// Words per cell of CellValues::Shared: odd_stride of the held values' count.
int cell_value_stride(const ActionIR &ir);
// Dofs::Shared, tiled: words between two cells' column tiles of function f (T_e^c of
// its group times its components, made odd so that the cells of a warp read distinct
// banks).
int dof_tile_stride(const Schedule &s, const ActionIR &ir, int function);

// SCPWI with lanes > 1: the functions each lane evaluates one component of (every
// evaluated function with the test element's C > 1 components, not the coordinates);
// the others every lane evaluates whole.
bool lane_split(const ActionIR &ir, int function);
// One row of the exchange buffer: the evaluation of a split function's derivative in
// one group, one value per lane (its component).
struct LaneRow {
  int group = 0, function = 0, derivative = 0;
};
// The distinct (group, split function, derivative) of the groups' terms, in term order.
std::vector<LaneRow> lane_exchange_rows(const ActionIR &ir);
// Words of the exchange buffer: two halves (even and odd quadrature points, so one
// barrier per point suffices) of rows x lanes x cells per group.
long long lane_exchange_words(const Schedule &s, const ActionIR &ir);
// Scatter::Staged's shared outputs: N_TEST_DOFS words a work-item (0 for other scatters).
long long staged_output_words(const Schedule &s, const ActionIR &ir);

}  // namespace femgpu
