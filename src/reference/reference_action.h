// The CPU reference action: the paper's Algorithm 2 as plain FP64 loops over cells.
// This is the oracle every GPU schedule is checked against.
//
// Takes: an ActionIR, its Tabulation, and the mesh and function arrays (fem/action_arrays.h).
// Returns: adds the action into `out` (out += A u for rank 2; out += F(w) for rank 1).
// Does not: parallelize, vectorize or hoist anything; clarity over speed.
#pragma once

#include <vector>

#include "fem/action_arrays.h"
#include "fem/action_tables.h"
#include "ir/action_ir.h"

namespace femgpu {

void reference_action(const ActionIR &ir, const Tabulation &tab, const ActionArrays &arrays, double *out);

// Evaluates the pointwise program at one point: `inputs` holds one value per program
// input; returns the value of every node.
std::vector<double> evaluate_program(const Program &p, const std::vector<double> &inputs);

}  // namespace femgpu
