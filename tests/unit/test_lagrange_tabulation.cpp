// Lagrange tabulation through PetscFE: basis size, partition of unity, the Kronecker
// property at lagrange_nodes, and first/second reference derivatives against central
// finite differences, at random interior points of PETSc's [-1,1] simplex.
#include <catch2/catch.hpp>

#include "fem/tabulation.h"
#include "form/form.h"  // lagrange_dimension

#include <algorithm>
#include <cmath>
#include <random>

using femgpu::BasisTable;
using femgpu::MultiIndex;
using femgpu::tabulate_lagrange;

namespace {

// Random points strictly inside the reference simplex (barycentric weights >= 0.05).
std::vector<double> interior_points(int dim, int n, unsigned seed)
{
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(0.05, 1.0);
  std::vector<double> pts;
  for (int p = 0; p < n; ++p) {
    double lam[4], sum = 0;
    for (int i = 0; i <= dim; ++i) sum += (lam[i] = u(gen));
    // Vertex 0 is (-1,..,-1); vertex i+1 is -1 plus 2 along direction i.
    for (int i = 0; i < dim; ++i) pts.push_back(-1.0 + 2.0 * lam[i + 1] / sum);
  }
  return pts;
}

MultiIndex unit(int i)
{
  MultiIndex a{0, 0, 0};
  a[i] = 1;
  return a;
}

std::vector<double> shifted(std::vector<double> pts, int dim, int dir, double h)
{
  for (size_t p = 0; p < pts.size() / dim; ++p) pts[p * dim + dir] += h;
  return pts;
}

// Checks table `d` (derivative `alpha` + e_dir) against the central difference along
// dir of the `alpha` entries of tables tabulated at x +- h e_dir.
void check_difference(const BasisTable &t, const BasisTable &plus, const BasisTable &minus,
                      const MultiIndex &alpha, int dir, double h)
{
  MultiIndex target = alpha;
  target[dir] += 1;
  for (int p = 0; p < t.n_points; ++p) {
    double scale = 1;
    for (int b = 0; b < t.n_basis; ++b) scale = std::max(scale, std::abs(t(target, p, b)));
    for (int b = 0; b < t.n_basis; ++b) {
      const double fd = (plus(alpha, p, b) - minus(alpha, p, b)) / (2 * h);
      INFO("point " << p << " basis " << b << " alpha (" << target[0] << "," << target[1]
                    << "," << target[2] << ")");
      CHECK(std::abs(fd - t(target, p, b)) <= 1e-6 * scale);
    }
  }
}

const int kMaxDegree[4] = {0, 0, 8, 6};

}  // namespace

TEST_CASE("Lagrange tables have the P_k dimension and every multi-index", "[tabulation]")
{
  for (int dim = 2; dim <= 3; ++dim)
    for (int k = 1; k <= kMaxDegree[dim]; ++k) {
      const BasisTable t = tabulate_lagrange(dim, k, interior_points(dim, 3, 1), 2);
      CHECK(t.n_basis == femgpu::lagrange_dimension(dim, k));
      CHECK(t.n_points == 3);
      // 1 value, dim first and dim(dim+1)/2 second derivatives.
      CHECK(t.table.size() == static_cast<size_t>(1 + dim + dim * (dim + 1) / 2));
      CHECK(t.at({1, 1, 0}).size() == static_cast<size_t>(3 * t.n_basis));
    }
  CHECK(femgpu::lagrange_dimension(2, 3) == 10);
  CHECK(femgpu::lagrange_dimension(3, 3) == 20);
}

