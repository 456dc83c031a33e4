// Quadrature rules: Xiao-Gimbutas point counts, reference volume, polynomial exactness
// (and the lack of it one or two degrees higher), the Stroud conical fallback, and the
// errors for a missing or malformed share folder.
//
// Exact integrals use the basis (1+X)^a (1+Y)^b (1+Z)^c on PETSc's [-1,1] simplex: with
// X = 2x - 1 it is 2^(a+b+c) x^a y^b z^c, and dX = 2^d dx, so its integral is
// 2^(a+b+c+d) a! b! c! / (a+b+c+d)!. These products span every polynomial of degree n.
#include <catch2/catch.hpp>

#include "fem/quadrature.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

using femgpu::QuadratureRule;
using femgpu::simplex_quadrature;

namespace {

long double factorial(int n)
{
  long double f = 1;
  for (int i = 2; i <= n; ++i) f *= i;
  return f;
}

double exact_integral(int dim, const int *a)
{
  int n = 0;
  long double num = 1;
  for (int i = 0; i < dim; ++i) {
    n += a[i];
    num *= factorial(a[i]);
  }
  return static_cast<double>(std::ldexp(num / factorial(n + dim), n + dim));
}

double rule_integral(const QuadratureRule &q, const int *a)
{
  double sum = 0;
  for (int p = 0; p < q.size(); ++p) {
    double f = q.weights[p];
    for (int i = 0; i < q.dim; ++i) f *= std::pow(1.0 + q.points[p * q.dim + i], a[i]);
    sum += f;
  }
  return sum;
}

// Largest relative error over all basis products of total degree exactly n.
double max_relative_error(const QuadratureRule &q, int n)
{
  double worst = 0;
  int a[3] = {0, 0, 0};
  const int top1 = q.dim > 1 ? n : 0, top2 = q.dim > 2 ? n : 0;
  for (a[1] = 0; a[1] <= top1; ++a[1])
    for (a[2] = 0; a[2] <= top2 && a[1] + a[2] <= n; ++a[2]) {
      a[0] = n - a[1] - a[2];
      const double exact = exact_integral(q.dim, a);
      worst = std::max(worst, std::abs(rule_integral(q, a) - exact) / exact);
    }
  return worst;
}

double max_error_up_to(const QuadratureRule &q, int degree)
{
  double worst = 0;
  for (int n = 0; n <= degree; ++n) worst = std::max(worst, max_relative_error(q, n));
  return worst;
}

const double kReferenceVolume[4] = {0, 2.0, 2.0, 4.0 / 3.0};

}  // namespace

TEST_CASE("Xiao-Gimbutas rules have the published point counts", "[quadrature]")
{
  const std::string share = femgpu::default_share_dir();
  const int cases[][3] = {{2, 6, 12}, {2, 8, 16}, {2, 20, 79}, {3, 6, 23}, {3, 8, 44}};
  for (const auto &c : cases) {
    INFO("dim " << c[0] << " degree " << c[1]);
    const QuadratureRule q = simplex_quadrature(c[0], c[1], share);
    CHECK(q.family == "xiao-gimbutas");
    CHECK(q.degree == c[1]);
    CHECK(q.size() == c[2]);
    CHECK(q.points.size() == static_cast<size_t>(c[2] * c[0]));
  }
}

TEST_CASE("Xiao-Gimbutas rules integrate every polynomial up to their degree exactly",
          "[quadrature]")
{
  const std::string share = femgpu::default_share_dir();
  const int max_degree[4] = {0, 0, 30, 15};
  for (int dim = 2; dim <= 3; ++dim)
    for (int k = 1; k <= max_degree[dim]; ++k) {
      INFO("dim " << dim << " degree " << k);
      const QuadratureRule q = simplex_quadrature(dim, k, share);
      REQUIRE(q.family == "xiao-gimbutas");
      double wsum = 0;
      for (double w : q.weights) wsum += w;
      CHECK(wsum == Approx(kReferenceVolume[dim]).epsilon(1e-14));
      CHECK(max_error_up_to(q, k) < 1e-13);
      // Triangle degree 3 is exact to degree 4 (it is the 6-point degree-4 rule), so
      // look two degrees up: every tabulated rule fails there, by >= 1e-9 relative.
      CHECK(std::max(max_relative_error(q, k + 1), max_relative_error(q, k + 2)) > 1e-10);
    }
}

TEST_CASE("Degree 0 gives the degree-1 rule", "[quadrature]")
{
  const QuadratureRule q = simplex_quadrature(2, 0, femgpu::default_share_dir());
  CHECK(q.degree == 1);
  CHECK(q.size() == 1);
  CHECK(q.weights[0] == Approx(2.0));
}

TEST_CASE("Degrees beyond the tables fall back to exact Stroud conical rules",
          "[quadrature]")
{
  const std::string share = femgpu::default_share_dir();
  const int cases[][2] = {{2, 31}, {2, 32}, {2, 33}, {3, 16}, {3, 17}, {3, 18}, {3, 19},
                          {3, 20}, {1, 7}};
  for (const auto &c : cases) {
    INFO("dim " << c[0] << " degree " << c[1]);
    const QuadratureRule q = simplex_quadrature(c[0], c[1], share);
    CHECK(q.family == "stroud-conical");
    CHECK(q.degree == c[1]);
    const int n1d = (c[1] + 3) / 2;  // ceil((degree + 2) / 2)
    CHECK(q.size() == static_cast<int>(std::pow(n1d, c[0])));
    CHECK(max_error_up_to(q, c[1]) < 1e-13);
  }
}

TEST_CASE("A missing share folder names the file it looked for", "[quadrature]")
{
  CHECK_THROWS_WITH(simplex_quadrature(2, 4, "/nonexistent/femgpu"),
                    Catch::Contains("/nonexistent/femgpu/quadrature/xiao_gimbutas_triangle.txt"));
  CHECK_THROWS_AS(simplex_quadrature(3, 4, "/nonexistent/femgpu"), std::runtime_error);
}

TEST_CASE("A malformed table reports its path and line", "[quadrature]")
{
  const std::string dir =
      (std::filesystem::temp_directory_path() / "femgpu_test_share_malformed").string();
  std::filesystem::create_directories(dir + "/quadrature");
  {
    std::ofstream f(dir + "/quadrature/xiao_gimbutas_triangle.txt");
    f << "# comment\ndegree 1 points 1\n0.3 0.3 0.5\ndegree 2 points 3\n0.1 0.1\n";
  }
  CHECK_THROWS_WITH(simplex_quadrature(2, 2, dir),
                    Catch::Contains("xiao_gimbutas_triangle.txt:5"));
}

TEST_CASE("The default share folder is the source tree's share/femgpu", "[quadrature]")
{
  CHECK(femgpu::default_share_dir() == std::string(FEMGPU_SOURCE_DIR) + "/share/femgpu");
}
