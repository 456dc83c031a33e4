// Real UFL syntax beside femgpu's dialect: elements, functions on them named by their
// variables, free indices with implicit summation, .dx, as_tensor. Each construct is
// checked against a dialect spelling of the same form through the CPU reference action
// on random data (support/ufl_forms.h), or against the tables it must produce.
#include <catch2/catch.hpp>

#include "support/ufl_forms.h"

using namespace femgpu;
using namespace femgpu::test;

namespace {

const std::string kScalarP2 =
    "element = FiniteElement('Lagrange', triangle, 2)\nu = TrialFunction(element)\nv = TestFunction(element)\n";
const std::string kVectorP2 =
    "element = VectorElement('Lagrange', triangle, 2)\nu = TrialFunction(element)\nv = TestFunction(element)\n";

}  // namespace

TEST_CASE("elements and arguments: FiniteElement, VectorElement, families, Mesh, FunctionSpace", "[form][ufl]")
{
  const FormSignature s2 = triangle_p(2), v2 = triangle_p(2, 2);
  for (const char *family : {"Lagrange", "CG", "P"}) {
    const std::string text = std::string("e = FiniteElement(\"") + family + "\", triangle, 2)\n" +
                             "a = TrialFunction(e)*TestFunction(e)*dx\n";
    CHECK(difference_of_forms(text, "a = u*v*dx\n", s2) < 1e-14);
  }
  CHECK(difference_of_forms(kVectorP2 + "a = inner(u, v)*dx\n", "a = inner(u, v)*dx\n", v2) < 1e-14);
  CHECK(difference_of_forms("e = VectorElement('CG', 'triangle', 2, dim=2)\na = inner(TrialFunction(e), TestFunction(e))*dx\n",
                            "a = inner(u, v)*dx\n", v2) < 1e-14);
  // FEniCSx's spelling: a mesh of the cell and a function space on it.
  const std::string fenicsx =
      "cell = triangle\ndomain = Mesh(VectorElement('Lagrange', cell, 1))\n"
      "V = FunctionSpace(domain, FiniteElement('Lagrange', cell, 2))\nu = TrialFunction(V)\nv = TestFunction(V)\n"
      "x = SpatialCoordinate(domain)\nd = cell.geometric_dimension()\na = (1 + x[0]*d)*inner(grad(u), grad(v))*dx\n";
  CHECK(difference_of_forms(fenicsx, "a = (1 + x[0]*2)*inner(grad(u), grad(v))*dx\n", s2) < 1e-14);
  // Tetrahedra: the cell names the dimension.
  const FormSignature t1{CellType::Tetrahedron, Element{1, 3}, 1};
  CHECK(difference_of_forms("e = VectorElement('P', tetrahedron, 1)\nu, v = TrialFunction(e), TestFunction(e)\n"
                            "a = inner(grad(u), grad(v))*dx\n",
                            "a = inner(grad(u), grad(v))*dx\n", t1) < 1e-14);
}

TEST_CASE("Coefficient(element) and Constant(cell) take their variable's name", "[form][ufl]")
{
  const std::string text = kScalarP2 +
                           "f = Coefficient(element)\nc = Constant(triangle)\nb = Constant(triangle, (2,))\n"
                           "T = TensorConstant(triangle)\nw = VectorConstant(triangle)\n"
                           "a = (f*c + b[1] + T[0, 1] + w[0])*u*v*dx\n";
  const ParsedForms p = parse_form_text(text, "t.ufl", triangle_p(2));
  REQUIRE(p.a.coefficients.size() == 1);
  CHECK(p.a.coefficients[0].name == "f");
  CHECK(p.a.coefficients[0].element == Element{2, 1});
  std::vector<std::string> names;
  for (const ConstantInfo &c : p.a.constants) names.push_back(c.name);
  CHECK(names == std::vector<std::string>{"c", "b_0", "b_1", "T_0_0", "T_0_1", "T_1_0", "T_1_1", "w_0", "w_1"});
  for (const ConstantInfo &c : p.a.constants) CHECK(c.default_value == 0.0);
  // The same form in the dialect: same tables in the same order, so the same random data.
  const std::string dialect =
      "f = Coefficient('f')\nc = Constant('c', 0)\nb = as_vector([Constant('b_0', 0), Constant('b_1', 0)])\n"
      "T = as_matrix([[Constant('T_0_0', 0), Constant('T_0_1', 0)], [Constant('T_1_0', 0), Constant('T_1_1', 0)]])\n"
      "w = as_vector([Constant('w_0', 0), Constant('w_1', 0)])\na = (f*c + b[1] + T[0, 1] + w[0])*u*v*dx\n";
  CHECK(difference_of_forms(text, dialect, triangle_p(2)) < 1e-14);
  // A declared coefficient on the trial function's element lowers; the form records it.
  REQUIRE(p.a.declarations.size() == 3);
  CHECK(p.a.declarations[2].role == FunctionDeclaration::Role::Coefficient);
  CHECK(p.a.declarations[2].element.text == "FiniteElement(\"Lagrange\", triangle, 2)");
}

