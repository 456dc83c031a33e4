// Malformed UFL syntax: each error is located at file:line:col and says what is wrong
// (free indices, as_tensor, .dx, elements against the DM's field, names of coefficients).
#include <catch2/catch.hpp>

#include "support/ufl_forms.h"

using namespace femgpu;
using namespace femgpu::test;

namespace {

const std::string kHead = "e = FiniteElement('Lagrange', triangle, 2)\nu = TrialFunction(e)\nv = TestFunction(e)\n";
const std::string kVector = "e = VectorElement('Lagrange', triangle, 2)\nu = TrialFunction(e)\nv = TestFunction(e)\n";

std::string error_of(const std::string &text, const FormSignature &sig)
{
  try {
    ParsedForms p = parse_form_text(text, "t.ufl", sig);
    lower_form(p.a);
  } catch (const FormError &e) {
    return e.what();
  }
  return "(no error)";
}

struct Bad {
  std::string text;  // after kHead (scalar) or kVector
  bool vector;
  std::string prefix, phrase;
};

}  // namespace

TEST_CASE("malformed free-index notation gives located errors", "[form][ufl][errors]")
{
  const std::vector<Bad> cases = {
      {"a = u.dx(m)*v*dx\n", false, "t.ufl:4:10: ", "unknown name 'm'"},
      {"a = u.dx(i)*v*dx\n", false, "t.ufl:4:14: ", "the integrand has free index 'i': an index used once is free"},
      {"a = grad(u)[i]*x[j]*x[j]*x[j]*v*dx\n", false, "t.ufl:4:25: ", "index 'j' appears three times"},
      {"a = outer(x, outer(x, x))[i, i, i]*u*v*dx\n", false, "t.ufl:4:33: ", "index 'i' appears three times"},
      {"a = (x[i] + x[j])*u*v*dx\n", false, "t.ufl:4:11: ", "cannot add expressions with different free indices: (i) and (j)"},
      {"a = x[i]*as_vector([1, 2, 3])[i]*u*v*dx\n", false, "t.ufl:4:9: ", "index 'i' runs over 2 values on one side and 3"},
      {"a = sqrt(x[i])*u*v*dx\n", false, "t.ufl:4:10: ", "sqrt() argument 1 has free indices"},
      {"a = x[i]**2*u*v*dx\n", false, "t.ufl:4:9: ", "'**' of an expression with free indices (i)"},
      {"a = u.dx(2)*v*dx\n", false, "t.ufl:4:10: ", ".dx(2): the derivative index is out of range: x has 2 components here (0..1)"},
      {"a = u.dx(-1)*v*dx\n", false, "t.ufl:4:10: ", "out of range"},
      {"a = u.dx()*v*dx\n", false, "t.ufl:4:5: ", ".dx() needs at least one index"},
      {"a = u.dx(0.5)*v*dx\n", false, "t.ufl:4:10: ", ".dx() argument (an integer or a free index such as i) must be a Python integer"},
      {"t = as_vector(x[i]*x[j], (i, j))\n", false, "t.ufl:4:26: ", "rank mismatch: as_vector(f, indices) makes a tensor of rank 1 and needs 1 index, got 2"},
      {"t = as_matrix(x[i], i)\n", false, "t.ufl:4:21: ", "rank mismatch: as_matrix(f, indices)"},
      {"t = as_tensor(grad(u), (i,))\n", false, "t.ufl:4:15: ", "rank mismatch: as_tensor(f, indices) needs a scalar f with free indices, got shape (2,)"},
      {"t = as_tensor(x[i], (j,))\n", false, "t.ufl:4:21: ", "index 'j' is not free in as_tensor()'s expression, whose free indices are (i)"},
      {"t = as_tensor(x[i], (i, i))\n", false, "t.ufl:4:21: ", "index 'i' given twice"},
      {"t = as_tensor(x[i], (0,))\n", false, "t.ufl:4:21: ", "indices must be free indices such as i, j, got int"},
      {"t = grad(u)[i][i]\n", false, "t.ufl:4:15: ", "too many indices (1) for an expression of shape ()"},
      {"t = grad(grad(u))[i][i]\n", false, "t.ufl:4:22: ", "index 'i' is already free in the expression it indexes"},
      {"t = x[i] + 1\n", false, "t.ufl:4:10: ", "cannot add expressions with different free indices: (i) and ()"},
      {"t = x[0] / x[i]\n", false, "t.ufl:4:10: ", "the divisor must have none"},
      {"t = i + 1\n", false, "t.ufl:4:7: ", "unsupported operand types for '+': index and int"},
      {"t = grad(u)[i]*grad(grad(u))[i, j]*grad(grad(u))[j, :]\n", false, "t.ufl:4:53: ", "slices are not supported"},
      {"i, j = indices(3)\n", false, "t.ufl:4:6: ", "cannot unpack 3 values into 2 names"},
      {"i, j = 1\n", false, "t.ufl:4:6: ", "cannot unpack a int into 2 names"},
      {"n = indices(0)\n", false, "t.ufl:4:13: ", "indices() count must be 1..16, got 0"},
      {"t = grad(u)[i]*grad(v)[i]\n", true, "t.ufl:4:15: ", "index 'i' is repeated in a product of two non-scalar expressions"},
      {"a = grad(u)[i, j]*grad(v)[i, j]*grad(u)[k, 0]*dx\n", true, "t.ufl:4:46: ", "the integrand has free index 'k'"},
  };
  for (const Bad &c : cases) {
    INFO(c.text);
    const std::string msg = error_of((c.vector ? kVector : kHead) + c.text, triangle_p(2, c.vector ? 2 : 1));
    CHECK(msg.rfind(c.prefix, 0) == 0);
    CHECK_THAT(msg, Catch::Contains(c.phrase));
  }
}

