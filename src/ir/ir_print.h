// Printing an ActionIR: JSON for tools and tests, and a readable listing of the
// pointwise program (`femgpu-form --ir`).
#pragma once

#include <ostream>

#include "ir/action_ir.h"

namespace femgpu {

// Keys: cell, dim, rank, n_trial (list: n per evaluation group), n_test, N_deriv (list),
// N_eval, Q, quadrature_degree, flops_per_cell, groups (details), test_terms, pointwise sizes.
void print_ir_json(std::ostream &os, const ActionIR &ir, int n_quadrature_points);

void print_ir_listing(std::ostream &os, const ActionIR &ir);

}  // namespace femgpu
