// The shared-memory layout of a tensor-core kernel (Strategy::TensorCore, build_mma.cpp).
//
// Takes: the schedule's MmaSizes and one form's ActionIR. Returns: the strides and word
// counts the kernel's arrays use, so the kernel builder and shared_memory_bytes() count
// the same words. Does not: check limits (validate() does).
//
// The products are m8n8k4: A (8 x 4, a table fragment of kernel_abi.h's mma_tables) from
// global memory, B (4 x 8) from shared memory, one 8-byte word a lane. A warp's B load
// reads 8 columns x 4 consecutive words; with a column stride of 4 or 12 modulo 16 words,
// the 16 lanes of each half-warp hit 16 distinct 8-byte bank pairs (no conflicts).
#pragma once

#include <vector>

#include "ir/action_ir.h"
#include "schedule/schedule.h"

namespace femgpu {

// One evaluation group's operands: B = the DOFs of every (cell, function, component)
// column, K = the group's basis functions padded to a multiple of 4 with zeros.
struct MmaGroupLayout {
  int columns_per_cell = 0;         // sum of the group's functions' components
  std::vector<int> function_column;  // first column of each of grp.functions within a cell
  int columns = 0;                  // N_c * columns_per_cell, a multiple of 8
  int k_padded = 0;                 // n rounded up to 4
  int k_stride = 0;                 // words between two columns of s_u (4 or 12 mod 16)
  int derivatives = 0;
  long long dof_words = 0;          // s_u: columns x k_stride
  long long eval_words = 0;         // s_e: derivatives x columns x point_stride
};

struct MmaLayout {
  std::vector<MmaGroupLayout> groups;
  int point_stride = 0;      // words between two columns of s_e (quad_tile + 2: stores without conflicts)
  int test_columns = 0;      // N_c * C, a multiple of 8
  int test_k = 0;            // K of one quadrature tile's product: test derivatives x quad_tile
  int test_k_stride = 0;     // words between two columns of s_f (4 or 12 mod 16)
  int test_row_tiles = 0;    // ceil(n_test / 8)
  int cell_stride = 0;       // words per cell of s_cell (the held per-cell values)
  long long test_words = 0;  // s_f: test_columns x test_k_stride
  long long cell_words = 0;  // s_cell
  long long total_words() const;
};

MmaLayout mma_layout(const MmaSizes &sizes, const ActionIR &ir);

}  // namespace femgpu
