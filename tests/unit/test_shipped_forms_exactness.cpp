// The shipped form files integrate polynomials exactly: a(f, g) of the reference action
// for f, g in P_K equals the closed-form integral, for every shipped form but
// hyperelasticity (nonlinear), in 2D and 3D, with the files' default constants.
#include <catch2/catch.hpp>

#include "fem/action_tables.h"
#include "form/parser.h"
#include "ir/lower.h"
#include "support/bilinear_check.h"

using namespace femgpu;
using namespace femgpu::test;

namespace {

Poly exact_integrand(const std::string &form, const Fields &f, const Fields &g, int dim)
{
  Poly s = Poly::constant(0.0);
  auto grads = [&]() {
    Poly r = Poly::constant(0.0);
    for (size_t c = 0; c < f.size(); ++c)
      for (int i = 0; i < dim; ++i) r = r + f[c].derivative(i) * g[c].derivative(i);
    return r;
  };
  auto values = [&]() { return f[0] * g[0]; };
  if (form == "mass") return values();
  if (form == "laplace") return grads();
  if (form == "helmholtz") return grads() + values();
  // elasticity with lmbda = 0, mu = 1/2: sigma(f) : eps(g) = eps(f) : eps(g)
  for (int i = 0; i < dim; ++i)
    for (int j = 0; j < dim; ++j) {
      Poly ef = 0.5 * (f[size_t(i)].derivative(j) + f[size_t(j)].derivative(i));
      Poly eg = 0.5 * (g[size_t(i)].derivative(j) + g[size_t(j)].derivative(i));
      s = s + ef * eg;
    }
  return s;
}

}  // namespace

TEST_CASE("shipped forms integrate polynomials exactly", "[reference][exactness][form]")
{
  std::mt19937 rng(11);
  for (std::string name : {"mass", "laplace", "helmholtz", "elasticity"})
    for (int dim : {2, 3})
      for (int K = 1; K <= (dim == 2 ? 4 : 3); ++K) {
        const int C = name == "elasticity" ? dim : 1;
        FormSignature sig{dim == 2 ? CellType::Triangle : CellType::Tetrahedron, Element{K, C}, 1};
        ParsedForms forms = parse_form_file(std::string(FEMGPU_SOURCE_DIR) + "/share/femgpu/forms/" + name + ".ufl", sig);
        ActionIR ir = lower_form(forms.a);
        Tabulation tab = tabulate_action(ir, default_share_dir());
        CellMesh mesh = random_cells(dim, 2, rng);
        Fields f = random_fields(dim, K, C, rng), g = random_fields(dim, K, C, rng);
        const double a = reference_a(ir, tab, mesh, f, g);
        const double exact = exact_on_cells(exact_integrand(name, f, g, dim), mesh);
        INFO(name << " dim " << dim << " P" << K);
        CHECK(a == Approx(exact).epsilon(1e-12));
      }
}
