// Sum factorisation on simplices (fem/sum_factorisation.h): values, reference gradients
// and their transpose at the collapsed tensor points agree with the dense PetscFE
// tabulation on random Lagrange coefficients, P1-P8 triangles and P1-P6 tetrahedra; the
// flops it reports are the stage-by-stage count, at most the offline study's upper bound
// (records/sum_factorisation_flops.py); a collapsed Gauss-Jacobi rule's points
// are its 1D points' tensor product; bad input throws.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

#include "fem/quadrature.h"
#include "fem/sum_factorisation.h"
#include "fem/tabulation.h"

using namespace femgpu;

namespace {

// q Chebyshev points inside (-1, 1), shifted by `shift` so that the directions differ.
std::vector<double> points_1d(int q, double shift)
{
  std::vector<double> t;
  const double pi = 3.14159265358979323846;
  for (int i = 0; i < q; ++i) t.push_back(0.98 * std::cos(pi * (2 * i + 1 + shift) / (2 * q + 2)));
  return t;
}

std::vector<double> random_vector(std::size_t n, std::mt19937 &gen)
{
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> v(n);
  for (double &x : v) x = u(gen);
  return v;
}

MultiIndex unit(int d)
{
  MultiIndex a{0, 0, 0};
  a[d] = 1;
  return a;
}

double max_abs(const std::vector<double> &v)
{
  double m = 0;
  for (double x : v) m = std::max(m, std::fabs(x));
  return m;
}

void check_against_dense(int dim, int degree, int q)
{
  INFO("dim " << dim << ", P" << degree << ", " << q << " points a direction");
  const SumFactorisedElement e(dim, degree, lagrange_nodes(dim, degree), {points_1d(q, 0.0), points_1d(q, 0.3), points_1d(q, 0.6)});
  const int n = e.n_basis(), m = e.n_points();
  REQUIRE(m == static_cast<int>(std::pow(q, dim)));
  const BasisTable t = tabulate_lagrange(dim, degree, e.points(), 1);
  REQUIRE(t.n_basis == n);
  std::mt19937 gen(1000u * dim + degree);
  const std::vector<double> u = random_vector(static_cast<std::size_t>(n), gen);

  std::vector<double> values(static_cast<std::size_t>(m), std::nan("")), grads(static_cast<std::size_t>(m) * dim, std::nan(""));
  e.evaluate(u.data(), values.data(), grads.data());
  std::vector<double> dv(values.size()), dg(grads.size());
  for (int pt = 0; pt < m; ++pt)
    for (int j = 0; j < n; ++j) {
      dv[static_cast<std::size_t>(pt)] += t(MultiIndex{0, 0, 0}, pt, j) * u[static_cast<std::size_t>(j)];
      for (int d = 0; d < dim; ++d) dg[static_cast<std::size_t>(pt) * dim + d] += t(unit(d), pt, j) * u[static_cast<std::size_t>(j)];
    }
  std::vector<double> ev(values.size()), eg(grads.size());
  for (std::size_t i = 0; i < ev.size(); ++i) ev[i] = values[i] - dv[i];
  for (std::size_t i = 0; i < eg.size(); ++i) eg[i] = grads[i] - dg[i];
  CHECK(max_abs(ev) <= 1e-10 * std::max(1.0, max_abs(dv)));
  CHECK(max_abs(eg) <= 1e-9 * std::max(1.0, max_abs(dg)));

  // The transpose: sum over points of v L_j + g . grad L_j, added to what is there.
  const std::vector<double> v = random_vector(values.size(), gen), g = random_vector(grads.size(), gen);
  const std::vector<double> start = random_vector(static_cast<std::size_t>(n), gen);
  std::vector<double> r = start, dr = start;
  e.integrate(v.data(), g.data(), r.data());
  for (int j = 0; j < n; ++j)
    for (int pt = 0; pt < m; ++pt) {
      double s = t(MultiIndex{0, 0, 0}, pt, j) * v[static_cast<std::size_t>(pt)];
      for (int d = 0; d < dim; ++d) s += t(unit(d), pt, j) * g[static_cast<std::size_t>(pt) * dim + d];
      dr[static_cast<std::size_t>(j)] += s;
    }
  std::vector<double> er(r.size());
  for (std::size_t i = 0; i < er.size(); ++i) er[i] = r[i] - dr[i];
  CHECK(max_abs(er) <= 1e-9 * std::max(1.0, max_abs(dr)));
}

}  // namespace

