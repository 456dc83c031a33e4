// The paper's Table 3: kernel parameters (n, N_deriv, N_eval, Q) of six cases, from
// forms built with the C++ API (test_form_tool.cpp checks the same via femgpu-form).
#include <catch2/catch.hpp>

#include "fem/action_tables.h"
#include "ir/lower.h"
#include "support/forms_api.h"

using namespace femgpu;

namespace {

struct Row {
  const char *op;
  int dim, degree, n, n_deriv, n_eval, Q;
};

Form build(const Row &r)
{
  const bool vector = std::string(r.op) == "elasticity" || std::string(r.op) == "hyperelasticity";
  FormSignature sig{r.dim == 2 ? CellType::Triangle : CellType::Tetrahedron, Element{r.degree, vector ? r.dim : 1}, 1};
  FormBuilder b(sig);
  Expr u = b.trial_function(), v = b.test_function();
  const int d = r.dim;
  std::string op = r.op;
  if (op == "mass") return b.make_form({FormBuilder::integral(mul(u, v))});
  if (op == "helmholtz") return b.make_form({FormBuilder::integral(add(inner(grad(u, d), grad(v, d)), mul(u, v)))});
  if (op == "elasticity") return b.make_form({FormBuilder::integral(inner(sym(grad(u, d)), sym(grad(v, d))))});
  std::vector<Integral> F = test::hyperelastic_residual(b);
  return b.make_form(derivative(F, b.coefficient("w"), u));
}

}  // namespace

TEST_CASE("lowering reproduces the paper's Table 3", "[ir][paper]")
{
  const Row rows[] = {
      {"mass", 2, 3, 10, 1, 1, 12},      {"mass", 2, 4, 15, 1, 1, 16},
      {"helmholtz", 2, 4, 15, 3, 3, 16}, {"helmholtz", 3, 4, 35, 4, 4, 44},
      {"hyperelasticity", 2, 6, 28, 8, 4, 79}, {"elasticity", 3, 4, 35, 9, 9, 23},
  };
  for (const Row &r : rows) {
    ActionIR ir = lower_form(build(r));
    QuadratureRule rule = simplex_quadrature(r.dim, ir.quadrature_degree, default_share_dir());
    INFO(r.op << " " << r.dim << "D P" << r.degree);
    REQUIRE(ir.groups.size() == 1);
    CHECK(ir.groups[0].n_basis == r.n);
    CHECK(ir.n_test_basis == r.n);
    CHECK(static_cast<int>(ir.groups[0].terms.size()) == r.n_deriv);
    CHECK(ir.n_eval() == r.n_eval);
    CHECK(rule.size() == r.Q);
  }
}
