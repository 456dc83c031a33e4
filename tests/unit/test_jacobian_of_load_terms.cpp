// The Jacobian of a residual with terms free of w (a load f v dx, a flux g v ds(2), a step
// in x, a step in w on ds(1)) is the derivative of the terms that hold w, domain by domain:
// the terms left out have derivative zero (the residual's central difference there is 0),
// the rest is the residual's central difference and the hand-written bilinear form; a
// residual whose derivative is zero is an error that says so.
#include <catch2/catch.hpp>

#include <cmath>

#include "fem/action_tables.h"
#include "form/parser.h"
#include "ir/lower.h"
#include "support/action_cases.h"
#include "support/cell_mesh.h"

using namespace femgpu;
using namespace femgpu::test;

namespace {

constexpr int kDegree = 2;

// neumann_problem.ufl's residual with a step in x and a step in w added.
const char *const kResidual =
    "k = Constant('k', 1.5)\nc = Constant('c', 0.5)\nw = Coefficient('w')\n"
    "f = 1 + x[0]**2*x[1]\ng = 1 + x[0]*x[1]\n"
    "F = k*inner(grad(w), grad(v))*dx + c*w*v*dx - f*v*dx - g*v*ds(2) + w*w*v*ds(3)"
    " + conditional(lt(x[0], 0.1), 2, 0)*v*dx - conditional(gt(w, 0.1), 1, 0)*v*ds(1)\n";
// Its Jacobian written by hand, on the same coefficient table.
const char *const kJacobian =
    "k = Constant('k', 1.5)\nc = Constant('c', 0.5)\nw = Coefficient('w')\n"
    "a = k*inner(grad(u), grad(v))*dx + c*u*v*dx + 2*w*u*v*ds(3)\n";

FormSignature triangle_p2() { return FormSignature{CellType::Triangle, Element{kDegree, 1}, 1}; }

IntegralDomain ds(int i) { return IntegralDomain{IntegralDomain::Type::ExteriorFacet, i}; }

// The operator of `form` over `domain` (on local facet `facet` for a ds), as the CPU
// reference applies it to `trial` (none for a residual) at the state w.
struct Operator {
  const Form &form;
  int rank;
  IntegralDomain domain;
  int facet;
  std::vector<double> apply(const CellMesh &mesh, const std::vector<double> &w, const std::vector<double> *trial) const
  {
    LowerOptions o;
    o.rank = rank;
    o.domain = domain;
    o.facet = facet;
    o.quadrature_degree = 6;  // one rule for every operator compared: the differences test differentiation only
    const ActionIR ir = lower_form(form, o);
    const std::vector<int> map = identity_map(w.size());
    ActionArrays a;
    a.n_cells = mesh.n_cells;
    a.coordinates = {mesh.vertices.data(), mesh.coordinate_map.data()};
    if (trial) a.trial = {trial->data(), map.data()};
    a.coefficients = {{w.data(), map.data()}};
    a.test_map = map.data();
    for (const ConstantInfo &ci : ir.constants) a.constants.push_back(ci.default_value);
    std::vector<double> out(w.size(), 0.0);
    reference_action(ir, tabulate_action(ir, default_share_dir()), a, out.data());
    return out;
  }
};

// (F(w + h du) - F(w - h du)) / 2h over one domain.
std::vector<double> central_difference(const Operator &F, const CellMesh &mesh, const std::vector<double> &w, const std::vector<double> &du)
{
  const double h = 1e-6;
  std::vector<double> wp = w, wm = w;
  for (size_t i = 0; i < w.size(); ++i) wp[i] += h * du[i], wm[i] -= h * du[i];
  std::vector<double> fp = F.apply(mesh, wp, nullptr), fm = F.apply(mesh, wm, nullptr);
  for (size_t i = 0; i < fp.size(); ++i) fp[i] = (fp[i] - fm[i]) / (2 * h);
  return fp;
}

double max_abs(const std::vector<double> &x)
{
  double m = 0;
  for (double v : x) m = std::max(m, std::abs(v));
  return m;
}

double max_difference(const std::vector<double> &x, const std::vector<double> &y)
{
  double m = 0;
  for (size_t i = 0; i < x.size(); ++i) m = std::max(m, std::abs(x[i] - y[i]));
  return m;
}

}  // namespace

TEST_CASE("the Jacobian of a residual with loads and steps has the domains of its w terms only", "[derivative][facet]")
{
  const ParsedForms p = parse_form_text(kResidual, "t.ufl", triangle_p2());
  REQUIRE(p.F);
  CHECK(integral_domains(*p.F).size() == 4);  // dx, ds(1), ds(2), ds(3)
  const std::vector<IntegralDomain> jacobian = integral_domains(p.a);
  REQUIRE(jacobian.size() == 2);
  CHECK(jacobian[0] == IntegralDomain{});
  CHECK(jacobian[1] == ds(3));
  CHECK(p.a.integrals.size() == 3);  // grad w . grad v, w v, w^2 v: the loads and steps are left out
}

