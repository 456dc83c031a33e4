// Parser: shipped forms parse for their elements in 2D and 3D; precedence,
// Python-number arithmetic, indexing, '.T', derivative's default direction.
#include <catch2/catch.hpp>

#include "test_form_util.h"

using namespace femgpu;
using femgpu::test::signature;

namespace {

std::string expr_text(const std::string &text, int dim = 2) { return to_string(parse_expression(text, "t", dim)); }

double literal_value(const std::string &text, int dim = 2)
{
  Expr e = parse_expression(text, "t", dim);
  REQUIRE(e->op == Op::Literal);
  return e->value;
}

ParsedForms parse_text(const std::string &text, int dim = 2, int components = 1)
{
  return parse_form_text(text, "t.ufl", signature(dim, components));
}

}  // namespace

TEST_CASE("every shipped form parses for its element in 2D and 3D", "[form][parser]")
{
  for (const auto &f : test::shipped_forms()) {
    for (int dim : {2, 3}) {
      if (f.only_2d && dim == 3) continue;
      for (int degree : {1, 2}) {
        INFO(f.file << " dim " << dim << " degree " << degree);
        ParsedForms p = parse_form_file(test::forms_dir() + f.file, signature(dim, f.vector ? dim : 1, degree));
        CHECK(!p.a.integrals.empty());
        CHECK(test::form_contains_argument(p.a, 0));
        CHECK(test::form_contains_argument(p.a, 1));
        for (const Integral &i : p.a.integrals) CHECK(is_scalar(i.integrand));
      }
    }
  }
}

TEST_CASE("shipped forms define the expected tables", "[form][parser]")
{
  ParsedForms el = parse_form_file(test::forms_dir() + "elasticity.ufl", signature(3, 3));
  REQUIRE(el.a.constants.size() == 2);
  CHECK(el.a.constants[0].name == "lmbda");
  CHECK(el.a.constants[0].default_value == 0.0);
  CHECK(el.a.constants[1].default_value == 0.5);
  CHECK(!el.F);

  ParsedForms hyper = parse_form_file(test::forms_dir() + "hyperelasticity.ufl", signature(2, 2));
  REQUIRE(hyper.F);
  REQUIRE(hyper.a.coefficients.size() == 1);
  CHECK(hyper.a.coefficients[0].name == "w");
  CHECK(hyper.a.integrals.size() == 1);  // the load (B e_0, v) is free of w: no Jacobian term
  CHECK(hyper.a.integrals[0].integrand->op == Op::Derivative);
  CHECK(!test::form_contains_argument(*hyper.F, 1));

  ParsedForms cd = parse_form_file(test::forms_dir() + "extra/convection_diffusion.ufl", signature(3, 1, 2));
  CHECK(cd.a.coefficients.empty());  // beta is made of Constants: the Mat can apply it
  REQUIRE(cd.a.constants.size() == 3);
  CHECK(cd.a.constants[1].name == "beta_0");
  // The parser still reads a Coefficient in its own element (the Mat refuses it).
  ParsedForms own = parse_form_text("beta = Coefficient('beta', degree=1, components=d)\na = dot(beta, grad(u))*v*dx\n",
                                    "t.ufl", signature(3, 1, 2));
  REQUIRE(own.a.coefficients.size() == 1);
  CHECK(own.a.coefficients[0].element == Element{1, 3});

  ParsedForms an = parse_form_file(test::forms_dir() + "extra/anisotropic_diffusion.ufl", signature(2, 1));
  CHECK(an.a.integrals[0].quadrature_degree == 4);
  ParsedForms cr = parse_form_file(test::forms_dir() + "extra/conditional_reaction.ufl", signature(2, 1));
  CHECK(cr.a.integrals[1].quadrature_degree == 6);
  CHECK(!cr.a.integrals[0].quadrature_degree);
}

TEST_CASE("operators have Python's precedence and associativity", "[form][parser]")
{
  CHECK(expr_text("-x[0]**2") == "-(x[0] ** 2)");
  CHECK(expr_text("x[0] - x[1] - 1") == "((x[0] + -x[1]) + -1)");
  CHECK(expr_text("x[0]/x[1]/2") == "((x[0] / x[1]) / 2)");
  CHECK(expr_text("x[0]**x[1]**2") == "(x[0] ** (x[1] ** 2))");
  CHECK(expr_text("x[0] + x[1]*2") == "(x[0] + (x[1] * 2))");
  CHECK(expr_text("(x[0] + x[1])*2") == "((x[0] + x[1]) * 2)");
  CHECK(expr_text("x[0]**-1") == "(x[0] ** -1)");
  CHECK(expr_text("x[0] < x[1] + 1") == "lt(x[0], (x[1] + 1))");
  CHECK(expr_text("x[0] >= 1") == "ge(x[0], 1)");
  CHECK(expr_text("x[0] != 1") == "ne(x[0], 1)");
  CHECK(expr_text("-(-x[0])") == "--x[0]");
}

