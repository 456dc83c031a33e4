// The CPU reference action: the paper's Algorithm 2 as plain FP64 loops over cells.
// This is the oracle every GPU schedule is checked against.
//
// Takes: an ActionIR, its Tabulation, and the mesh and function arrays below.
// Returns: adds the action into `out` (out += A u for rank 2; out += F(w) for rank 1).
// Does not: parallelize, vectorize or hoist anything; clarity over speed.
#pragma once

#include <vector>

#include "fem/action_tables.h"
#include "ir/action_ir.h"

namespace femgpu {

// A function's global values and its cell-to-DOF map: n_cells x (n_basis * components),
// entry j*C + c for basis function j, component c. Negative entries are constrained or
// absent DOFs: they read as zero and receive nothing.
struct FunctionArrays {
  const double *values = nullptr;
  const int *map = nullptr;
};

struct ActionArrays {
  int n_cells = 0;
  FunctionArrays coordinates;                 // map: one entry per node (P1 or P2), the offset of its dim contiguous values
  FunctionArrays trial;                       // used when rank == 2
  std::vector<FunctionArrays> coefficients;   // one per ActionIR::coefficients
  const int *test_map = nullptr;              // where each cell's output goes
  std::vector<double> constants;              // one per ActionIR::constants
};

void reference_action(const ActionIR &ir, const Tabulation &tab, const ActionArrays &arrays, double *out);

// Evaluates the pointwise program at one point: `inputs` holds one value per program
// input; returns the value of every node.
std::vector<double> evaluate_program(const Program &p, const std::vector<double> &inputs);

}  // namespace femgpu
