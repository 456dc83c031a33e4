// The compressed tables of compressed_points.h.
#include "fem/compressed_points.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "ir/pointwise_linearity.h"

namespace femgpu {

namespace {

double dot(const std::vector<double> &a, const std::vector<double> &b)
{
  double s = 0.0;
  for (size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

void remove_component(std::vector<double> &v, const std::vector<double> &u)
{
  const double c = dot(u, v);
  for (size_t i = 0; i < v.size(); ++i) v[i] -= c * u[i];
}

// The columns of a Q x n point-major table, each scaled pointwise by `scale`.
std::vector<std::vector<double>> table_columns(const std::vector<double> &table, int Q, const std::vector<double> &scale)
{
  const int n = static_cast<int>(table.size()) / Q;
  std::vector<std::vector<double>> cols(static_cast<size_t>(n), std::vector<double>(static_cast<size_t>(Q)));
  for (int q = 0; q < Q; ++q)
    for (int a = 0; a < n; ++a)
      cols[static_cast<size_t>(a)][static_cast<size_t>(q)] = table[static_cast<size_t>(q * n + a)] * scale[static_cast<size_t>(q)];
  return cols;
}

// U^T S T for a Q x n point-major table T and S = diag(scale): r x n, point-major.
std::vector<double> project(const std::vector<double> &U, int r, const std::vector<double> &table, int Q, const std::vector<double> &scale)
{
  const std::vector<std::vector<double>> cols = table_columns(table, Q, scale);
  const int n = static_cast<int>(cols.size());
  std::vector<double> out(static_cast<size_t>(r * n), 0.0);
  for (int s = 0; s < r; ++s)
    for (int a = 0; a < n; ++a) {
      double v = 0.0;
      for (int q = 0; q < Q; ++q) v += U[static_cast<size_t>(q * r + s)] * cols[static_cast<size_t>(a)][static_cast<size_t>(q)];
      out[static_cast<size_t>(s * n + a)] = v;
    }
  return out;
}

// Relative to the largest test-table column. For the shipped forms at 2D P4-P8 and 3D
// P4-P6 every kept direction's remainder is above 1e-2 and every dependent one's below
// 1e-14 (the rank is the same for any tolerance between), so this is far from both.
constexpr double kDependentBelow = 1e-10;

// One square test table C (r = n_test): Y = C^T (sum_i M_i D_i) X = I^T (sum_i M_i C^T D_i) X,
// so the group tables become C^T D_i (the reference element matrices, n_test x n) and
// the test table the identity.
void make_test_identity(Tabulation &tab)
{
  const std::vector<double> C = tab.test_tables[0];
  const int r = tab.n_points();
  for (auto &group : tab.group_tables)
    for (auto &D : group) {
      const int n = static_cast<int>(D.size()) / r;
      std::vector<double> CtD(static_cast<size_t>(r * n), 0.0);
      for (int i = 0; i < r; ++i)
        for (int a = 0; a < n; ++a) {
          double v = 0.0;
          for (int s = 0; s < r; ++s) v += C[static_cast<size_t>(s * r + i)] * D[static_cast<size_t>(s * n + a)];
          CtD[static_cast<size_t>(i * n + a)] = v;
        }
      D = std::move(CtD);
    }
  std::vector<double> identity(static_cast<size_t>(r * r), 0.0);
  for (int i = 0; i < r; ++i) identity[static_cast<size_t>(i * r + i)] = 1.0;
  tab.test_tables[0] = std::move(identity);
  tab.test_identity = true;
}

}  // namespace

std::vector<double> orthonormal_span(const std::vector<std::vector<double>> &columns, int rows, double rel_tol)
{
  std::vector<std::vector<double>> rest = columns;
  double largest = 0.0;
  for (const auto &c : rest) largest = std::max(largest, std::sqrt(dot(c, c)));
  std::vector<std::vector<double>> basis;
  while (static_cast<int>(basis.size()) < rows) {
    size_t pick = 0;
    double pick_norm = -1.0;
    for (size_t i = 0; i < rest.size(); ++i) {
      const double n = std::sqrt(dot(rest[i], rest[i]));
      if (n > pick_norm) pick = i, pick_norm = n;
    }
    if (rest.empty() || pick_norm <= rel_tol * largest) break;
    std::vector<double> u = rest[pick];
    for (const auto &b : basis) remove_component(u, b);  // twice: Gram-Schmidt's lost orthogonality back
    const double n = std::sqrt(dot(u, u));
    for (double &x : u) x /= n;
    rest.erase(rest.begin() + static_cast<long>(pick));
    for (auto &c : rest) remove_component(c, u);
    basis.push_back(std::move(u));
  }
  const int r = static_cast<int>(basis.size());
  std::vector<double> U(static_cast<size_t>(rows * r));
  for (int q = 0; q < rows; ++q)
    for (int s = 0; s < r; ++s) U[static_cast<size_t>(q * r + s)] = basis[static_cast<size_t>(s)][static_cast<size_t>(q)];
  return U;
}

Tabulation compress_points(const ActionIR &ir, Tabulation tab)
{
  const int Q = tab.n_points();
  // compressed() is also true of tables whose test side is already the identity.
  if (tab.compressed() || !same_linear_map_at_every_point(ir)) return tab;
  // The square roots of the weights scale both sides, so that a test table equal to a
  // trial table (mass: Psi = Phi) stays equal and the kernels still merge them.
  std::vector<double> root(static_cast<size_t>(Q));
  for (int q = 0; q < Q; ++q) {
    if (!(tab.weights[static_cast<size_t>(q)] > 0.0)) return tab;
    root[static_cast<size_t>(q)] = std::sqrt(tab.weights[static_cast<size_t>(q)]);
  }
  std::vector<std::vector<double>> columns;
  for (const auto &t : tab.test_tables) {
    auto c = table_columns(t, Q, root);
    columns.insert(columns.end(), c.begin(), c.end());
  }
  const std::vector<double> U = orthonormal_span(columns, Q, kDependentBelow);
  const int r = static_cast<int>(U.size()) / Q;
  const bool square_test = tab.test_tables.size() == 1 && r == ir.n_test_basis;
  if (r >= Q && !square_test) return tab;
  for (auto &t : tab.test_tables) t = project(U, r, t, Q, root);
  for (auto &group : tab.group_tables)
    for (auto &t : group) t = project(U, r, t, Q, root);
  tab.weights.assign(static_cast<size_t>(r), 1.0);
  if (square_test) make_test_identity(tab);
  return tab;
}

}  // namespace femgpu
