// FEniCS-style form files (share/femgpu/forms/ufl/) lower to the same operator as the
// shipped dialect forms: the same CPU reference action on random cells, DOFs,
// coefficients and constants (to 1e-14), and for index notation the same printed IR;
// and the index-notation files integrate polynomials exactly.
#include <catch2/catch.hpp>

#include <sstream>

#include "ir/ir_print.h"
#include "support/bilinear_check.h"
#include "support/ufl_forms.h"

using namespace femgpu;
using namespace femgpu::test;

namespace {

std::string forms(const std::string &file) { return read_form_file(std::string(FEMGPU_SOURCE_DIR) + "/share/femgpu/forms/" + file); }

std::string listing(const ActionIR &ir)
{
  std::ostringstream os;
  print_ir_listing(os, ir);
  return os.str();
}

}  // namespace

TEST_CASE("FEniCS-style form files give the shipped dialect forms' action", "[form][ufl]")
{
  struct Pair {
    std::string ufl, dialect;
    int components, rank;
  };
  const Pair pairs[] = {
      {"ufl/poisson.ufl", "laplace.ufl", 1, 2},
      {"ufl/poisson_index.ufl", "laplace.ufl", 1, 2},
      {"ufl/elasticity.ufl", "elasticity.ufl", 2, 2},
      {"ufl/elasticity_index.ufl", "elasticity.ufl", 2, 2},
      {"ufl/hyperelasticity.ufl", "hyperelasticity.ufl", 2, 2},  // a = derivative(F, u, du)
      {"ufl/hyperelasticity.ufl", "hyperelasticity.ufl", 2, 1},  // the residual F itself
  };
  for (const Pair &p : pairs) {
    INFO(p.ufl << " rank " << p.rank);
    const FormSignature sig = triangle_p(2, p.components);
    const ActionIR a = lower_text(forms(p.ufl), sig, p.rank), b = lower_text(forms(p.dialect), sig, p.rank);
    REQUIRE(a.constants.size() == b.constants.size());
    for (size_t c = 0; c < a.constants.size(); ++c) CHECK(a.constants[c].name == b.constants[c].name);
    for (unsigned seed : {1u, 2u, 3u}) {
      const std::vector<double> ya = random_action(a, seed), yb = random_action(b, seed);
      CHECK(action_difference(yb, std::vector<double>(yb.size(), 0.0)) > 0.01);  // a real operator, not zero
      CHECK(action_difference(ya, yb) < 1e-14);
    }
  }
}

TEST_CASE("a coefficient-weighted mass matrix in UFL matches the dialect", "[form][ufl]")
{
  const std::string dialect = "kappa = Coefficient('kappa')\na = kappa*u*v*dx\n";
  CHECK(difference_of_forms(forms("ufl/mass_coefficient.ufl"), dialect, triangle_p(2)) < 1e-14);
  const ParsedForms p = parse_form_text(forms("ufl/mass_coefficient.ufl"), "m.ufl", triangle_p(2));
  REQUIRE(p.a.coefficients.size() == 1);
  CHECK(p.a.coefficients[0].name == "kappa");  // named by its variable
}

TEST_CASE("index notation lowers to the same pointwise program as the tensor form", "[form][ufl]")
{
  const FormSignature sig = triangle_p(2);
  CHECK(listing(lower_text(forms("ufl/poisson_index.ufl"), sig)) == listing(lower_text(forms("laplace.ufl"), sig)));
  CHECK(listing(lower_text(forms("ufl/poisson.ufl"), sig)) == listing(lower_text(forms("laplace.ufl"), sig)));
}

TEST_CASE("index-notation files integrate polynomials exactly", "[form][ufl][exactness]")
{
  std::mt19937 rng(29);
  for (const char *file : {"ufl/poisson_index.ufl", "ufl/elasticity_index.ufl"}) {
    const bool vector = std::string(file).find("elasticity") != std::string::npos;
    const int dim = 2, K = 2, C = vector ? 2 : 1;
    ActionIR ir = lower_text(forms(file), triangle_p(K, C));
    // lmbda = 0.7, mu = 0.4 (the file's Constants default to 0).
    for (size_t c = 0; c < ir.constants.size(); ++c) ir.constants[c].default_value = ir.constants[c].name == "lmbda" ? 0.7 : 0.4;
    const Tabulation tab = tabulate_action(ir, default_share_dir());
    const CellMesh mesh = random_cells(dim, 3, rng);
    const Fields f = random_fields(dim, K, C, rng), g = random_fields(dim, K, C, rng);
    Poly exact = Poly::constant(0.0), div_f = Poly::constant(0.0), div_g = Poly::constant(0.0);
    for (int i = 0; i < dim; ++i) {
      if (!vector) exact = exact + f[0].derivative(i) * g[0].derivative(i);
      if (!vector) continue;
      div_f = div_f + f[size_t(i)].derivative(i);
      div_g = div_g + g[size_t(i)].derivative(i);
      for (int j = 0; j < dim; ++j)
        exact = exact + 0.8 * (0.5 * (f[size_t(i)].derivative(j) + f[size_t(j)].derivative(i))) *
                            (0.5 * (g[size_t(i)].derivative(j) + g[size_t(j)].derivative(i)));
    }
    if (vector) exact = exact + 0.7 * div_f * div_g;
    INFO(file);
    CHECK(reference_a(ir, tab, mesh, f, g) == Approx(exact_on_cells(exact, mesh)).epsilon(1e-12));
  }
}