TEST_CASE("declared elements against the DM's field, and coefficients' names", "[form][ufl][errors]")
{
  const std::vector<Bad> cases = {
      {"element P2 read for P1", false, "t.ufl:1:5: ",
       "the trial function's element (TrialFunction at 2:5) does not match: FiniteElement(\"Lagrange\", triangle, 2) is P2 scalar on "
       "triangles; the field it is read for is P1 scalar on triangles"},
      {"vector read for scalar", true, "t.ufl:1:5: ", "is P2 vector with 2 components on triangles; the field it is read for is P2 scalar"},
  };
  CHECK_THAT(error_of(kHead + "a = u*v*dx\n", triangle_p(1)), Catch::StartsWith(cases[0].prefix) && Catch::Contains(cases[0].phrase));
  CHECK_THAT(error_of(kVector + "a = inner(u, v)*dx\n", triangle_p(2)), Catch::StartsWith(cases[1].prefix) && Catch::Contains(cases[1].phrase));
  const FormSignature tet{CellType::Tetrahedron, Element{2, 1}, 1};
  CHECK_THAT(error_of(kHead + "a = u*v*dx\n", tet),
             Catch::StartsWith("t.ufl:2:19: ") && Catch::Contains("is on triangles, but the form is read for the field P2 scalar on tetrahedra"));
  // A coefficient in another element than u's lowers (its own group); DG of degree 0 too.
  CHECK(error_of(kHead + "P1 = FiniteElement('P', triangle, 1)\nk = Coefficient(P1)\na = k*u*v*dx\n", triangle_p(2)) == "(no error)");
  CHECK(error_of(kHead + "Q = VectorElement('DG', triangle, 0)\nk = Coefficient(Q)\na = k[0]*u*v*dx\n", triangle_p(2)) == "(no error)");
  const std::vector<Bad> more = {
      {"a = Coefficient(e)*u*v*dx\n", false, "t.ufl:4:5: ", "must be assigned to a name on its own line, e.g. 'f = Coefficient("},
      {"c = 2*Constant(triangle)\n", false, "t.ufl:4:7: ", "must be assigned to a name on its own line"},
      {"f = FiniteElement('DG', triangle, 1)\n", false, "t.ufl:4:35: ", "element family 'DG' of degree 1 is not supported: femgpu takes DG of degree 0"},
      {"f = FiniteElement('P', triangle, 0)\n", false, "t.ufl:4:34: ", "FiniteElement() degree must be 1..8, got 0"},
      {"f = FiniteElement('Nedelec', triangle, 1)\n", false, "t.ufl:4:19: ", "unknown element family 'Nedelec'"},
      {"f = FiniteElement('P', quadrilateral, 1)\n", false, "t.ufl:4:24: ", "cell 'quadrilateral' is not supported"},
      {"f = FiniteElement('P', triangle, 9)\n", false, "t.ufl:4:34: ", "FiniteElement() degree must be 1..8, got 9"},
      {"f = VectorElement('P', triangle, 1, dim=1)\n", false, "t.ufl:4:37: ", "VectorElement() dim must be 2..9, got 1"},
      {"(p, q) = TrialFunctions(e)\n", false, "t.ufl:4:25: ", "TrialFunctions() needs a mixed element (MixedElement or e1 * e2)"},
      {"w = split(u)\n", false, "t.ufl:4:11: ", "split() needs a function on a mixed element"},
      {"m = Mesh(VectorElement('P', triangle, 2))\n", false, "t.ufl:4:10: ", "has degree 2, but the form is read for coordinates of degree 1"},
      {"m = MixedElement(e)\n", false, "t.ufl:4:5: ", "MixedElement() needs at least two elements"},
      {"c = Constant(tetrahedron)\n", false, "t.ufl:4:14: ", "Constant() is on tetrahedra, but the form is read for the field P2 scalar on triangles"},
      {"t = TrialFunction(triangle)\n", false, "t.ufl:4:19: ", "TrialFunction() needs an element"},
  };
  for (const Bad &c : more) {
    INFO(c.text);
    const std::string msg = error_of(kHead + c.text, triangle_p(2));
    CHECK(msg.rfind(c.prefix, 0) == 0);
    CHECK_THAT(msg, Catch::Contains(c.phrase));
  }
}
