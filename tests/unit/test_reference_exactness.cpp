// The CPU reference action integrates polynomial f, g in P_K exactly: a(f, g) equals
// the closed-form integral over random simplices, for forms built with the C++ API.
#include <catch2/catch.hpp>

#include "fem/action_tables.h"
#include "ir/lower.h"
#include "support/cell_mesh.h"
#include "support/polynomial.h"

using namespace femgpu;
using namespace femgpu::test;

namespace {

using Fields = std::vector<Poly>;  // one polynomial per component

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

double exact_value(const Case &c, const CellMesh &m, const Fields &f, const Fields &g)
{
  Poly integrand = c.exact(f, g, m.dim);
  double total = 0.0;
  const size_t nv = static_cast<size_t>((m.dim + 1) * m.dim);
  for (int k = 0; k < m.n_cells; ++k)
    total += integrate(integrand, std::vector<double>(m.vertices.begin() + static_cast<long>(k * nv),
                                                      m.vertices.begin() + static_cast<long>((k + 1) * nv)), m.dim);
  return total;
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
        Fields f, g;
        for (int k = 0; k < C; ++k) {
          f.push_back(Poly::random(dim, K, rng));
          g.push_back(Poly::random(dim, K, rng));
        }
        auto at = [](const Fields &h) { return [&h](int c, const double *x) { return h[size_t(c)](x); }; };
        std::vector<double> fd = interpolate(mesh, K, C, at(f)), gd = interpolate(mesh, K, C, at(g));
        std::vector<int> map = identity_map(fd.size());

        ActionArrays arrays;
        arrays.n_cells = mesh.n_cells;
        arrays.coordinates = {mesh.vertices.data(), mesh.coordinate_map.data()};
        arrays.trial = {fd.data(), map.data()};
        arrays.test_map = map.data();
        for (const ConstantInfo &ci : ir.constants) arrays.constants.push_back(ci.default_value);
        std::vector<double> out(fd.size(), 0.0);
        reference_action(ir, tab, arrays, out.data());
        double a = 0.0;
        for (size_t i = 0; i < out.size(); ++i) a += out[i] * gd[i];

        double exact = exact_value(c, mesh, f, g);
        INFO(c.name << " dim " << dim << " P" << K << ": " << a << " vs " << exact);
        CHECK(a == Approx(exact).epsilon(1e-12));
      }
}
