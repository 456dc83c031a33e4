// derivative(F, w, u): the action of the lowered Jacobian equals a central finite
// difference of the residual, (F(w + h du) - F(w - h du)) / 2h.
#include <catch2/catch.hpp>

#include <cmath>

#include "fem/action_tables.h"
#include "ir/lower.h"
#include "support/cell_mesh.h"
#include "support/forms_api.h"

using namespace femgpu;
using namespace femgpu::test;

namespace {

struct Applied {
  ActionIR ir;
  Tabulation tab;
};

Applied lowered(const Form &f, int rank, std::optional<int> degree = std::nullopt)
{
  LowerOptions o;
  o.rank = rank;
  o.quadrature_degree = degree;
  ActionIR ir = lower_form(f, o);
  Tabulation tab = tabulate_action(ir, default_share_dir());
  return {ir, tab};
}

std::vector<double> apply(const Applied &a, const CellMesh &m, const std::vector<int> &map, const double *trial,
                          const std::vector<double> &w)
{
  ActionArrays arrays;
  arrays.n_cells = m.n_cells;
  arrays.coordinates = {m.vertices.data(), m.coordinate_map.data()};
  if (trial) arrays.trial = {trial, map.data()};
  arrays.coefficients = {{w.data(), map.data()}};
  arrays.test_map = map.data();
  for (const ConstantInfo &c : a.ir.constants) arrays.constants.push_back(c.default_value);
  std::vector<double> out(w.size(), 0.0);
  reference_action(a.ir, a.tab, arrays, out.data());
  return out;
}

void check_derivative(const std::function<std::vector<Integral>(FormBuilder &)> &residual, int dim, int K, int C)
{
  std::mt19937 rng(7 + static_cast<unsigned>(dim * 10 + K));
  FormSignature sig{dim == 2 ? CellType::Triangle : CellType::Tetrahedron, Element{K, C}, 1};
  FormBuilder b(sig);
  std::vector<Integral> F = residual(b);
  Form Fform = b.make_form(F);
  Expr w = b.coefficient("w");
  Form a = b.make_form(derivative(F, w, b.trial_function()));
  Applied J = lowered(a, 2);
  Applied R = lowered(Fform, 1, J.ir.quadrature_degree);
  // Same quadrature for both, so the comparison tests differentiation only.
  REQUIRE(R.tab.n_points() == J.tab.n_points());

  CellMesh mesh = random_cells(dim, 4, rng);
  const size_t n = static_cast<size_t>(mesh.n_cells * lagrange_dimension(dim, K) * C);
  std::vector<int> map = identity_map(n);
  std::uniform_real_distribution<double> u(-0.3, 0.3);
  std::vector<double> w0(n), du(n);
  for (double &x : w0) x = u(rng);
  for (double &x : du) x = u(rng);

  std::vector<double> Jdu = apply(J, mesh, map, du.data(), w0);
  const double h = 1e-5;
  std::vector<double> wp = w0, wm = w0;
  for (size_t i = 0; i < n; ++i) {
    wp[i] += h * du[i];
    wm[i] -= h * du[i];
  }
  std::vector<double> Fp = apply(R, mesh, map, nullptr, wp), Fm = apply(R, mesh, map, nullptr, wm);
  double num = 0.0, den = 0.0;
  for (size_t i = 0; i < n; ++i) {
    double fd = (Fp[i] - Fm[i]) / (2 * h);
    num += (fd - Jdu[i]) * (fd - Jdu[i]);
    den += Jdu[i] * Jdu[i];
  }
  INFO("dim " << dim << " P" << K << " relative error " << std::sqrt(num / den));
  REQUIRE(den > 0.0);
  CHECK(std::sqrt(num / den) < 1e-6);
}

}  // namespace

TEST_CASE("the Gateaux derivative of hyperelasticity matches finite differences", "[derivative]")
{
  for (int dim : {2, 3})
    for (int K : {1, 2}) check_derivative(hyperelastic_residual, dim, K, dim);
}

TEST_CASE("the Gateaux derivative of a nonlinear diffusion matches finite differences", "[derivative]")
{
  for (int dim : {2, 3})
    for (int K : {1, 3}) check_derivative(nonlinear_diffusion_residual, dim, K, 1);
}
