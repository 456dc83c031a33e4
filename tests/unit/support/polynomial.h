// Exact polynomial arithmetic for tests: multivariate polynomials in physical x, their
// derivatives, and exact integrals over simplices (closed form, no quadrature).
#pragma once

#include <array>
#include <cmath>
#include <map>
#include <random>
#include <vector>

namespace femgpu::test {

using Exponent = std::array<int, 3>;

struct Poly {
  std::map<Exponent, double> terms;

  static Poly constant(double c) { Poly p; p.terms[{0, 0, 0}] = c; return p; }
  static Poly coordinate(int i)
  {
    Poly p;
    Exponent e{0, 0, 0};
    e[static_cast<size_t>(i)] = 1;
    p.terms[e] = 1.0;
    return p;
  }
  // Random coefficients in [-1, 1] for every monomial of total degree <= degree.
  static Poly random(int dim, int degree, std::mt19937 &rng)
  {
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    Poly p;
    for (int a = 0; a <= degree; ++a)
      for (int b = 0; a + b <= degree; ++b)
        for (int c = 0; a + b + c <= degree; ++c)
          if (dim == 3 || c == 0) p.terms[{a, b, c}] = u(rng);
    return p;
  }

  double operator()(const double *x) const
  {
    double s = 0.0;
    for (const auto &[e, c] : terms) s += c * std::pow(x[0], e[0]) * std::pow(x[1], e[1]) * std::pow(x[2], e[2]);
    return s;
  }
  Poly derivative(int i) const
  {
    Poly d;
    for (const auto &[e, c] : terms) {
      if (e[static_cast<size_t>(i)] == 0) continue;
      Exponent f = e;
      f[static_cast<size_t>(i)] -= 1;
      d.terms[f] += c * e[static_cast<size_t>(i)];
    }
    return d;
  }
};

inline Poly operator+(const Poly &a, const Poly &b)
{
  Poly r = a;
  for (const auto &[e, c] : b.terms) r.terms[e] += c;
  return r;
}
inline Poly operator*(double s, const Poly &a)
{
  Poly r = a;
  for (auto &t : r.terms) t.second *= s;
  return r;
}
inline Poly operator*(const Poly &a, const Poly &b)
{
  Poly r;
  for (const auto &[ea, ca] : a.terms)
    for (const auto &[eb, cb] : b.terms) r.terms[{ea[0] + eb[0], ea[1] + eb[1], ea[2] + eb[2]}] += ca * cb;
  return r;
}

inline double factorial(int n) { return std::tgamma(n + 1.0); }

// Exact integral over the simplex with the given vertices ((dim+1) x dim, row-major):
// substitute x = P0 + A xi and use  int_{unit simplex} xi^b = prod(b_i!) / (|b| + dim)!.
inline double integrate(const Poly &p, const std::vector<double> &vertices, int dim)
{
  std::vector<Poly> x(3, Poly::constant(0.0));  // x_i as polynomials in xi
  for (int i = 0; i < dim; ++i) {
    x[static_cast<size_t>(i)] = Poly::constant(vertices[static_cast<size_t>(i)]);
    for (int k = 0; k < dim; ++k)
      x[static_cast<size_t>(i)] = x[static_cast<size_t>(i)] +
          (vertices[static_cast<size_t>((k + 1) * dim + i)] - vertices[static_cast<size_t>(i)]) * Poly::coordinate(k);
  }
  double detA;
  auto A = [&](int i, int k) { return vertices[static_cast<size_t>((k + 1) * dim + i)] - vertices[static_cast<size_t>(i)]; };
  if (dim == 2) detA = A(0, 0) * A(1, 1) - A(0, 1) * A(1, 0);
  else
    detA = A(0, 0) * (A(1, 1) * A(2, 2) - A(1, 2) * A(2, 1)) - A(0, 1) * (A(1, 0) * A(2, 2) - A(1, 2) * A(2, 0)) +
           A(0, 2) * (A(1, 0) * A(2, 1) - A(1, 1) * A(2, 0));
  double total = 0.0;
  for (const auto &[e, c] : p.terms) {
    Poly m = Poly::constant(c);
    for (int i = 0; i < dim; ++i)
      for (int k = 0; k < e[static_cast<size_t>(i)]; ++k) m = m * x[static_cast<size_t>(i)];
    for (const auto &[b, cb] : m.terms)
      total += cb * factorial(b[0]) * factorial(b[1]) * factorial(b[2]) / factorial(b[0] + b[1] + b[2] + dim);
  }
  return total * std::fabs(detA);
}

}  // namespace femgpu::test
