// The CPU reference action integrates polynomial f, g in P_K exactly: a(f, g) equals
// the closed-form integral over random simplices, for forms built with the C++ API.
#include <catch2/catch.hpp>

#include "fem/action_tables.h"
#include "ir/lower.h"
#include "support/bilinear_check.h"

using namespace femgpu;
using namespace femgpu::test;

namespace {

Poly grad_dot(const Fields &f, const Fields &g, int dim)
{
  Poly s = Poly::constant(0.0);
  for (size_t c = 0; c < f.size(); ++c)
    for (int i = 0; i < dim; ++i) s = s + f[c].derivative(i) * g[c].derivative(i);
  return s;
}

Poly value_dot(const Fields &f, const Fields &g)
{
  Poly s = Poly::constant(0.0);
  for (size_t c = 0; c < f.size(); ++c) s = s + f[c] * g[c];
  return s;
}

// sigma(f) : eps(g) with sigma = lambda tr(eps) I + 2 mu eps.
Poly elastic(const Fields &f, const Fields &g, int dim, double lambda, double mu)
{
  auto eps = [&](const Fields &h, int i, int j) { return 0.5 * (h[size_t(i)].derivative(j) + h[size_t(j)].derivative(i)); };
  Poly trf = Poly::constant(0.0), trg = Poly::constant(0.0), ee = Poly::constant(0.0);
  for (int i = 0; i < dim; ++i) {
    trf = trf + eps(f, i, i);
    trg = trg + eps(g, i, i);
    for (int j = 0; j < dim; ++j) ee = ee + eps(f, i, j) * eps(g, i, j);
  }
  return lambda * (trf * trg) + (2.0 * mu) * ee;
}

struct Case {
  const char *name;
  int components;  // 0: dim
  std::function<Expr(FormBuilder &)> integrand;
  std::function<Poly(const Fields &, const Fields &, int)> exact;
};

std::vector<Case> cases()
{
  return {
      {"mass", 1, [](FormBuilder &b) { return mul(b.trial_function(), b.test_function()); },
       [](const Fields &f, const Fields &g, int) { return value_dot(f, g); }},
      {"laplace", 1,
       [](FormBuilder &b) { return inner(grad(b.trial_function(), b.dim()), grad(b.test_function(), b.dim())); },
       [](const Fields &f, const Fields &g, int d) { return grad_dot(f, g, d); }},
      {"helmholtz", 1,
       [](FormBuilder &b) {
         Expr u = b.trial_function(), v = b.test_function();
         return add(inner(grad(u, b.dim()), grad(v, b.dim())), mul(u, v));
       },
       [](const Fields &f, const Fields &g, int d) { return grad_dot(f, g, d) + value_dot(f, g); }},
      {"x-weighted mass", 1,
       [](FormBuilder &b) {
         Expr w = add(literal(1.0), power(indexed(b.x(), {0}), literal(2.0)));
         return mul(mul(w, b.trial_function()), b.test_function());
       },
       [](const Fields &f, const Fields &g, int) {
         return (Poly::constant(1.0) + Poly::coordinate(0) * Poly::coordinate(0)) * value_dot(f, g);
       }},
      {"vector mass", 0, [](FormBuilder &b) { return inner(b.trial_function(), b.test_function()); },
       [](const Fields &f, const Fields &g, int) { return value_dot(f, g); }},
      {"elasticity", 0,
       [](FormBuilder &b) {
         const int d = b.dim();
         Expr lambda = b.constant("lmbda", 0.7), mu = b.constant("mu", 1.3);
         auto eps = [&](const Expr &w) { return sym(grad(w, d)); };
         Expr sigma = add(mul(mul(lambda, trace(eps(b.trial_function()))), identity(d)), mul(mul(literal(2.0), mu), eps(b.trial_function())));
         return inner(sigma, eps(b.test_function()));
       },
       [](const Fields &f, const Fields &g, int d) { return elastic(f, g, d, 0.7, 1.3); }},
  };
}


}  // namespace

TEST_CASE("the reference action integrates polynomial forms exactly", "[reference][exactness]")
{
  std::mt19937 rng(20261121);
  for (int dim : {2, 3})
    for (int K = 1; K <= (dim == 2 ? 4 : 3); ++K)
      for (const Case &c : cases()) {
        const int C = c.components ? c.components : dim;
        FormSignature sig{dim == 2 ? CellType::Triangle : CellType::Tetrahedron, Element{K, C}, 1};
        FormBuilder b(sig);
        Form form = b.make_form({FormBuilder::integral(c.integrand(b))});
        ActionIR ir = lower_form(form);
        Tabulation tab = tabulate_action(ir, default_share_dir());

        CellMesh mesh = random_cells(dim, 3, rng);
        Fields f = random_fields(dim, K, C, rng), g = random_fields(dim, K, C, rng);
        const double a = reference_a(ir, tab, mesh, f, g);
        const double exact = exact_on_cells(c.exact(f, g, dim), mesh);
        INFO(c.name << " dim " << dim << " P" << K << ": " << a << " vs " << exact);
        CHECK(a == Approx(exact).epsilon(1e-12));
      }
}
