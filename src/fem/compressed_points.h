// Fewer quadrature points, exactly, for forms whose pointwise program is one linear map
// at every point (ir/pointwise_linearity.h: mass, Laplace, Helmholtz, linear elasticity).
//
// Why it is exact: such a form's action is Y = sum_j Psi_j^T W (sum_i M_ji Phi_i) X,
// with Psi_j and Phi_i the test and trial tables (Q x n), W the (positive) weights and
// M_ji the same at every point. Let U (Q x r) have orthonormal columns spanning the
// columns of every W^(1/2) Psi_j. Then W^(1/2) Psi_j = U C_j with C_j = U^T W^(1/2) Psi_j,
// and with D_i = U^T W^(1/2) Phi_i
//   Y = sum_j C_j^T (sum_i M_ji D_i) X,
// the same action at r "points" with tables C_j and D_i and weights 1. A test table
// equal to a trial table stays equal (so merged tables stay merged). r is the dimension
// of the test derivatives' polynomial space on the rule's points (n_test for values; that
// of P_{p-1} for gradients alone), below Q wherever the rule needs more points than that:
// every evaluation and quadrature product, and every pointwise map, then runs r / Q as
// often.
//
// Where there is one test table and r = n_test (values alone: mass), C is square and
//   Y = C^T (sum_i M_i D_i) X = I^T (sum_i M_i C^T D_i) X:
// the test table becomes the identity and each trial table the reference element matrix
// C^T D_i (Tabulation::test_identity), so kernels need no quadrature product; this
// applies at r = Q too (mass P1-P2).
//
// Takes: an ActionIR and its Tabulation at the rule's points.
// Returns: the Tabulation at r points where the form qualifies, every weight is positive
// and r < Q or the test side becomes the identity; otherwise the one it was given. The
// rule itself is kept (Tabulation::rule); n_points() is r.
// Does not: change the IR (its FLOP counts follow n_points()).
#pragma once

#include <vector>

#include "fem/action_tables.h"
#include "ir/action_ir.h"

namespace femgpu {

Tabulation compress_points(const ActionIR &ir, Tabulation tab);

// Orthonormal columns spanning those given (columns: each a vector of `rows` values), by
// Gram-Schmidt with pivoting on the largest remaining norm, each chosen column
// orthogonalised twice; a column whose remainder is at most rel_tol times the largest
// column's norm counts as dependent. Returned as rows x r, row-major.
std::vector<double> orthonormal_span(const std::vector<std::vector<double>> &columns, int rows, double rel_tol);

}  // namespace femgpu
