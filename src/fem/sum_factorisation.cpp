// Sum factorisation on a simplex in collapsed coordinates (sum_factorisation.h).
//
// Index sets: the warped basis (p, q) with p + q <= k (triangle) or (p, q, r) with
// p + q + r <= k (tetrahedron), p slowest. The 1D factors at each direction's points:
//   A_[p][i]      = P_p(a_i)                                   (Legendre, P_p^(0,0))
//   B_[(p,q)][j]  = ((1 - b_j)/2)^p P_q^(2p+1,0)(b_j)
//   C_[(p,q,r)][k] = ((1 - c_k)/2)^(p+q) P_r^(2p+2q+2,0)(c_k)  (tetrahedra)
// and dA_, dB_, dC_ their derivatives along their own coordinate. A value is
// sum_p A_p(a) sum_q B_pq(b) [sum_r C_pqr(c)] w_pq[r]: the innermost sum first, one
// direction a stage. A derivative along a collapsed coordinate swaps that direction's
// factor for its derivative; the chain rule (chain_) takes collapsed derivatives to
// reference ones.
#include "fem/sum_factorisation.h"

#include <petscdt.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "fem/petsc_check.h"

namespace femgpu {
namespace {

// ((1 - x)/2)^m P_n^(alpha,0)(x) and its derivative, the Jacobi polynomial from PETSc.
void warped_factor(int m, int n, double alpha, double x, double *value, double *derivative)
{
  const PetscInt degree = n;
  PetscReal p = 0, dp = 0;
  detail::check(PetscDTJacobiEval(1, alpha, 0, &x, 1, &degree, &p, &dp, nullptr), "PetscDTJacobiEval");
  const double h = (1 - x) / 2, hm = std::pow(h, m);
  *value = hm * p;
  *derivative = hm * dp - (m > 0 ? m / 2.0 * std::pow(h, m - 1) * p : 0.0);
}

// The collapsed coordinates of a reference point; on the singular faces (where the
// collapse divides by zero) any value serves: the basis there does not depend on it.
std::array<double, 3> collapsed(int dim, const double *x)
{
  constexpr double eps = 1e-14;
  if (dim == 2) {
    const double d = 1 - x[1];
    return {d > eps ? 2 * (1 + x[0]) / d - 1 : -1.0, x[1], 0.0};
  }
  const double dz = 1 - x[2], dyz = -x[1] - x[2];
  return {dyz > eps ? 2 * (1 + x[0]) / dyz - 1 : -1.0, dz > eps ? 2 * (1 + x[1]) / dz - 1 : -1.0, x[2]};
}

int warped_basis_size(int dim, int k) { return dim == 2 ? (k + 1) * (k + 2) / 2 : (k + 1) * (k + 2) * (k + 3) / 6; }

// The inverse of the n x n row-major matrix m, by Gauss-Jordan with partial pivoting.
std::vector<double> inverse(std::vector<double> m, int n)
{
  std::vector<double> inv(static_cast<size_t>(n) * n, 0.0);
  for (int i = 0; i < n; ++i) inv[static_cast<size_t>(i) * n + i] = 1.0;
  auto at = [n](std::vector<double> &v, int r, int c) -> double & { return v[static_cast<size_t>(r) * n + c]; };
  for (int c = 0; c < n; ++c) {
    int pivot = c;
    for (int r = c + 1; r < n; ++r)
      if (std::fabs(at(m, r, c)) > std::fabs(at(m, pivot, c))) pivot = r;
    if (!(std::fabs(at(m, pivot, c)) > 1e-12))
      throw std::invalid_argument("sum factorisation: the change of basis from the Lagrange nodes is singular");
    for (int j = 0; j < n; ++j) std::swap(at(m, c, j), at(m, pivot, j)), std::swap(at(inv, c, j), at(inv, pivot, j));
    const double d = at(m, c, c);
    for (int j = 0; j < n; ++j) at(m, c, j) /= d, at(inv, c, j) /= d;
    for (int r = 0; r < n; ++r) {
      if (r == c || at(m, r, c) == 0) continue;
      const double f = at(m, r, c);
      for (int j = 0; j < n; ++j) at(m, r, j) -= f * at(m, c, j), at(inv, r, j) -= f * at(inv, c, j);
    }
  }
  return inv;
}

}  // namespace

std::array<std::vector<double>, 3> collapsed_points_1d(int dim, const std::vector<double> &points)
{
  if (dim != 2 && dim != 3) throw std::invalid_argument("collapsed points: dim must be 2 or 3, got " + std::to_string(dim));
  constexpr double tol = 1e-12;
  const std::size_t n = points.size() / static_cast<std::size_t>(dim);
  std::array<std::vector<double>, 3> axes;
  std::vector<std::array<double, 3>> abc;
  for (std::size_t i = 0; i < n; ++i) {
    abc.push_back(collapsed(dim, &points[i * static_cast<std::size_t>(dim)]));
    for (int d = 0; d < dim; ++d) {
      std::vector<double> &axis = axes[static_cast<std::size_t>(d)];
      const double t = abc.back()[static_cast<std::size_t>(d)];
      if (std::none_of(axis.begin(), axis.end(), [&](double u) { return std::fabs(u - t) < tol; })) axis.push_back(t);
    }
  }
  std::size_t product = 1;
  for (int d = 0; d < dim; ++d) {
    std::sort(axes[static_cast<std::size_t>(d)].begin(), axes[static_cast<std::size_t>(d)].end());
    product *= axes[static_cast<std::size_t>(d)].size();
  }
  // Each tensor index at most once: with as many points as the product, each exactly once.
  std::vector<char> seen(product, 0);
  for (const std::array<double, 3> &x : abc) {
    std::size_t index = 0;
    for (int d = 0; d < dim; ++d) {
      const std::vector<double> &axis = axes[static_cast<std::size_t>(d)];
      const auto it = std::lower_bound(axis.begin(), axis.end(), x[static_cast<std::size_t>(d)] - tol);
      index = index * axis.size() + static_cast<std::size_t>(it - axis.begin());
    }
    if (seen[index]++) product = 0;  // a repeated tensor index: not a tensor rule
  }
  if (product != n)
    throw std::invalid_argument("collapsed points: the " + std::to_string(n) +
                                " points are not a tensor product in collapsed coordinates (a symmetric rule?)");
  return axes;
}

SumFactorisedElement::SumFactorisedElement(int dim, int degree, const std::vector<double> &lagrange_nodes,
                                           const std::array<std::vector<double>, 3> &points_1d)
    : dim_(dim), degree_(degree)
{
  if (dim != 2 && dim != 3) throw std::invalid_argument("sum factorisation: dim must be 2 or 3, got " + std::to_string(dim));
  if (degree < 0) throw std::invalid_argument("sum factorisation: negative degree " + std::to_string(degree));
  n_ = warped_basis_size(dim, degree);
  if (lagrange_nodes.size() != static_cast<size_t>(n_) * dim)
    throw std::invalid_argument("sum factorisation: " + std::to_string(lagrange_nodes.size() / dim) + " Lagrange nodes for P" +
                                std::to_string(degree) + ", which has " + std::to_string(n_));
  n_points_ = 1;
  for (int d = 0; d < dim; ++d) {
    q_[static_cast<size_t>(d)] = static_cast<int>(points_1d[static_cast<size_t>(d)].size());
    n_points_ *= q_[static_cast<size_t>(d)];
    for (double t : points_1d[static_cast<size_t>(d)])
      if (!(t > -1 && t < 1)) throw std::invalid_argument("sum factorisation: a collapsed point outside (-1, 1)");
  }
  tabulate_factors(points_1d);
  place_points(points_1d);
  to_warped_ = inverse(warped_at_nodes(lagrange_nodes), n_);
}

void SumFactorisedElement::tabulate_factors(const std::array<std::vector<double>, 3> &points_1d)
{
  const int k = degree_;
  for (int p = 0; p <= k; ++p)
    for (double a : points_1d[0]) {
      double v = 0, dv = 0;
      warped_factor(0, p, 0, a, &v, &dv);
      A_.push_back(v), dA_.push_back(dv);
    }
  for (int p = 0; p <= k; ++p)
    for (int q = 0; q <= k - p; ++q)
      for (double b : points_1d[1]) {
        double v = 0, dv = 0;
        warped_factor(p, q, 2 * p + 1, b, &v, &dv);
        B_.push_back(v), dB_.push_back(dv);
      }
  if (dim_ == 3)
    for (int p = 0; p <= k; ++p)
      for (int q = 0; q <= k - p; ++q)
        for (int r = 0; r <= k - p - q; ++r)
          for (double c : points_1d[2]) {
            double v = 0, dv = 0;
            warped_factor(p + q, r, 2 * p + 2 * q + 2, c, &v, &dv);
            C_.push_back(v), dC_.push_back(dv);
          }
}

// The tensor points on the reference simplex and the chain rule there (d collapsed /
// d reference, row = reference direction).
void SumFactorisedElement::place_points(const std::array<std::vector<double>, 3> &points_1d)
{
  const std::vector<double> &a = points_1d[0], &b = points_1d[1];
  for (int i = 0; i < q_[0]; ++i)
    for (int j = 0; j < q_[1]; ++j)
      for (int l = 0; l < q_[2]; ++l) {
        if (dim_ == 2) {
          points_.insert(points_.end(), {(1 + a[i]) * (1 - b[j]) / 2 - 1, b[j]});
          chain_.insert(chain_.end(), {2 / (1 - b[j]), 0.0, (1 + a[i]) / (1 - b[j]), 1.0});
        } else {
          const double c = points_1d[2][l], s = (1 - b[j]) * (1 - c);
          points_.insert(points_.end(), {(1 + a[i]) * s / 4 - 1, (1 + b[j]) * (1 - c) / 2 - 1, c});
          chain_.insert(chain_.end(), {4 / s, 0.0, 0.0, 2 * (1 + a[i]) / s, 2 / (1 - c), 0.0, 2 * (1 + a[i]) / s, (1 + b[j]) / (1 - c), 1.0});
        }
      }
}

// V[node][warped] = the warped function at the node; its inverse takes Lagrange
// coefficients (values at the nodes) to warped ones.
std::vector<double> SumFactorisedElement::warped_at_nodes(const std::vector<double> &lagrange_nodes) const
{
  const int k = degree_;
  std::vector<double> V;
  for (int node = 0; node < n_; ++node) {
    const std::array<double, 3> x = collapsed(dim_, &lagrange_nodes[static_cast<size_t>(node) * dim_]);
    for (int p = 0; p <= k; ++p)
      for (int q = 0; q <= k - p; ++q) {
        double av = 0, bv = 0, unused = 0;
        warped_factor(0, p, 0, x[0], &av, &unused);
        warped_factor(p, q, 2 * p + 1, x[1], &bv, &unused);
        if (dim_ == 2) {
          V.push_back(av * bv);
          continue;
        }
        for (int r = 0; r <= k - p - q; ++r) {
          double cv = 0;
          warped_factor(p + q, r, 2 * p + 2 * q + 2, x[2], &cv, &unused);
          V.push_back(av * bv * cv);
        }
      }
  }
  return V;
}

long long SumFactorisedElement::first_stages(const double *lagrange, std::vector<double> *g) const
{
  const int k = degree_, n = n_, qb = q_[1], qc = q_[2];
  long long flops = 2LL * n * n;
  std::vector<double> w(static_cast<size_t>(n), 0.0);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) w[r] += to_warped_[static_cast<size_t>(r) * n + c] * lagrange[c];
  g->assign(static_cast<size_t>(3) * (k + 1) * qb * qc, 0.0);
  auto G = [&](int e, int p, int j, int l) -> double & { return (*g)[g_index(e, p, j, l)]; };
  if (dim_ == 2) {
    int idx = 0;
    for (int p = 0; p <= k; ++p)
      for (int q = 0; q <= k - p; ++q, ++idx)
        for (int j = 0; j < qb; ++j) {
          G(0, p, j, 0) += B_[static_cast<size_t>(idx) * qb + j] * w[idx];
          G(1, p, j, 0) += dB_[static_cast<size_t>(idx) * qb + j] * w[idx];
        }
    return flops + 2 * 2LL * qb * n;
  }
  const int n_pq = (k + 1) * (k + 2) / 2;
  std::vector<double> h(static_cast<size_t>(2) * n_pq * qc, 0.0);  // [plain, dC][(p,q)][l]
  int idx = 0, pq = 0;
  for (int p = 0; p <= k; ++p)
    for (int q = 0; q <= k - p; ++q, ++pq)
      for (int r = 0; r <= k - p - q; ++r, ++idx)
        for (int l = 0; l < qc; ++l) {
          h[static_cast<size_t>(pq) * qc + l] += C_[static_cast<size_t>(idx) * qc + l] * w[idx];
          h[(static_cast<size_t>(n_pq) + pq) * qc + l] += dC_[static_cast<size_t>(idx) * qc + l] * w[idx];
        }
  pq = 0;
  for (int p = 0; p <= k; ++p)
    for (int q = 0; q <= k - p; ++q, ++pq)
      for (int j = 0; j < qb; ++j)
        for (int l = 0; l < qc; ++l) {
          const double hv = h[static_cast<size_t>(pq) * qc + l], hc = h[(static_cast<size_t>(n_pq) + pq) * qc + l];
          G(0, p, j, l) += B_[static_cast<size_t>(pq) * qb + j] * hv;
          G(1, p, j, l) += dB_[static_cast<size_t>(pq) * qb + j] * hv;
          G(2, p, j, l) += B_[static_cast<size_t>(pq) * qb + j] * hc;
        }
  return flops + 2 * 2LL * qc * n + 3 * 2LL * qb * qc * n_pq;
}

