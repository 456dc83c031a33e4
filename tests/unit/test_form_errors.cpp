// Parser errors: each malformed input fails with "<source>:<line>:<col>: <what>" at
// the right place and says what was expected or wrong.
#include <catch2/catch.hpp>

#include "ir/lower.h"
#include "test_form_util.h"

using namespace femgpu;

namespace {

struct BadInput {
  std::string text;
  std::string prefix;  // "t.ufl:L:C: "
  std::string phrase;  // part of <what>
};

std::string nested(int depth) { return "a = " + std::string(depth, '(') + "u" + std::string(depth, ')') + "*v*dx\n"; }

std::string error_of(const std::string &text, int dim = 2, int components = 1)
{
  try {
    parse_form_text(text, "t.ufl", test::signature(dim, components));
  } catch (const FormError &e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("malformed form files give located, helpful errors", "[form][parser][errors]")
{
  const std::vector<BadInput> cases = {
      {"a = inner(grad(u), grad(v)*dx\n", "t.ufl:2:1: ", "expected ')' to close '(' opened at 1:10"},
      {"a = [u, (v]*dx\n", "t.ufl:1:11: ", "expected ')' to close '(' opened at 1:9"},
      {"a = u*v*dx)\n", "t.ufl:1:11: ", "unmatched ')'"},
      {"a = inner(grad(u) grad(v))*dx\n", "t.ufl:1:19: ", "expected ')' to close '(' opened at 1:10"},
      {"a = gard(u)*v*dx\n", "t.ufl:1:5: ", "unknown name 'gard' (did you mean 'grad'?)"},
      {"a = grad(u, v)*v*dx\n", "t.ufl:1:5: ", "grad() takes 1 argument, got 2"},
      {"a = (grad(u) + u)*v*dx\n", "t.ufl:1:14: ", "cannot add shapes (2,) and ()"},
      {"# nothing here\n", "t.ufl:2:1: ", "the form file is empty (nothing but blanks and comments)"},
      {"", "t.ufl:1:1: ", "the form file is empty"},
      {" \t\n\n# c\n  # d\n", "t.ufl:5:1: ", "it defines no form; assign the bilinear form to 'a' or the residual to 'F'"},
      {"b = 1\n", "t.ufl:2:1: ", "form file defines neither 'a' nor 'F'"},
      {"a = u*v*dx + u*v*dS\n", "t.ufl:1:18: ", "interior facet integrals (dS) are not supported"},
      {"a = u*v*ds(1, subdomain_id=2)\n", "t.ufl:1:9: ", "ds() got the boundary label value twice"},
      {"a = u*v*ds(1)(2)\n", "t.ufl:1:9: ", "this ds already has a boundary label value (1)"},
      {"a = u*v*ds(-1)\n", "t.ufl:1:12: ", "the boundary label value of ds(i) must be 0..2147483647, got -1"},
      {"a = u*v*ds(1, 2)\n", "t.ufl:1:9: ", "ds() takes 0 or 1 argument, got 2"},
      {"a = FacetNormal(u)*v*ds\n", "t.ufl:1:17: ", "FacetNormal() needs a cell"},
      {"a = u*v*dx\nb = 1 +\n", "t.ufl:2:8: ", "expected an expression, got end of line"},
      {"a = u*v*dx(degree=100)\n", "t.ufl:1:12: ", "quadrature degree must be 0..60, got 100"},
      {"a = u*v*dx\n  b = 2\n", "t.ufl:2:1: ", "unexpected indentation"},
      {"a = 99999999999999999999*u*v*dx\n", "t.ufl:1:5: ", "integer literal 99999999999999999999 is too large"},
      {"a = 1e999*u*v*dx\n", "t.ufl:1:5: ", "is out of range"},
      {"n = 2**64\na = u*v*dx\n", "t.ufl:1:6: ", "integer overflow"},
      {"n = 1/0\n", "t.ufl:1:6: ", "division by zero"},
      {"a = u/(1 - 1)*v*dx\n", "t.ufl:1:6: ", "division by zero"},
      {"a = x[5]*u*v*dx\n", "t.ufl:1:7: ", "index 5 out of range for axis 0 of shape (2,)"},
      {"a = x[1.0]*u*v*dx\n", "t.ufl:1:7: ", "an index must be a Python integer, got float"},
      {"def eps(w):\n    return sym(grad(w))\n", "t.ufl:1:1: ", "'def' is not supported"},
      {"a = u*v*dx $\n", "t.ufl:1:12: ", "unexpected character '$'"},
      {"a = u*v\n", "t.ufl:1:1: ", "'a' must be a form"},
      {"a = u*v\n", "t.ufl:1:1: ", "did you forget '*dx'?"},
      {"F = u*v*dx\n", "t.ufl:1:1: ", "'F' must not contain the trial function u"},
      {"w = Coefficient('w')\nz = Coefficient('z')\nF = w*z*v*dx\n", "t.ufl:3:1: ", "several Coefficients"},
      {"F = v*dx\n", "t.ufl:1:1: ", "no Coefficient in the element of u; define 'a'"},
      {"a = u*v*dx(1)\n", "t.ufl:1:12: ", "dx() takes only keyword arguments"},
      {"k = Coefficient('k', degree=1, shape=3)\n", "t.ufl:1:32: ", "unexpected keyword argument 'shape'"},
      {"c = x[0] < x[1] < 1\n", "t.ufl:1:17: ", "chained comparisons are not supported"},
      {"q = as_vector([1, [2, 3]])\n", "t.ufl:1:15: ", "as_vector() components must have equal shapes"},
      {"a = u*v*dx\ns = 'abc\n", "t.ufl:2:5: ", "unterminated string literal"},
      {"t = u.T\n", "t.ufl:1:6: ", "transpose needs a matrix, got shape ()"},
      {"a = u*v*dx + u\n", "t.ufl:1:12: ", "unsupported operand types for '+': form and expression of shape ()"},
      {"a = u*v*dx*dx\n", "t.ufl:1:11: ", "cannot integrate a form again"},
      {"a = inner(grad(u), grad(v))*dx\n", "t.ufl:1:1: ", "invalid form signature"},
      {"c = Constant('c', u)\n", "t.ufl:1:19: ", "Constant() default value must be a number"},
      {"c = Coefficient(1)\n", "t.ufl:1:17: ", "needs a name string first"},
      {"a = u*v*dx if 1 else 0\n", "t.ufl:1:12: ", "use conditional(condition, true_value, false_value)"},
      {"a = u*v*dx\nb = x[0:1]\n", "t.ufl:2:8: ", "slices are not supported"},
      {"a, b = 1, 2, 3\n", "t.ufl:1:6: ", "cannot unpack 3 values into 2 names"},
      {"a = u*v*dx\nb = x[0]**0.5**-2000\n", "t.ufl:2:", "numeric overflow"},
      {"n = (-8)**(1/3)\n", "t.ufl:1:9: ", "fractional power is complex"},
      {"a = f(u)*v*dx\n", "t.ufl:1:5: ", "unknown name 'f'"},
      {"a = u*v*dx(metadata={'quadrature_rule': 'x'})\n", "t.ufl:1:12: ", "unsupported metadata key 'quadrature_rule'"},
      {"a = 3(u)*v*dx\n", "t.ufl:1:5: ", "a int cannot be called"},
      {nested(101), "t.ufl:1:105: ", "expression nested too deeply (more than 100 levels)"},
      {"a = u*v*dx\nb = " + std::string(200, '-') + "1\n", "t.ufl:2:", "nested too deeply"},
      {"lambda = Constant('lmbda', 1)\n", "t.ufl:1:1: ", "'lambda' is a Python keyword and cannot be assigned"},
      {"a = u*v*dx\nb = 00\n", "t.ufl:2:5: ", "leading zeros"},
      {"a = u*v*dx \\ b\n", "t.ufl:1:12: ", "must be the last character of a line"},
  };
  for (const BadInput &c : cases) {
    INFO(c.text);
    bool bad_signature = c.phrase == "invalid form signature";
    std::string msg = bad_signature ? error_of(c.text, 2, 12) : error_of(c.text);
    CHECK(msg.rfind(c.prefix, 0) == 0);
    CHECK_THAT(msg, Catch::Contains(c.phrase));
  }
  CHECK(error_of(nested(99)) == "(no error)");
}

TEST_CASE("bounded inputs: size, depth of the built expression", "[form][parser][errors]")
{
  std::string big(kMaxSourceBytes + 1, ' ');
  CHECK_THAT(error_of(big), Catch::StartsWith("t.ufl:1:1: form text is larger than 1 MiB"));
  // A long chain of assignments builds a deep DAG: it is cut off, not recursed into.
  std::string chain = "p = u\n";
  for (int i = 0; i < 1500; ++i) chain += "p = p*u + 1\n";
  CHECK_THAT(error_of(chain + "a = p*v*dx\n"), Catch::Contains("expression is nested too deeply"));
  // Repeated doubling shares subexpressions: linear work although the tree is 2**60.
  std::string doubling = "p = u\n";
  for (int i = 0; i < 60; ++i) doubling += "p = p + p\n";
  CHECK(error_of(doubling + "a = p*v*dx\n") == "(no error)");
  CHECK_THAT(error_of("a = u*v*dx\nt = outer(x, outer(outer(x, x), outer(outer(x, x), outer(x, x))))\n", 3),
             Catch::Contains("tensor of rank 7 is too large"));
}

TEST_CASE("an unreadable form file is a located FormError", "[form][parser][errors]")
{
  CHECK_THROWS_WITH(parse_form_file("/nonexistent/x.ufl", test::signature(2, 1)),
                    Catch::StartsWith("/nonexistent/x.ufl:1:1: cannot read form file"));
  CHECK_THROWS_WITH(parse_form_file(test::forms_dir(), test::signature(2, 1)),
                    Catch::Contains("not a regular file"));
}

namespace {

std::string lowering_error_of(const std::string &text, const std::string &source = "t.ufl")
{
  try {
    lower_form(parse_form_text(text, source, test::signature(2, 1)).a);
  } catch (const FormError &e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("lowering errors point at the integral, else at the form's definition", "[form][ir][errors]")
{
  // The second integral, on line 2, is the one that is not linear: its '*dx' is at 2:12.
  CHECK(lowering_error_of("a = u*v*dx \\\n    + u*u*v*dx\n") == "t.ufl:2:12: the form is not linear in the trial function u");
  CHECK(lowering_error_of("c = Constant('c', 1)\na = sin(v)*u*dx\n") == "t.ufl:2:13: the form is not linear in the test function v");
  CHECK(lowering_error_of("a = u*v*dx + v*dx\n") == "t.ufl:1:15: a term of the form does not contain the trial function u");
  // A residual's implied Jacobian keeps the integrals' positions.
  CHECK(lowering_error_of("w = Coefficient('w')\nF = w*v*dx + inner(grad(w), grad(v))*dx\n") == "(no error)");
  // Nothing to point at inside the form: its definition line.
  CHECK_THAT(lowering_error_of("q = 2\na = u*v*dx(degree=q*25) + u*v*dx\n"), Catch::StartsWith("t.ufl:2:1: the quadrature degree"));
  // A form from the C++ API has no file: the message is unchanged.
  FormBuilder b(test::signature(2, 1));
  Expr u = b.trial_function(), v = b.test_function();
  CHECK_THROWS_WITH(lower_form(b.make_form({FormBuilder::integral(mul(mul(u, u), v))})),
                    "the form is not linear in the trial function u");
}
