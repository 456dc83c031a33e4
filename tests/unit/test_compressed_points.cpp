// Compressed quadrature points (fem/compressed_points.h): which forms qualify, how many
// points remain, and that the action at the compressed points is the action at the
// rule's points.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "fem/compressed_points.h"
#include "ir/action_ir.h"
#include "ir/pointwise_linearity.h"
#include "support/ufl_forms.h"

using namespace femgpu;
using namespace femgpu::test;

namespace {

long long binomial(int n, int k)
{
  long long b = 1;
  for (int i = 1; i <= k; ++i) b = b * (n - k + i) / i;
  return b;
}

std::string shipped(const std::string &name) { return std::string(FEMGPU_SOURCE_DIR) + "/share/femgpu/forms/" + name + ".ufl"; }

FormSignature signature(int dim, int degree, int components)
{
  return FormSignature{dim == 2 ? CellType::Triangle : CellType::Tetrahedron, Element{degree, components}, 1};
}

// The file's a (for hyperelasticity, the Jacobian its F implies).
ActionIR lower_file(const std::string &path, const FormSignature &sig) { return lower_form(parse_form_file(path, sig).a); }

}  // namespace

TEST_CASE("orthonormal_span finds the rank and orthonormal columns", "[fem][compressed]")
{
  // (1,0,0), (2,0,0) and (0,1,1): rank 2, spanned by e0 and (0,1,1)/sqrt(2).
  const std::vector<double> U = orthonormal_span({{1, 0, 0}, {2, 0, 0}, {0, 1, 1}}, 3, 1e-10);
  REQUIRE(U.size() == 6);
  const double s = 1.0 / std::sqrt(2.0);
  // largest column first: (2,0,0) -> e0
  CHECK(U[0] == Approx(1.0));
  CHECK(U[2] == Approx(0.0).margin(1e-15));
  CHECK(U[4] == Approx(0.0).margin(1e-15));
  CHECK(U[1] == Approx(0.0).margin(1e-15));
  CHECK(U[3] == Approx(s));
  CHECK(U[5] == Approx(s));
}

TEST_CASE("linear maps with per-cell coefficients qualify, the rest do not", "[ir][compressed]")
{
  for (int dim : {2, 3})
    for (std::string name : {"mass", "laplace", "helmholtz", "elasticity"}) {
      INFO(name << " " << dim << "D");
      CHECK(same_linear_map_at_every_point(lower_file(shipped(name), signature(dim, 3, name == "elasticity" ? dim : 1))));
    }
  // the Jacobian of hyperelasticity reads the state at each point
  CHECK_FALSE(same_linear_map_at_every_point(lower_file(shipped("hyperelasticity"), signature(2, 3, 2))));
  // a coefficient function, a coordinate-dependent tensor, the coordinates, a residual
  CHECK_FALSE(same_linear_map_at_every_point(lower_file(shipped("ufl/mass_coefficient"), signature(2, 2, 1))));
  CHECK_FALSE(same_linear_map_at_every_point(lower_file(shipped("extra/anisotropic_diffusion"), signature(2, 2, 1))));
  CHECK_FALSE(same_linear_map_at_every_point(lower_text("w = Coefficient(\"w\")\na = w*w*u*v*dx\n", triangle_p(2))));
  CHECK_FALSE(same_linear_map_at_every_point(lower_text("a = x[0]*u*v*dx\n", triangle_p(2))));
  CHECK_FALSE(same_linear_map_at_every_point(lower_text("w = Coefficient(\"w\")\nF = inner(grad(w), grad(v))*dx - v*dx\n", triangle_p(2), 1)));
  // per-cell constants and the Jacobian may enter nonlinearly: still one map at every point
  CHECK(same_linear_map_at_every_point(
      lower_text("c = Constant(\"c\", 2.0)\na = sqrt(c)*u*v*dx + c*c*inner(grad(u), grad(v))*dx + u.dx(0)*v*dx\n", triangle_p(2))));
}

