// The shipped form files integrate polynomials exactly: a(f, g) of the reference action
// for f, g in P_K equals the closed-form integral, for every shipped form but
// hyperelasticity (nonlinear), in 2D and 3D, with the files' default constants.
#include <catch2/catch.hpp>

#include "fem/action_tables.h"
#include "form/parser.h"
#include "ir/lower.h"
#include "support/cell_mesh.h"
#include "support/polynomial.h"

using namespace femgpu;
using namespace femgpu::test;

namespace {

using Fields = std::vector<Poly>;

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
        Fields f, g;
        for (int c = 0; c < C; ++c) {
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
        Poly integrand = exact_integrand(name, f, g, dim);
        double exact = 0.0;
        const size_t nv = static_cast<size_t>((dim + 1) * dim);
        for (int k = 0; k < mesh.n_cells; ++k)
          exact += integrate(integrand, std::vector<double>(mesh.vertices.begin() + long(k * nv), mesh.vertices.begin() + long((k + 1) * nv)), dim);
        INFO(name << " dim " << dim << " P" << K);
        CHECK(a == Approx(exact).epsilon(1e-12));
      }
}