TEST_CASE("pure Python numbers stay numbers", "[form][parser]")
{
  CHECK(literal_value("2**3**2") == 512);
  CHECK(literal_value("-2**2") == -4);
  CHECK(literal_value("(-2)**2") == 4);
  CHECK(literal_value("2**-1") == 0.5);
  CHECK(literal_value("7/2") == 3.5);
  CHECK(literal_value("1.0/d") == 0.5);
  CHECK(literal_value("1.0/d", 3) == Approx(1.0 / 3));
  CHECK(literal_value("10 - 2 - 3") == 5);
  CHECK(literal_value("2*3 + 4*5") == 26);
  CHECK(literal_value("abs(-3)") == 3);
  CHECK(literal_value("1e-3 + .5 + 2.") == Approx(2.501));
  CHECK(literal_value("pi") == Approx(3.141592653589793));
  CHECK(literal_value("9223372036854775807 - 1") == Approx(9.223372036854775806e18));
  CHECK(expr_text("x[d-1]", 3) == "x[2]");
  CHECK(expr_text("Identity(d)", 3) == "Identity(3)");
  CHECK(expr_text("sqrt(2)") == "sqrt(2)");
}

TEST_CASE("indexing, negative indices and .T", "[form][parser]")
{
  CHECK(expr_text("x[-1]", 3) == "x[2]");
  CHECK(expr_text("x[-3]", 3) == "x[0]");
  CHECK(expr_text("as_matrix([[1, 2], [3, x[0]]])[1, -1]") == "as_vector(as_vector(1, 2), as_vector(3, x[0]))[1, 1]");
  CHECK(expr_text("as_matrix([[1, 2], [3, x[0]]])[1][0]") ==
        "as_vector(as_vector(1, 2), as_vector(3, x[0]))[1][0]");
  CHECK(expr_text("outer(x, x).T") == "transpose(outer(x, x))");
  CHECK(expr_text("[x[0], 2][-1]") == "2");
  CHECK(parse_expression("as_tensor([[[x[0]]]])", "t", 2)->shape == Shape{1, 1, 1});
  CHECK(parse_expression("as_vector((x[1], -x[0]))", "t", 2)->shape == Shape{2});
  CHECK(parse_expression("grad(x)", "t", 3)->shape == Shape{3, 3});
}

TEST_CASE("statements: comments, continuation, shadowing, augmented assignment", "[form][parser]")
{
  ParsedForms p = parse_text("\"\"\"A docstring\nover two lines.\"\"\"\n"
                        "import ufl\nfrom ufl import *  # ignored\n\n"
                        "k = Constant('k', 2**-1)   # a constant\n"
                        "a = inner(grad(u),\n"
                        "          grad(v))*dx \\\n"
                        "    + k*u*v*dx; a += u*v*dx\n"
                        "grad = 3\n");
  CHECK(p.a.integrals.size() == 3);
  REQUIRE(p.a.constants.size() == 1);
  CHECK(p.a.constants[0].default_value == 0.5);
  ParsedForms q = parse_text("v2 = TestFunction()\nu2 = TrialFunction()\na = 2*(u2*v2*dx) - (-(u*v*dx))\n");
  CHECK(q.a.integrals.size() == 2);
  CHECK(to_string(q.a.integrals[0].integrand) == "(2 * (u * v))");
  ParsedForms r = parse_text("c = Constant('c', 1)\na = (u*v*dx)*c + dx*(u*v)\n");
  CHECK(to_string(r.a.integrals[0].integrand) == "(c * (u * v))");
  CHECK(to_string(r.a.integrals[1].integrand) == "(u * v)");
}

TEST_CASE("derivative picks UFL's default direction", "[form][parser]")
{
  // F contains v: the direction is the trial function u.
  ParsedForms p = parse_text("w = Coefficient('w')\nF = w**2*v*dx\nJ = derivative(F, w)\na = J\n");
  CHECK(to_string(p.a.integrals[0].integrand) == "derivative(((w ** 2) * v), w, u)");
  CHECK(p.a.integrals[0].integrand->operands[2]->index == 1);
  // An energy without arguments: the direction is the test function v, and a is implied.
  ParsedForms q = parse_text("w = Coefficient('w')\nPi = (w**4/4 + w)*dx\nF = derivative(Pi, w)\n");
  REQUIRE(q.F);
  CHECK(q.F->integrals[0].integrand->operands[2]->index == 0);
  CHECK(test::form_contains_argument(q.a, 1));
  // On a plain expression too; and with an explicit direction in another element.
  ParsedForms r = parse_text("w = Coefficient('w')\ndw = derivative(w**2, w)\na = dw*u*dx\n");
  CHECK(r.a.integrals[0].integrand->operands[0]->op == Op::Derivative);
  ParsedForms s = parse_text("w = Coefficient('w', components=2)\nF = inner(w, w)*v*dx\n"
                        "a = derivative(F, w, as_vector([u, u]))\n");
  CHECK(test::form_contains_argument(s.a, 1));
}

TEST_CASE("interpolation expressions", "[form][parser]")
{
  CHECK(expr_text("x[0]**2*x[1] + 1") == "(((x[0] ** 2) * x[1]) + 1)");
  CHECK(parse_expression("as_vector([x[1], -x[0]])", "t", 2)->shape == Shape{2});
  CHECK(parse_expression("conditional(lt(x[0], 0.5), 1, 0)", "t", 3)->op == Op::Conditional);
  CHECK(parse_expression("\n  3\n", "t", 2)->value == 3);
  CHECK_THROWS_WITH(parse_expression("u + 1", "f", 2), Catch::Contains("f:1:1: unknown name 'u'"));
  CHECK_THROWS_WITH(parse_expression("1", "f", 4), Catch::Contains("f:1:1: the dimension must be 2 or 3"));
}