TEST_CASE("free indices: implicit summation, .dx, Dx, traces, as_tensor", "[form][ufl]")
{
  struct Same {
    std::string ufl, dialect;
    bool vector;
  };
  const std::vector<Same> cases = {
      {"a = u.dx(0)*v.dx(1)*dx", "a = grad(u)[0]*grad(v)[1]*dx", false},
      {"a = u.dx(i)*v.dx(i)*dx", "a = inner(grad(u), grad(v))*dx", false},
      {"a = Dx(u, i)*grad(v)[i]*dx", "a = inner(grad(u), grad(v))*dx", false},
      {"a = u.dx(i, j)*v.dx(i, j)*dx", "a = inner(grad(grad(u)), grad(grad(v)))*dx", false},
      {"i, j = indices(2)\na = as_vector(u.dx(i), i)[j]*x[j]*v*dx", "a = dot(grad(u), x)*v*dx", false},
      {"a = grad(u)[i, j]*grad(v)[i, j]*dx", "a = inner(grad(u), grad(v))*dx", true},
      {"a = u[i].dx(i)*v[j].dx(j)*dx", "a = div(u)*div(v)*dx", true},
      {"a = grad(u)[i, i]*div(v)*dx", "a = tr(grad(u))*div(v)*dx", true},
      {"m = Index()\nn = Index()\na = u[m].dx(n)*v[m].dx(n)*dx", "a = inner(grad(u), grad(v))*dx", true},
      {"A = as_tensor(grad(u)[i, k]*grad(v)[k, j], (i, j))\na = A[i, j]*outer(x, x)[i, j]*dx",
       "a = inner(grad(u)*grad(v), outer(x, x))*dx", true},
      {"a = as_tensor(grad(u)[j, i], (i, j))[p, q]*grad(v)[p, q]*dx", "a = inner(grad(u).T, grad(v))*dx", true},
      {"a = as_matrix(u[i]*x[j], (i, j))[k, l]*grad(v)[k, l]*dx", "a = inner(outer(u, x), grad(v))*dx", true},
      {"a = -(u[i]*v[i])*dx + (2*u[i] - x[i]*u[0]/3)*v[i]*dx",
       "a = -inner(u, v)*dx + inner(2*u - x*u[0]/3, v)*dx", true},
      {"a = as_vector(grad(u).T[i, j]*x[j], i)[k]*v[k]*dx", "a = inner(grad(u).T*x, v)*dx", true},
  };
  for (const Same &c : cases) {
    INFO(c.ufl);
    const FormSignature sig = triangle_p(2, c.vector ? 2 : 1);
    CHECK(difference_of_forms((c.vector ? kVectorP2 : kScalarP2) + c.ufl + "\n", c.dialect + "\n", sig) < 1e-14);
  }
}

TEST_CASE("quadrature degree from dx(degree=...) and dx(metadata=...)", "[form][ufl]")
{
  for (const char *measure : {"dx(degree=5)", "dx(metadata={'quadrature_degree': 5})"}) {
    const ActionIR ir = lower_text(kScalarP2 + "a = u.dx(i)*v.dx(i)*" + measure + "\n", triangle_p(2));
    CHECK(ir.quadrature_degree == 5);
    CHECK_FALSE(ir.quadrature_degree_estimated);
  }
}

