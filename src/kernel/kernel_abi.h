// The contract between a generated action kernel and the host that launches it.
//
// Kernel signature, in this order (pointers are global memory, `real` is double or
// float as the schedule's precision says, maps are int32 row-major n_cells x width):
//
//   n_cells                           int
//   g_coords, g_coords_map            real*, int*   coordinate field: the map has one entry
//                                                   per node (P1 or P2 nodes, N_NODES_COORDS),
//                                                   the offset of its DIM contiguous values
//   g_u, g_u_map                      real*, int*   trial function (rank 2 only)
//   g_w<i>, g_w<i>_map                real*, int*   coefficient i, for every coefficient
//   g_test_map                        int*          output DOFs, width N_TEST_DOFS
//   g_tables                          real*         pack_tables() below
//   g_weights                         real*         quadrature weights, N_QUAD
//   g_constants                       real*         one per form constant (>= 1 entry)
//   g_out                             real*         out += action (atomic adds)
//
// A map entry j*C + c is basis j, component c; negative entries read as zero and
// receive nothing, as in reference_action. Launch: (block_x, block_y) work-items per
// group and ceil(n_cells / cells_per_group) groups along x (Kernel, kernel_ast.h).
// Does not: own buffers or launch anything (src/runtime does).
#pragma once

#include <string>
#include <vector>

#include "fem/action_tables.h"
#include "ir/action_ir.h"

namespace femgpu {

enum class ArgKind { CellCount, Values, Map, TestMap, Tables, Weights, Constants, Out };

struct KernelArg {
  ArgKind kind = ArgKind::CellCount;
  int function = 0;  // Values, Map: kCoordinates, kTrialFunction or coefficient_function(i)
  std::string name;
};

std::vector<KernelArg> kernel_arguments(const ActionIR &ir);
// The diagonal kernel's (build_diagonal): the same, less g_u and g_u_map (the trial
// function is a unit vector per cell DOF); g_out receives the diagonal.
std::vector<KernelArg> diagonal_arguments(const ActionIR &ir);
// The cell-matrix kernel's (build_cell_matrix): the diagonal's, less g_test_map (each
// cell's entries go to g_out[cell * width^2 + ...], where no map is needed).
std::vector<KernelArg> cell_matrix_arguments(const ActionIR &ir);

// "coords", "u", "w0", ...: the stem of a function's generated names.
std::string function_stem(int function);
int function_components(const ActionIR &ir, int function);
int coordinate_basis(const ActionIR &ir);  // P1 or P2 nodes per cell
// DOFs of a function in one cell: basis functions x components.
int function_dofs(const ActionIR &ir, int function);
// Entries of a function's map row: function_dofs, except the coordinate map's one per node.
int map_width(const ActionIR &ir, int function);

// All element tables in one array: group g's derivative k at group_offsets[g][k], test
// derivative k at test_offsets[k]; each Q x n row-major as in Tabulation. The offsets
// become compile-time constants OFFSET_G<g>_D<k> and OFFSET_TEST_D<k>.
struct TableLayout {
  std::vector<double> data;
  std::vector<std::vector<long long>> group_offsets;
  std::vector<long long> test_offsets;
};

// merge_equal: store each (element degree, derivative) table once (the trial and test
// tables of a square form are the same numbers); Tables::MergedConstant kernels only.
// When the evaluation and test loops read the same addresses nvcc may keep the loaded
// entries live between them and spill (ptxas: 872 bytes for Helmholtz 2D P8 with
// global tables, 2.7x slower on the H200; none with separate copies), while the
// smaller footprint fits the constant cache better (mass 2D P7: 1.41x). Global tables
// and the tiled prefetch use separate copies. Merged, an identity test table
// (Tabulation::test_identity) is not stored: its offset is -1.
TableLayout pack_tables(const ActionIR &ir, const Tabulation &tab, bool merge_equal = false);

// The tensor-core kernels' copies of the tables (build_mma.cpp), stored after
// pack_tables(ir, tab)'s in the CUDA backend's g_tables: each A operand of an m8n8k4
// product is 32 consecutive words (lane l holds row l / 4, column l % 4), so a warp
// loads 256 contiguous bytes with no bounds to test. Zeros past the rule's points (up
// to `points`, twice Q rounded up to 8: a last quadrature tile reads at most that far),
// past the basis and past the test basis.
//   Evaluation, group g, derivative d, point tile pt (8 points), basis step s (4 basis
//   functions): group_offsets[g] + ((d * points / 8 + pt) * ceil(n_g / 4) + s) * 32,
//   lane (r, c) = Phi_d[8 pt + r][4 s + c].
//   Quadrature, test derivative t, test row tile rt (8 basis functions), point step p
//   (4 points): test_offset + ((t * ceil(n_test / 8) + rt) * points / 4 + p) * 32,
//   lane (r, c) = Psi_t[4 p + c][8 rt + r].
struct MmaTables {
  std::vector<double> data;  // to append after pack_tables(ir, tab).data
  int points = 0;
  std::vector<long long> group_offsets;
  long long test_offset = 0;
};
// base: the words before them in g_tables (pack_tables(ir, tab).data.size()); values
// false: the offsets and `points` only (data left empty), as the kernel builder needs.
MmaTables mma_tables(const ActionIR &ir, const Tabulation &tab, long long base, bool values = true);
// pack_tables(ir, tab) followed by mma_tables: the CUDA backend's g_tables.
std::vector<double> device_tables(const ActionIR &ir, const Tabulation &tab);

}  // namespace femgpu
