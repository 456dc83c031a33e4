// The element tables one action needs: the quadrature rule, and for each evaluation
// group and for the test function, the reference derivative tables at its points.
//
// Takes: an ActionIR and femgpu's share folder (for the quadrature tables).
// Returns: Tabulation, immutable; tables are Q x n row-major (point-major), the
// transposes of the paper's Phi[i, q].
// Does not: touch meshes; requires PetscInitialize (tables come from PetscFE).
#pragma once

#include <string>
#include <vector>

#include "fem/quadrature.h"
#include "ir/action_ir.h"

namespace femgpu {

struct Tabulation {
  QuadratureRule rule;
  // [group][derivative]: Q x group.n_basis
  std::vector<std::vector<std::vector<double>>> group_tables;
  // [test derivative]: Q x n_test_basis
  std::vector<std::vector<double>> test_tables;
  // Reference gradients of the P1 basis, (dim+1) x dim: J = sum_j X_j (x) grad(lambda_j).
  std::vector<double> p1_gradients;
  int n_points() const { return rule.size(); }
};

Tabulation tabulate_action(const ActionIR &ir, const std::string &share_dir);

}  // namespace femgpu