TEST_CASE("mixed elements parse and are refused at lowering, naming what is missing", "[form][ufl][errors]")
{
  const std::string stokes =
      "P2 = VectorElement('Lagrange', triangle, 2)\nP1 = FiniteElement('Lagrange', triangle, 1)\nTH = P2 * P1\n"
      "W = MixedElement([P2, P1])\n(u, p) = TrialFunctions(TH)\nv, q = TestFunctions(W)\n"
      "a = inner(grad(u), grad(v))*dx - div(v)*p*dx - q*div(u)*dx\n";
  const ParsedForms parsed = parse_form_text(stokes, "stokes.ufl", triangle_p(2, 2));
  REQUIRE(parsed.a.declarations.size() == 2);
  CHECK(parsed.a.declarations[0].element.is_mixed());
  CHECK(parsed.a.declarations[0].element.value_shape() == Shape{3});  // (u0, u1, p)
  CHECK(parsed.a.declarations[0].element.text ==
        "MixedElement(VectorElement(\"Lagrange\", triangle, 2), FiniteElement(\"Lagrange\", triangle, 1))");
  CHECK_THROWS_WITH(lower_form(parsed.a), Catch::StartsWith("stokes.ufl:3:9: the trial function (made at 5:10) is on the mixed element") &&
                                              Catch::Contains("a form on a mixed element is lowered block by block"));
  // split() of a coefficient on a mixed element, e.g. a Picard iterate for Navier-Stokes.
  const std::string split =
      "W = VectorElement('P', triangle, 2) * FiniteElement('P', triangle, 1)\nw = Coefficient(W)\nuw, pw = split(w)\n"
      "a = pw*inner(u, v)*dx + inner(uw, u)*v[0]*dx\n";
  const ParsedForms sp = parse_form_text(split, "split.ufl", triangle_p(2, 2));
  CHECK_THROWS_WITH(lower_form(sp.a), Catch::StartsWith("split.ufl:1:37: coefficient 'w' (made at 2:5) is on the mixed element") &&
                                          Catch::Contains("coefficients on mixed elements are not supported yet"));
}

TEST_CASE("a strain energy in index notation, its residual and Jacobian by derivative()", "[form][ufl]")
{
  // docs/forms.md's example: E = (grad u + grad u^T + grad u^T grad u)/2, energy mu E:E.
  const std::string ufl =
      "element = VectorElement('Lagrange', triangle, 2)\nv = TestFunction(element)\ndu = TrialFunction(element)\n"
      "u = Coefficient(element)\nmu = Constant(triangle)\ni, j, k = indices(3)\n"
      "E = as_tensor((u[i].dx(j) + u[j].dx(i) + u[k].dx(i)*u[k].dx(j))/2, (i, j))\n"
      "energy = mu*E[i, j]*E[i, j]*dx\nF = derivative(energy, u, v)\na = derivative(F, u, du)\n";
  const std::string dialect =
      "w = Coefficient('u')\nmu = Constant('mu', 0)\nG = grad(w)\nE = (G + G.T + G.T*G)/2\n"
      "energy = mu*inner(E, E)*dx\nF = derivative(energy, w, v)\na = derivative(F, w, u)\n";
  for (int rank : {1, 2}) {
    INFO("rank " << rank);
    CHECK(difference_of_forms(ufl, dialect, triangle_p(2, 2), rank) < 1e-14);
  }
}

TEST_CASE("FFC's hyperelasticity demo: L is the residual when a = derivative(L, u, du)", "[form][ufl]")
{
  // FFC's HyperElasticity.ufl as written (without its traction term: facet integrals are
  // not supported yet), where F is the deformation gradient and L the residual.
  const std::string ffc =
      "element = VectorElement('Lagrange', triangle, 2)\nv = TestFunction(element)\ndu = TrialFunction(element)\n"
      "u = Coefficient(element)\nB = Coefficient(element)\nd = len(u)\nI = Identity(d)\nF = I + grad(u)\nC = F.T*F\n"
      "E = (C - I)/2\nE = variable(E)\nmu = Constant(triangle)\nlmbda = Constant(triangle)\n"
      "psi = lmbda/2*(tr(E)**2) + mu*tr(E*E)\nS = diff(psi, E)\nP = F*S\n"
      "L = inner(P, grad(v))*dx - inner(B, v)*dx\na = derivative(L, u, du)\n";
  const ParsedForms p = parse_form_text(ffc, "HyperElasticity.ufl", triangle_p(2, 2));
  REQUIRE(p.F);
  CHECK_FALSE(p.L);  // not a right-hand side: the residual would be a(w, v) - L(v)
  CHECK(p.F->line == 17);
  const std::string dialect =
      "w = Coefficient('u')\nB = Coefficient('B')\nF_ = Identity(d) + grad(w)\nE = variable((F_.T*F_ - Identity(d))/2)\n"
      "mu = Constant('mu', 0)\nlmbda = Constant('lmbda', 0)\npsi = lmbda/2*(tr(E)**2) + mu*tr(E*E)\n"
      "F = inner(F_*diff(psi, E), grad(v))*dx - inner(B, v)*dx\na = derivative(F, w, u)\n";
  for (int rank : {1, 2}) {
    INFO("rank " << rank);
    CHECK(difference_of_forms(ffc, dialect, triangle_p(2, 2), rank) < 1e-14);
  }
  // An ordinary a and L keep their meaning: F = a(w, v) - L(v).
  const ParsedForms linear = parse_form_text("f = Coefficient('f')\na = u*v*dx\nL = f*v*dx\n", "t.ufl", triangle_p(1));
  CHECK(linear.L);
}
