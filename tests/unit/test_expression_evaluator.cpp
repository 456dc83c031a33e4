// ExpressionEvaluator: interpolation expressions in x evaluate to their closed-form values.
#include <catch2/catch.hpp>

#include <cmath>

#include "form/parser.h"
#include "ir/expression_evaluator.h"

using femgpu::ExpressionEvaluator;
using femgpu::parse_expression;

namespace {

std::vector<double> eval(const std::string &text, int dim, std::vector<double> x)
{
  ExpressionEvaluator e(parse_expression(text, "<test>", dim), dim);
  std::vector<double> out(static_cast<size_t>(e.size()));
  e.evaluate(x.data(), out.data());
  return out;
}

}  // namespace

TEST_CASE("scalar polynomials and functions of x evaluate exactly", "[expression]")
{
  CHECK(eval("x[0]**2*x[1] + 1", 2, {0.5, 2.0})[0] == Approx(1.5).epsilon(1e-15));
  CHECK(eval("sin(pi*x[0])*exp(x[2])", 3, {0.25, 0.0, 0.5})[0] == Approx(std::sin(M_PI / 4) * std::exp(0.5)).epsilon(1e-15));
  CHECK(eval("conditional(lt(x[0], 0.5), 1.0, 2.0)", 2, {0.7, 0.0})[0] == 2.0);
  CHECK(eval("3", 2, {0.1, 0.2})[0] == 3.0);
}

TEST_CASE("vector expressions give one value per component", "[expression]")
{
  ExpressionEvaluator e(parse_expression("as_vector([x[1], -x[0], x[0]*x[2]])", "<test>", 3), 3);
  REQUIRE(e.shape() == femgpu::Shape{3});
  double x[3] = {1.0, 2.0, 3.0}, out[3];
  e.evaluate(x, out);
  CHECK(out[0] == 2.0);
  CHECK(out[1] == -1.0);
  CHECK(out[2] == 3.0);
}

TEST_CASE("grad of an expression in x is its physical gradient", "[expression]")
{
  std::vector<double> g = eval("grad(x[0]**2*x[1])", 2, {3.0, 5.0});
  REQUIRE(g.size() == 2);
  CHECK(g[0] == Approx(30.0));
  CHECK(g[1] == Approx(9.0));
}

TEST_CASE("expressions that are not functions of x alone are refused", "[expression]")
{
  CHECK_THROWS_AS(parse_expression("u + x[0]", "<test>", 2), femgpu::FormError);
  CHECK_THROWS_WITH(parse_expression("x[0] +* 1", "-u_expr", 2), Catch::Contains("-u_expr:1:"));
}
