// Form files with a right-hand side L(v): a and L give the residual F(w; v) = a(w, v) -
// L(v) for a new coefficient (named so as not to clash), L alone gives F = -L and no
// operator, and the bad combinations are errors at the right place. The residual of a
// and L is checked against the same residual written directly, through the reference.
#include <catch2/catch.hpp>

#include "reference/reference_action.h"
#include "support/action_cases.h"
#include "test_form_util.h"

using namespace femgpu;
using femgpu::test::signature;

namespace {

ParsedForms parse_text(const std::string &text, int dim = 2) { return parse_form_text(text, "t.ufl", signature(dim, 1, 2)); }

std::string error_of(const std::string &text)
{
  try {
    parse_text(text);
  } catch (const FormError &e) {
    return e.what();
  }
  return "(no error)";
}

const char *kLinearProblem = "k = Constant('k', 1.5)\nf = 1 + x[0]**2*x[1]\na = k*inner(grad(u), grad(v))*dx + u*v*dx\nL = f*v*dx\n";

}  // namespace

TEST_CASE("a and L give F = a(w, v) - L(v) with a new coefficient w", "[form][parser][rhs]")
{
  ParsedForms p = parse_text(kLinearProblem);
  REQUIRE(p.F);
  REQUIRE(p.L);
  CHECK(p.has_bilinear());
  CHECK(p.a.coefficients.empty());  // a itself is unchanged
  REQUIRE(p.F->coefficients.size() == 1);
  CHECK(p.F->coefficients[0].name == "w");
  CHECK(!test::form_contains_argument(*p.F, 1));
  CHECK(test::form_contains_argument(*p.F, 0));
  // A file that has a w of its own (a Picard iterate in a) gets the unknown w_1.
  ParsedForms picard = parse_text("w = Coefficient('w')\na = (1 + w**2)*inner(grad(u), grad(v))*dx\nL = v*dx\n");
  REQUIRE(picard.F->coefficients.size() == 2);
  CHECK(picard.F->coefficients[1].name == "w_1");
}

TEST_CASE("the residual of a and L equals the residual written directly", "[form][parser][rhs][reference]")
{
  std::mt19937 rng(53);
  for (int dim : {2, 3}) {
    const test::FormCase direct{"direct", 1, 1, 1, [](FormBuilder &b) {
                                  Expr w = b.coefficient("w"), v = b.test_function(), x0 = indexed(b.x(), {0}), x1 = indexed(b.x(), {1});
                                  Expr k = b.constant("k", 1.5), f = add(literal(1.0), mul(mul(x0, x0), x1));
                                  Expr a = add(mul(k, inner(grad(w, b.dim()), grad(v, b.dim()))), mul(w, v));
                                  return test::one(sub(a, mul(f, v)));
                                }};
    test::ActionData d = test::make_action(direct, dim, 2, 7, rng);
    LowerOptions residual;
    residual.rank = 1;
    const ActionIR ir = lower_form(*parse_text(kLinearProblem, dim).F, residual);
    const Tabulation tab = tabulate_action(ir, default_share_dir());
    std::vector<double> want = d.prefill, got = d.prefill;
    reference_action(d.ir, d.tab, d.arrays(), want.data());
    reference_action(ir, tab, d.arrays(), got.data());
    double err = 0, scale = 0;
    for (size_t i = 0; i < want.size(); ++i) err = std::max(err, std::fabs(got[i] - want[i])), scale = std::max(scale, std::fabs(want[i]));
    INFO("dim " << dim);
    CHECK(err <= 1e-13 * scale);
  }
}

TEST_CASE("L alone gives F = -L and no operator", "[form][parser][rhs]")
{
  ParsedForms p = parse_text("c = Constant('c', 2)\nL = c*v*dx\n");
  CHECK(!p.has_bilinear());
  REQUIRE(p.F);
  CHECK(p.F->coefficients.empty());
  CHECK(p.F->integrals[0].integrand->op == Op::Negate);
  LowerOptions residual;
  residual.rank = 1;
  CHECK(lower_form(*p.F, residual).groups.empty());  // nothing evaluated at the points
}

TEST_CASE("bad right-hand sides are errors at L", "[form][parser][rhs][errors]")
{
  CHECK(error_of("L = x[0]*dx\n") == "t.ufl:1:1: 'L' must be linear in the test function v, but it does not contain v");
  CHECK(error_of("a = u*v*dx\nL = u*v*dx\n") == "t.ufl:2:1: 'L' must not contain the trial function u (a right-hand side is a form in v alone)");
  CHECK_THAT(error_of("w = Coefficient('w')\nF = w*v*dx\nL = v*dx\n"), Catch::StartsWith("t.ufl:3:1: 'L' and 'F' are both defined"));
  CHECK(error_of("L = v\n") == "t.ufl:1:1: 'L' must be a form (an integral such as u*v*dx), got expression of shape () (did you forget '*dx'?)");
  CHECK_THAT(error_of("b = 1\n"), Catch::Contains("defines neither 'a' nor 'F' nor 'L'"));
  // A residual that is not linear in v: lowering points at its integral.
  LowerOptions residual;
  residual.rank = 1;
  try {
    lower_form(*parse_text("w = Coefficient('w')\nF = w*v*dx + w*v**2*dx\n").F, residual);
    FAIL("expected an error");
  } catch (const FormError &e) {
    CHECK(std::string(e.what()) == "t.ufl:2:20: the form is not linear in the test function v");
  }
}