long long SumFactorisedElement::evaluate(const double *lagrange, double *values, double *gradients) const
{
  std::vector<double> g;
  long long flops = first_stages(lagrange, &g);
  // The last stage, over a, and the chain rule.
  const int k = degree_, d = dim_, qa = q_[0], qb = q_[1], qc = q_[2];
  auto G = [&](int e, int p, int j, int l) { return g[g_index(e, p, j, l)]; };
  for (int i = 0; i < qa; ++i)
    for (int j = 0; j < qb; ++j)
      for (int l = 0; l < qc; ++l) {
        double u = 0, du[3] = {0, 0, 0};
        for (int p = 0; p <= k; ++p) {
          const double ap = A_[static_cast<size_t>(p) * qa + i], dap = dA_[static_cast<size_t>(p) * qa + i];
          u += ap * G(0, p, j, l);
          du[0] += dap * G(0, p, j, l);
          du[1] += ap * G(1, p, j, l);
          if (d == 3) du[2] += ap * G(2, p, j, l);
        }
        const size_t pt = (static_cast<size_t>(i) * qb + j) * qc + l;
        values[pt] = u;
        for (int r = 0; r < d; ++r) {
          double s = 0;
          for (int e = 0; e < d; ++e) s += chain_[(pt * d + r) * d + e] * du[e];
          gradients[pt * d + r] = s;
        }
      }
  return flops + (d + 1) * 2LL * qa * qb * qc * (k + 1) + 2LL * d * d * n_points_;
}