TEST_CASE("Lagrange bases are a partition of unity", "[tabulation]")
{
  for (int dim = 2; dim <= 3; ++dim)
    for (int k = 1; k <= kMaxDegree[dim]; ++k) {
      INFO("dim " << dim << " degree " << k);
      const BasisTable t = tabulate_lagrange(dim, k, interior_points(dim, 10, 2), 2);
      for (const auto &[alpha, values] : t.table)
        for (int p = 0; p < t.n_points; ++p) {
          double sum = 0, scale = 1;
          for (int b = 0; b < t.n_basis; ++b) {
            sum += t(alpha, p, b);
            scale = std::max(scale, std::abs(t(alpha, p, b)));
          }
          CHECK(std::abs(sum - (femgpu::order(alpha) == 0 ? 1.0 : 0.0)) < 1e-11 * scale);
        }
    }
}

TEST_CASE("Lagrange basis functions are one at their own node and zero at the others",
          "[tabulation]")
{
  for (int dim = 2; dim <= 3; ++dim)
    for (int k = 1; k <= kMaxDegree[dim]; ++k) {
      INFO("dim " << dim << " degree " << k);
      const std::vector<double> nodes = femgpu::lagrange_nodes(dim, k);
      REQUIRE(nodes.size() == static_cast<size_t>(femgpu::lagrange_dimension(dim, k) * dim));
      const BasisTable t = tabulate_lagrange(dim, k, nodes, 0);
      for (int j = 0; j < t.n_points; ++j)
        for (int i = 0; i < t.n_basis; ++i)
          CHECK(t({0, 0, 0}, j, i) == Approx(i == j ? 1.0 : 0.0).margin(1e-11));
    }
}

TEST_CASE("Reference derivatives match central finite differences", "[tabulation]")
{
  const double h = 1e-5;
  for (int dim = 2; dim <= 3; ++dim)
    for (int k = 1; k <= kMaxDegree[dim]; ++k) {
      INFO("dim " << dim << " degree " << k);
      const std::vector<double> pts = interior_points(dim, 5, 3);
      const BasisTable t = tabulate_lagrange(dim, k, pts, 2);
      for (int dir = 0; dir < dim; ++dir) {
        const BasisTable plus = tabulate_lagrange(dim, k, shifted(pts, dim, dir, h), 1);
        const BasisTable minus = tabulate_lagrange(dim, k, shifted(pts, dim, dir, -h), 1);
        check_difference(t, plus, minus, {0, 0, 0}, dir, h);  // gradient from values
        // Second derivatives from the gradient: d/dX_dir of d/dX_i, i <= dir covers all.
        for (int i = 0; i <= dir; ++i) check_difference(t, plus, minus, unit(i), dir, h);
      }
    }
}

TEST_CASE("Second derivatives match differences of values for P2", "[tabulation]")
{
  // Second differences of values need a larger step; P2 has no truncation error.
  const double h = 1e-3;
  const std::vector<double> pts = interior_points(2, 4, 4);
  const BasisTable t = tabulate_lagrange(2, 2, pts, 2);
  const BasisTable p = tabulate_lagrange(2, 2, shifted(pts, 2, 0, h), 0);
  const BasisTable m = tabulate_lagrange(2, 2, shifted(pts, 2, 0, -h), 0);
  for (int q = 0; q < t.n_points; ++q)
    for (int b = 0; b < t.n_basis; ++b) {
      const double fd = (p({0, 0, 0}, q, b) - 2 * t({0, 0, 0}, q, b) + m({0, 0, 0}, q, b)) / (h * h);
      CHECK(fd == Approx(t({2, 0, 0}, q, b)).margin(1e-6));
    }
}

TEST_CASE("Absent derivatives and unsupported orders throw", "[tabulation]")
{
  const BasisTable t = tabulate_lagrange(2, 1, interior_points(2, 1, 5), 1);
  CHECK_THROWS_AS(t.at({1, 1, 0}), std::out_of_range);
  CHECK_THROWS_AS(t.at({0, 0, 1}), std::out_of_range);
  CHECK_THROWS_AS(tabulate_lagrange(2, 1, interior_points(2, 1, 5), 3), std::invalid_argument);
  CHECK(femgpu::order({1, 1, 0}) == 2);
}