TEST_CASE("sum factorisation on triangles P1-P8 matches the dense tabulation, forward and transposed", "[sum_factorisation]")
{
  for (int k = 1; k <= 8; ++k) check_against_dense(2, k, k + 2);
}

TEST_CASE("sum factorisation on tetrahedra P1-P6 matches the dense tabulation, forward and transposed", "[sum_factorisation]")
{
  for (int k = 1; k <= 6; ++k) check_against_dense(3, k, k + 2);
}

TEST_CASE("sum factorisation counts its flops stage by stage, within the offline study's bound", "[sum_factorisation]")
{
  // Tetrahedra, P5, 9 points a direction (hyperelasticity 3D P5's collapsed rule).
  const int k = 5, q = 9, n = 56, n_pq = 21, pts = q * q * q;
  const SumFactorisedElement e(3, k, lagrange_nodes(3, k), {points_1d(q, 0.0), points_1d(q, 0.3), points_1d(q, 0.6)});
  std::vector<double> u(n, 0.5), values(pts), grads(3 * pts);
  const long long forward = e.evaluate(u.data(), values.data(), grads.data());
  // Change of basis, stage c (plain and derivative factors), stage b (three), stage a
  // (value and three derivatives), chain rule.
  CHECK(forward == 2LL * n * n + 2 * 2LL * q * n + 3 * 2LL * q * q * n_pq + 4 * 2LL * pts * (k + 1) + 2LL * 9 * pts);
  CHECK(e.integrate(values.data(), grads.data(), u.data()) == forward);
  // The study counts each of the four rows as its own pass (sf_row) plus the change of
  // basis and the chain rule: an upper bound.
  const long long sf_row = 2LL * q * n + 2LL * q * q * n_pq + 2LL * pts * (k + 1);
  CHECK(forward <= 4 * sf_row + 2LL * n * n + 2LL * 9 * pts);
}

TEST_CASE("sum factorisation rejects a wrong node count, points outside (-1, 1) and an unsupported dimension", "[sum_factorisation]")
{
  const std::array<std::vector<double>, 3> p = {points_1d(3, 0), points_1d(3, 0.3), points_1d(3, 0.6)};
  CHECK_THROWS_AS(SumFactorisedElement(2, 2, lagrange_nodes(2, 1), p), std::invalid_argument);
  CHECK_THROWS_AS(SumFactorisedElement(2, 2, lagrange_nodes(2, 2), {std::vector<double>{0.0, 1.0}, points_1d(3, 0.3), {}}),
                  std::invalid_argument);
  CHECK_THROWS_AS(SumFactorisedElement(1, 2, std::vector<double>(3, 0.0), p), std::invalid_argument);
}

TEST_CASE("a collapsed Gauss-Jacobi rule is the tensor product of its 1D collapsed points, and a symmetric rule is not", "[sum_factorisation]")
{
  // Hyperelasticity 3D P5's rule (degree 16, 9^3 points) and a triangle rule beyond the
  // symmetric tables (degree 32, 17^2 points).
  for (const auto &[dim, degree, degree_p] : {std::array<int, 3>{3, 16, 5}, std::array<int, 3>{2, 32, 8}}) {
    INFO("dim " << dim << ", degree " << degree);
    const QuadratureRule rule = simplex_quadrature(dim, degree, default_share_dir());
    REQUIRE(rule.family == "stroud-conical");
    const std::array<std::vector<double>, 3> axes = collapsed_points_1d(dim, rule.points);
    const SumFactorisedElement e(dim, degree_p, lagrange_nodes(dim, degree_p), axes);
    REQUIRE(e.n_points() == rule.size());
    // Every rule point is one of the element's points.
    for (int i = 0; i < rule.size(); ++i) {
      bool found = false;
      for (int j = 0; j < e.n_points() && !found; ++j) {
        double dist = 0;
        for (int d = 0; d < dim; ++d)
          dist = std::max(dist, std::fabs(rule.points[static_cast<std::size_t>(i * dim + d)] - e.points()[static_cast<std::size_t>(j * dim + d)]));
        found = dist < 1e-12;
      }
      CHECK(found);
    }
  }
  const QuadratureRule symmetric = simplex_quadrature(2, 4, default_share_dir());
  REQUIRE(symmetric.family == "xiao-gimbutas");
  CHECK_THROWS_AS(collapsed_points_1d(2, symmetric.points), std::invalid_argument);
}