long long SumFactorisedElement::integrate(const double *values, const double *gradients, double *lagrange) const
{
  const int k = degree_, d = dim_, qa = q_[0], qb = q_[1], qc = q_[2];
  // The chain rule transposed and the stage over a: g as first_stages() leaves it.
  std::vector<double> g(static_cast<size_t>(3) * (k + 1) * qb * qc, 0.0);
  auto G = [&](int e, int p, int j, int l) -> double & { return g[g_index(e, p, j, l)]; };
  for (int i = 0; i < qa; ++i)
    for (int j = 0; j < qb; ++j)
      for (int l = 0; l < qc; ++l) {
        const size_t pt = (static_cast<size_t>(i) * qb + j) * qc + l;
        double wc[3] = {0, 0, 0};  // the weights of the collapsed derivatives
        for (int e = 0; e < d; ++e)
          for (int r = 0; r < d; ++r) wc[e] += chain_[(pt * d + r) * d + e] * gradients[pt * d + r];
        for (int p = 0; p <= k; ++p) {
          const double ap = A_[static_cast<size_t>(p) * qa + i], dap = dA_[static_cast<size_t>(p) * qa + i];
          G(0, p, j, l) += ap * values[pt] + dap * wc[0];
          G(1, p, j, l) += ap * wc[1];
          if (d == 3) G(2, p, j, l) += ap * wc[2];
        }
      }
  const long long flops = 2LL * d * d * n_points_ + (d + 1) * 2LL * qa * qb * qc * (k + 1);
  return flops + last_stages(g, lagrange);
}