TEST_CASE("each domain of the Jacobian of a residual with loads is the residual's derivative", "[derivative][facet]")
{
  std::mt19937 rng(53);
  const ParsedForms p = parse_form_text(kResidual, "t.ufl", triangle_p2());
  const ParsedForms hand = parse_form_text(kJacobian, "hand.ufl", triangle_p2());
  REQUIRE(p.F);
  const CellMesh mesh = random_cells(2, 3, rng);
  const size_t n = static_cast<size_t>(mesh.n_cells * lagrange_dimension(2, kDegree));
  const std::vector<double> w = random_values(n, rng), du = random_values(n, rng);
  struct Part {
    IntegralDomain domain;
    int facet;
  };
  std::vector<Part> parts{{IntegralDomain{}, -1}};
  for (int f = 0; f < 3; ++f) parts.push_back({ds(3), f});
  for (const Part &part : parts) {
    INFO(describe_domain(part.domain) << " facet " << part.facet);
    const std::vector<double> jdu = Operator{p.a, 2, part.domain, part.facet}.apply(mesh, w, &du);
    const std::vector<double> fd = central_difference(Operator{*p.F, 1, part.domain, part.facet}, mesh, w, du);
    const std::vector<double> by_hand = Operator{hand.a, 2, part.domain, part.facet}.apply(mesh, w, &du);
    REQUIRE(max_abs(jdu) > 1e-2);
    CHECK(max_difference(jdu, fd) / max_abs(jdu) < 1e-7);
    CHECK(max_difference(jdu, by_hand) / max_abs(jdu) < 1e-13);
  }
  // Where the Jacobian has no part, the residual's derivative is zero: a load, a step in w.
  for (int i : {1, 2})
    for (int f = 0; f < 3; ++f) {
      INFO("ds(" << i << ") facet " << f);
      const Operator F{*p.F, 1, ds(i), f};
      REQUIRE(max_abs(F.apply(mesh, w, nullptr)) > 1e-2);  // the residual has terms there
      CHECK(max_abs(central_difference(F, mesh, w, du)) < 1e-8);
    }
}

TEST_CASE("a residual whose derivative in w is zero is an error that says so", "[derivative][form]")
{
  const std::string head = "w = Coefficient('w')\nf = 1 + x[0]\n";
  // Free of w but for steps and sign(w): a load, a flux, a step in w, sign(w).
  CHECK_THROWS_WITH(parse_form_text(head + "F = f*v*dx - f*v*ds(2) + conditional(gt(w, 0.1), 1, 0)*v*ds(1) + sign(w)*v*dx\n", "t.ufl",
                                    triangle_p2()),
                    Catch::Contains("t.ufl:3:1: the residual F does not depend on w: its Jacobian is zero"));
  // derivative() written in the file: the same, at the call.
  CHECK_THROWS_WITH(parse_form_text(head + "F = f*v*dx + sign(w)*v*ds\na = derivative(F, w, u)\n", "t.ufl", triangle_p2()),
                    Catch::Contains("t.ufl:4:5: derivative(): the form does not depend on 'w'"));
}

TEST_CASE("a = derivative(L, w, du) with a load in L: L is still the residual", "[derivative][form]")
{
  // FFC's nonlinear demos: L the residual, a its derivative, which has no load term.
  const ParsedForms p = parse_form_text("w = Coefficient('w')\nf = 1 + x[0]\nL = (1 + w**2)*inner(grad(w), grad(v))*dx - f*v*dx - f*v*ds(1)\n"
                                        "a = derivative(L, w, u)\n",
                                        "t.ufl", triangle_p2());
  REQUIRE(p.F);
  CHECK_FALSE(p.L);  // not a right-hand side
  CHECK(p.F->integrals.size() == 3);
  CHECK(p.a.integrals.size() == 1);
}

TEST_CASE("depends_on follows the derivative's paths: not through conditions or sign()", "[derivative][form]")
{
  FormBuilder b(triangle_p2());
  const Expr w = b.coefficient("w"), other = b.coefficient("g"), x0 = indexed(b.x(), {0});
  CHECK(depends_on(mul(w, w), w));
  CHECK(depends_on(math_function("abs", w), w));
  CHECK(depends_on(conditional(condition("lt", w, literal(0)), w, literal(0)), w));  // a branch holds w
  CHECK(depends_on(indexed(grad(w, 2), {1}), w));
  CHECK_FALSE(depends_on(conditional(condition("lt", w, literal(0)), literal(1), x0), w));  // a step in w
  CHECK_FALSE(depends_on(math_function("sign", w), w));
  CHECK_FALSE(depends_on(mul(other, x0), w));
  CHECK(depends_on(derivative(mul(w, mul(w, other)), other, w), w));  // through the inner derivative's f and direction
  CHECK_FALSE(depends_on(derivative(mul(other, other), w, other), w));  // only w's slot of an inner derivative
}
