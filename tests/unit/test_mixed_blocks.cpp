// A form on a mixed element split into blocks (form/mixed_blocks.h): which blocks are
// zero, what each lowers to, and the fields check against a DM's.
#include <catch2/catch.hpp>

#include "form/mixed_blocks.h"
#include "form/parser.h"
#include "ir/lower.h"
#include "support/ufl_forms.h"

using namespace femgpu;
using namespace femgpu::test;

namespace {

const std::string kStokes =
    "V = VectorElement('Lagrange', triangle, 2)\nQ = FiniteElement('Lagrange', triangle, 1)\nW = V * Q\n"
    "(u, p) = TrialFunctions(W)\n(v, q) = TestFunctions(W)\nmu = Constant('mu', 2.0)\n"
    "a = mu*inner(grad(u), grad(v))*dx - p*div(v)*dx - q*div(u)*dx\n";

}  // namespace

TEST_CASE("a Stokes form on a mixed element splits into its blocks", "[form][ir][mixed]")
{
  const Form a = parse_form_text(kStokes, "stokes.ufl", triangle_p(2, 2)).a;
  const std::vector<Element> fields = mixed_fields(a);
  REQUIRE(fields == std::vector<Element>{Element{2, 2}, Element{1, 1}});
  // (0, 0): the vector Laplacian, a bilinear form on P2^2.
  const ActionIR uu = lower_form(mixed_block(a, 0, 0));
  CHECK(uu.rank == 2);
  CHECK(uu.signature.element == Element{2, 2});
  CHECK(cell_width(uu) == 12);
  CHECK(uu.constants.size() == 1);
  // (0, 1): -p div v, a residual on P2^2 whose trial part is the coefficient u_1 in P1.
  const Form up = mixed_block(a, 0, 1);
  CHECK(up.coefficients.back().name == "u_1");
  CHECK(up.coefficients.back().element == Element{1, 1});
  LowerOptions residual;
  residual.rank = 1;
  const ActionIR upi = lower_form(up, residual);
  CHECK(upi.n_test_basis == 6);
  CHECK(upi.group_of_function(coefficient_function(static_cast<int>(up.coefficients.size()) - 1)) >= 0);
  // (1, 0): -q div u on P1 with the coefficient u_0 in P2^2.
  const ActionIR pu = lower_form(mixed_block(a, 1, 0), residual);
  CHECK(pu.signature.element == Element{1, 1});
  CHECK(pu.n_test_basis == 3);
  // (1, 1) is zero; the others are not.
  CHECK(is_zero_form(mixed_block(a, 1, 1)));
  CHECK_FALSE(is_zero_form(mixed_block(a, 0, 1)));
  CHECK_FALSE(is_zero_form(mixed_block(a, 0, 0)));
  CHECK_THROWS_WITH(mixed_block(a, 2, 0), Catch::Contains("no block (2, 0) in a form with 2 fields"));
}

TEST_CASE("the mixed form's fields are checked against the DM's, naming both", "[form][mixed][errors]")
{
  const Form a = parse_form_text(kStokes, "stokes.ufl", triangle_p(2, 2)).a;
  CHECK(fields_mismatch(a, {Element{2, 2}, Element{1, 1}}).empty());
  CHECK(fields_mismatch(a, {Element{2, 2}, Element{2, 1}}) ==
        "the form's mixed element MixedElement(VectorElement(\"Lagrange\", triangle, 2), FiniteElement(\"Lagrange\", triangle, 1)) has 2 "
        "fields [P2 vector with 2 components on triangles, P1 scalar on triangles], but the DM has 2 fields [P2 vector with 2 components on "
        "triangles, P2 scalar on triangles]");
  CHECK_THAT(fields_mismatch(a, {Element{2, 2}}), Catch::Contains("but the DM has 1 field [P2 vector"));
  const Form single = parse_form_text("a = inner(grad(u), grad(v))*dx\n", "laplace.ufl", triangle_p(1)).a;
  CHECK(mixed_fields(single).empty());
  CHECK_THAT(fields_mismatch(single, {Element{2, 2}, Element{1, 1}}), Catch::StartsWith("the form is not on a mixed element"));
  const std::string other = "V = VectorElement('Lagrange', triangle, 2)\nQ = FiniteElement('Lagrange', triangle, 1)\n"
                            "(u, p) = TrialFunctions(V * Q)\n(v, q) = TestFunctions(Q * V)\na = p*v*dx\n";
  CHECK_THROWS_WITH(mixed_fields(parse_form_text(other, "o.ufl", triangle_p(2, 2)).a),
                    Catch::Contains("test and trial functions on the same mixed element"));
}
