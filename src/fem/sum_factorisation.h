// Sum factorisation on a simplex, in collapsed coordinates: a CPU reference for a
// sum-factorised kernel (not yet a schedule; records/study/
// sum_factorisation_flops.txt counts where one would cut flops).
//
// A P_k function on PETSc's reference simplex, given by its Lagrange coefficients (the
// element's DOFs in PetscFE's order, tabulation.h), is changed to the warped-product
// (Dubiner) basis, phi_pq(a, b) = P_p(a) ((1-b)/2)^p P_q^(2p+1,0)(b) on triangles and
// phi_pqr = P_p(a) ((1-b)/2)^p P_q^(2p+1,0)(b) ((1-c)/2)^(p+q) P_r^(2p+2q+2,0)(c) on
// tetrahedra, which factors over the collapsed coordinates (a, b[, c]) in [-1,1]^d. Its
// values and reference gradients at the tensor points (a_i, b_j[, c_k]) then take one
// stage per direction over the triangular index sets instead of one dense n x Q product,
// and the transpose (integration against every basis function and its gradient) takes
// the same stages backwards.
//
// Takes: the dimension (2 or 3), the degree, the element's Lagrange nodes
// (lagrange_nodes(dim, degree): n x dim) and the 1D points of each collapsed direction,
// inside (-1, 1) (a collapsed Gauss-Jacobi rule's, for a quadrature).
// Returns: evaluate() and integrate(), each with the flops it took (a multiply-add is 2),
// for comparing with the dense count.
// Throws: std::invalid_argument for a dimension other than 2 or 3, a negative degree, a
// node count that is not the element's, points outside (-1, 1), or a change of basis that
// cannot be inverted.
// Does not: map to physical cells or hold quadrature weights. Its Jacobi polynomials
// come from PETSc (PetscDTJacobiEval), so PETSc must be initialized.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

namespace femgpu {

// The 1D collapsed coordinates of a rule's points (n x dim on the reference simplex), each
// direction's distinct values in increasing order, where the points are exactly their
// tensor product (a collapsed Gauss-Jacobi rule, quadrature.h's "stroud-conical"), so that
// a SumFactorisedElement on them evaluates at the rule's own points. Throws
// std::invalid_argument where they are not (a symmetric rule).
std::array<std::vector<double>, 3> collapsed_points_1d(int dim, const std::vector<double> &points);

class SumFactorisedElement {
 public:
  SumFactorisedElement(int dim, int degree, const std::vector<double> &lagrange_nodes, const std::array<std::vector<double>, 3> &points_1d);

  int dim() const { return dim_; }
  int n_basis() const { return n_; }
  int n_points() const { return n_points_; }
  // The tensor points on the reference simplex, n_points x dim, a slowest and c fastest.
  const std::vector<double> &points() const { return points_; }

  // Values (n_points) and reference gradients (n_points x dim) of the function with
  // these Lagrange coefficients (n_basis); returns the flops.
  long long evaluate(const double *lagrange, double *values, double *gradients) const;
  // lagrange[i] += sum over the points of values * L_i + gradients . grad L_i; returns
  // the flops.
  long long integrate(const double *values, const double *gradients, double *lagrange) const;

 private:
  void tabulate_factors(const std::array<std::vector<double>, 3> &points_1d);
  void place_points(const std::array<std::vector<double>, 3> &points_1d);
  std::vector<double> warped_at_nodes(const std::vector<double> &lagrange_nodes) const;
  // evaluate()'s stages before the last: g[e][p][j][l] (e: no factor swapped for its
  // derivative, b's, c's), after the change of basis. Returns the flops.
  long long first_stages(const double *lagrange, std::vector<double> *g) const;
  // integrate()'s stages after the first (over a), from g back to Lagrange coefficients.
  long long last_stages(const std::vector<double> &g, double *lagrange) const;
  std::size_t g_index(int e, int p, int j, int l) const
  {
    return ((static_cast<std::size_t>(e) * (degree_ + 1) + p) * q_[1] + j) * q_[2] + l;
  }

  int dim_, degree_, n_ = 0, n_points_ = 0;
  std::array<int, 3> q_{1, 1, 1};  // points a direction; 1 for c on triangles
  std::vector<double> points_;
  // The 1D factors and their derivatives at each direction's points (see the .cpp).
  std::vector<double> A_, dA_, B_, dB_, C_, dC_;
  // The collapsed-to-reference chain rule at each point: dim x dim, row d = the
  // derivative along reference direction d of the collapsed coordinates.
  std::vector<double> chain_;
  std::vector<double> to_warped_;  // n x n: warped coefficients from Lagrange ones
};

}  // namespace femgpu