long long SumFactorisedElement::last_stages(const std::vector<double> &g, double *lagrange) const
{
  const int k = degree_, n = n_, qb = q_[1], qc = q_[2];
  auto G = [&](int e, int p, int j, int l) { return g[g_index(e, p, j, l)]; };
  long long flops = 2LL * n * n;
  std::vector<double> w(static_cast<size_t>(n), 0.0);
  if (dim_ == 2) {
    int idx = 0;
    for (int p = 0; p <= k; ++p)
      for (int q = 0; q <= k - p; ++q, ++idx)
        for (int j = 0; j < qb; ++j)
          w[idx] += B_[static_cast<size_t>(idx) * qb + j] * G(0, p, j, 0) + dB_[static_cast<size_t>(idx) * qb + j] * G(1, p, j, 0);
    flops += 2 * 2LL * qb * n;
  } else {
    const int n_pq = (k + 1) * (k + 2) / 2;
    std::vector<double> h(static_cast<size_t>(2) * n_pq * qc, 0.0);  // [plain, for dC][(p,q)][l]
    int pq = 0;
    for (int p = 0; p <= k; ++p)
      for (int q = 0; q <= k - p; ++q, ++pq)
        for (int j = 0; j < qb; ++j)
          for (int l = 0; l < qc; ++l) {
            h[static_cast<size_t>(pq) * qc + l] += B_[static_cast<size_t>(pq) * qb + j] * G(0, p, j, l) + dB_[static_cast<size_t>(pq) * qb + j] * G(1, p, j, l);
            h[(static_cast<size_t>(n_pq) + pq) * qc + l] += B_[static_cast<size_t>(pq) * qb + j] * G(2, p, j, l);
          }
    int idx = 0;
    pq = 0;
    for (int p = 0; p <= k; ++p)
      for (int q = 0; q <= k - p; ++q, ++pq)
        for (int r = 0; r <= k - p - q; ++r, ++idx)
          for (int l = 0; l < qc; ++l)
            w[idx] += C_[static_cast<size_t>(idx) * qc + l] * h[static_cast<size_t>(pq) * qc + l] +
                      dC_[static_cast<size_t>(idx) * qc + l] * h[(static_cast<size_t>(n_pq) + pq) * qc + l];
    flops += 3 * 2LL * qb * qc * n_pq + 2 * 2LL * qc * n;
  }
  for (int c = 0; c < n; ++c)
    for (int r = 0; r < n; ++r) lagrange[c] += to_warped_[static_cast<size_t>(r) * n + c] * w[r];
  return flops;
}

}  // namespace femgpu
