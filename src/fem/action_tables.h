// The element tables one action needs: the quadrature rule, and for each evaluation
// group and for the test function, the reference derivative tables at its points.
//
// Takes: an ActionIR and femgpu's share folder (for the quadrature tables).
// Returns: Tabulation, immutable; tables are Q x n row-major (point-major), the
// transposes of the paper's Phi[i, q], Q the rule's points or fewer (compressed).
// Does not: touch meshes; requires PetscInitialize (tables come from PetscFE).
#pragma once

#include <string>
#include <vector>

#include "fem/quadrature.h"
#include "ir/action_ir.h"

namespace femgpu {

struct Tabulation {
  QuadratureRule rule;  // the rule the form is integrated with
  // The kernels' points, one weight per table row: the rule's weights, or, where
  // compress_points applies (fem/compressed_points.h), weight 1 at each of r < Q
  // combinations of the rule's points. Q below is n_points().
  std::vector<double> weights;
  // [group][derivative]: Q x group.n_basis
  std::vector<std::vector<std::vector<double>>> group_tables;
  // [test derivative]: Q x n_test_basis
  std::vector<std::vector<double>> test_tables;
  // True where compress_points made the test side the identity (fem/compressed_points.h):
  // the kernels' points are then the test basis functions, test_tables is the identity
  // and the group tables hold the reference element matrices, so a kernel may add each
  // point's value to its output instead of multiplying by the table.
  bool test_identity = false;
  // Reference gradients of the P1 basis, (dim+1) x dim: J = sum_j X_j (x) grad(lambda_j).
  std::vector<double> p1_gradients;
  int n_points() const { return static_cast<int>(weights.size()); }
  // Whether the tables differ from the rule's (fewer points, or the test side the identity).
  bool compressed() const { return n_points() != rule.size() || test_identity; }
};

// Points::Compressed: the tables at compress_points' r points where that is exact and
// fewer; Points::Rule: always at the rule's points.
enum class Points { Compressed, Rule };
Tabulation tabulate_action(const ActionIR &ir, const std::string &share_dir, Points points = Points::Compressed);

}  // namespace femgpu