TEST_CASE("compressed points: as many as the test derivatives' polynomial space, the same action", "[fem][compressed]")
{
  for (int dim : {2, 3})
    for (int p = 1; p <= (dim == 2 ? 8 : 6); ++p)
      for (std::string name : {"mass", "laplace", "helmholtz", "elasticity"}) {
        const int C = name == "elasticity" ? dim : 1;
        const ActionIR ir = lower_file(shipped(name), signature(dim, p, C));
        const Tabulation rule = tabulate_action(ir, default_share_dir(), Points::Rule);
        const Tabulation small = tabulate_action(ir, default_share_dir());
        // values: P_p; gradients alone: P_{p-1}
        const bool values = name == "mass" || name == "helmholtz";
        const long long space = binomial((values ? p : p - 1) + dim, dim);
        INFO(name << " " << dim << "D P" << p << ": rule " << rule.n_points() << " points, compressed " << small.n_points());
        CHECK(small.n_points() == std::min<long long>(space, rule.n_points()));
        // one square test table (mass: values alone): the points become the test basis
        CHECK(small.test_identity == (name == "mass"));
        CHECK(small.compressed() == (space < rule.n_points() || small.test_identity));
        CHECK(small.rule.size() == rule.rule.size());
        for (unsigned seed : {1u, 2u})
          CHECK(action_difference(random_action(ir, seed, 2, Points::Compressed), random_action(ir, seed, 2, Points::Rule)) < 1e-12);
      }
}

TEST_CASE("forms that do not qualify keep the rule's points", "[fem][compressed]")
{
  const ActionIR hyper = lower_file(shipped("hyperelasticity"), signature(3, 3, 3));
  CHECK_FALSE(tabulate_action(hyper, default_share_dir()).compressed());
  const ActionIR aniso = lower_file(shipped("extra/anisotropic_diffusion"), signature(2, 5, 1));
  CHECK_FALSE(tabulate_action(aniso, default_share_dir()).compressed());
}

TEST_CASE("one square test table: the test side becomes the identity, the tables the element matrices", "[fem][compressed]")
{
  // mass 2D P2: n = 6, the rule has 6 points. Psi = I and the trial table is the
  // reference mass matrix, C^T C with C = U^T W^(1/2) Phi: symmetric, and its entries
  // sum to the reference triangle's area (the basis sums to one): 2 on [-1,1]^2's half.
  const ActionIR mass = lower_file(shipped("mass"), signature(2, 2, 1));
  const Tabulation tab = tabulate_action(mass, default_share_dir());
  REQUIRE(tab.test_identity);
  REQUIRE(tab.n_points() == 6);
  const std::vector<double> &I = tab.test_tables.at(0), &M = tab.group_tables.at(0).at(0);
  double sum = 0.0;
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) {
      CHECK(I[static_cast<size_t>(i * 6 + j)] == (i == j ? 1.0 : 0.0));
      CHECK(M[static_cast<size_t>(i * 6 + j)] == Approx(M[static_cast<size_t>(j * 6 + i)]).margin(1e-15));
      sum += M[static_cast<size_t>(i * 6 + j)];
    }
  CHECK(sum == Approx(2.0));
  // No quadrature contraction: 2 n Q for the evaluation only (72), not 144.
  CHECK(count_flops(mass, tab.n_points(), true).contractions == 72);
  CHECK(count_flops(mass, tab.n_points()).contractions == 144);
  // A trial derivative beside the value (test values alone): every trial table becomes
  // its element matrix, the same action as at the rule's points.
  const std::string text = "c = Constant(\"c\", 0.7)\na = c*u.dx(0)*v*dx + u.dx(1)*v*dx + u*v*dx\n";
  for (int p : {1, 3}) {
    INFO("advection-reaction P" << p);
    const ActionIR ir = lower_text(text, triangle_p(p));
    CHECK(tabulate_action(ir, default_share_dir()).test_identity);
    for (unsigned seed : {3u, 4u})
      CHECK(action_difference(random_action(ir, seed, 2, Points::Compressed), random_action(ir, seed, 2, Points::Rule)) < 1e-12);
  }
}
