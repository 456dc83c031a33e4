// A residual F(t, w, w_t; v) with the time derivative w_t of its unknown w: the implied
// Jacobian is TS's IJacobian dF/dw + shift dF/dw_t, which is the derivative of
// s -> F(w + s du, w_t + shift s du) at s = 0: its action equals a central finite difference
// of F along (du, shift du). Beside it, the names the parser refuses and the tables it keeps.
#include <catch2/catch.hpp>

#include <cmath>

#include "fem/action_tables.h"
#include "form/time_dependent.h"
#include "ir/lower.h"
#include "support/cell_mesh.h"
#include "test_form_util.h"

using namespace femgpu;
using namespace femgpu::test;

namespace {

struct Lowered {
  ActionIR ir;
  Tabulation tab;
};

Lowered lowered(const Form &f, int rank, std::optional<int> degree = std::nullopt)
{
  LowerOptions o;
  o.rank = rank;
  o.quadrature_degree = degree;
  ActionIR ir = lower_form(f, o);
  Tabulation tab = tabulate_action(ir, default_share_dir());
  return {ir, tab};
}

// The action with w and w_t (by name) and the constants t and shift.
std::vector<double> apply(const Lowered &l, const CellMesh &m, const std::vector<int> &map, const double *trial, const std::vector<double> &w,
                          const std::vector<double> &w_t, double t, double shift)
{
  ActionArrays arrays;
  arrays.n_cells = m.n_cells;
  arrays.coordinates = {m.vertices.data(), m.coordinate_map.data()};
  if (trial) arrays.trial = {trial, map.data()};
  for (const CoefficientInfo &c : l.ir.coefficients) arrays.coefficients.push_back({c.name == "w_t" ? w_t.data() : w.data(), map.data()});
  arrays.test_map = map.data();
  for (const ConstantInfo &c : l.ir.constants) arrays.constants.push_back(c.name == "t" ? t : c.name == "shift" ? shift : c.default_value);
  std::vector<double> out(w.size(), 0.0);
  reference_action(l.ir, l.tab, arrays, out.data());
  return out;
}

const char *kNonlinearHeat = "w = Coefficient('w')\nw_t = Coefficient('w_t')\nt = Constant('t')\n"
                             "F = (w_t*(1 + w**2) + sin(t)*w**3)*v*dx + (1 + w**2)*inner(grad(w), grad(v))*dx\n";

void check_against_difference(int dim, int degree)
{
  std::mt19937 rng(11 + static_cast<unsigned>(dim * 10 + degree));
  ParsedForms p = parse_form_text(kNonlinearHeat, "heat.ufl", signature(dim, 1, degree));
  REQUIRE(p.F);
  Lowered J = lowered(p.a, 2);
  Lowered R = lowered(*p.F, 1, J.ir.quadrature_degree);  // one rule for both: the test is of differentiation
  CellMesh mesh = random_cells(dim, 4, rng);
  const size_t n = static_cast<size_t>(mesh.n_cells * lagrange_dimension(dim, degree));
  std::vector<int> map = identity_map(n);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  std::vector<double> w(n), w_t(n), du(n);
  for (std::vector<double> *x : {&w, &w_t, &du})
    for (double &y : *x) y = u(rng);
  const double t = 0.7, shift = 12.5, h = 1e-6;
  std::vector<double> Jdu = apply(J, mesh, map, du.data(), w, w_t, t, shift);
  std::vector<double> wp = w, wm = w, wtp = w_t, wtm = w_t;
  for (size_t i = 0; i < n; ++i) {
    wp[i] += h * du[i], wm[i] -= h * du[i];
    wtp[i] += shift * h * du[i], wtm[i] -= shift * h * du[i];
  }
  std::vector<double> Fp = apply(R, mesh, map, nullptr, wp, wtp, t, shift), Fm = apply(R, mesh, map, nullptr, wm, wtm, t, shift);
  double num = 0, den = 0;
  for (size_t i = 0; i < n; ++i) {
    const double fd = (Fp[i] - Fm[i]) / (2 * h);
    num += (fd - Jdu[i]) * (fd - Jdu[i]);
    den += Jdu[i] * Jdu[i];
  }
  INFO("dim " << dim << " P" << degree << " relative difference " << std::sqrt(num / den));
  REQUIRE(den > 0);
  CHECK(std::sqrt(num / den) < 1e-7);
}

bool has_constant(const Form &f, const std::string &name)
{
  for (const ConstantInfo &c : f.constants)
    if (c.name == name) return true;
  return false;
}

}  // namespace

TEST_CASE("time-dependent residual: the implied Jacobian is dF/dw + shift dF/dw_t (finite differences)", "[form][derivative]")
{
  for (int dim : {2, 3})
    for (int degree : {1, 2}) check_against_difference(dim, degree);
}

TEST_CASE("time-dependent residual: F keeps the file's constants, a gets TS's shift", "[form][parser]")
{
  ParsedForms p = parse_form_text(kNonlinearHeat, "heat.ufl", signature(2, 1));
  CHECK(has_constant(p.a, kTimeShiftName));
  CHECK(!has_constant(*p.F, kTimeShiftName));  // an IFunction has no shift
  CHECK(uses_constant(p.a, kTimeShiftName));
  // A steady residual's Jacobian has none; a shift the file declares is the one used.
  ParsedForms steady = parse_form_text("w = Coefficient('w')\nF = inner(grad(w), grad(v))*dx\n", "s.ufl", signature(2, 1));
  CHECK(!has_constant(steady.a, kTimeShiftName));
  ParsedForms declared = parse_form_text("w = Coefficient('w')\nw_t = Coefficient('w_t')\nshift = Constant('shift', 2.0)\n"
                                         "F = w_t*v*dx + inner(grad(w), grad(v))*dx\n",
                                         "d.ufl", signature(2, 1));
  REQUIRE(declared.a.constants.size() == 1);
  CHECK(declared.a.constants[0].default_value == 2.0);
  // dF/dw is zero, dF/dw_t is not: a = shift * (u, v).
  ParsedForms rate_only =
      parse_form_text("w = Coefficient('w')\nw_t = Coefficient('w_t')\nF = (w_t - 1)*v*dx\n", "r.ufl", signature(2, 1));
  REQUIRE(rate_only.a.integrals.size() == 1);
  CHECK(uses_constant(rate_only.a, kTimeShiftName));
}

TEST_CASE("time-dependent residual: which coefficient is a time derivative", "[form][parser]")
{
  const std::vector<CoefficientInfo> table = {{"w", {1, 1}}, {"w_t", {1, 1}}, {"z_t", {1, 1}}, {"q", {2, 1}}, {"q_t", {1, 1}}};
  CHECK(is_time_derivative("w_t", table, {1, 1}));
  CHECK(!is_time_derivative("w", table, {1, 1}));
  CHECK(!is_time_derivative("z_t", table, {1, 1}));  // no z
  CHECK(!is_time_derivative("q_t", table, {1, 1}));  // q in another element
  CHECK(time_derivative_of("w_t") == "w");
  CHECK(time_derivative_of("_t").empty());
  CHECK(time_derivative_of("wt").empty());
  CHECK_THROWS_WITH(parse_form_text("z = Coefficient('z')\nw = Coefficient('w')\nw_t = Coefficient('w_t')\nF = (z + w_t)*v*dx\n", "e.ufl",
                                    signature(2, 1)),
                    Catch::Contains("e.ufl:4:1: 'a' is not defined and cannot be derived: 'F' holds the time derivatives w_t beside the unknown z"));
}
