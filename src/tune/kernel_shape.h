// The sizes the paper's cost model (section 3.2.4-3.2.6) and roofline (Eq. 16) need,
// taken from one ActionIR, plus the tile parameters of a tiled candidate.
//
// Takes: an ActionIR and Q; tile sizes as plain integers.
// Returns: immutable values; quantities.h computes N_sync, L, eta_* from them.
// Does not: depend on the kernel generator.
#pragma once

#include <vector>

#include "ir/action_ir.h"
#include "schedule/schedule.h"

namespace femgpu {

struct KernelShape {
  struct Group {
    int n = 0;            // basis functions of the group's element (n_{U_i} / n_{V_i})
    int n_deriv = 0;      // evaluated terms (N^deriv)
    int n_tables = 0;     // distinct derivative tables the kernel prefetches
    int dofs = 0;         // DOFs gathered per cell: n times the components of each function
  };
  int dim = 2;
  int Q = 1;
  int n_test = 1;         // n_W
  int test_components = 1;
  int n_eval = 1;         // N_eval
  int n_test_tables = 1;  // distinct test-derivative tables
  int word_bytes = 8;     // FP64
  int pointwise_ops_per_point = 0;
  int pointwise_ops_per_cell = 0;
  int coordinate_dofs = 0;  // coordinates gathered per cell (affine: d(d+1))
  std::vector<Group> groups;

  static KernelShape from(const ActionIR &ir, int Q, int word_bytes = 8);
};

// Tile sizes of Algorithm 4 are the schedule's TileSizes.
using Tiles = TileSizes;

}  // namespace femgpu
