// Exterior facet integrals (ds): the facet quadrature integrates polynomials on each
// reference facet exactly; a ds operator lowered for local facet f integrates over that
// facet of each cell (closed-form values on a triangle; the divergence theorem on random
// triangles and tetrahedra, against the cell operator); FacetNormal is the unit outward
// normal; the OpenCL kernels of ds operators match the CPU reference; the Jacobian of a
// residual's ds terms is their derivative.
#include <catch2/catch.hpp>

#include <cmath>

#include "fem/facet_quadrature.h"
#include "form/parser.h"
#include "ir/lower.h"
#include "reference/reference_action.h"
#include "support/bilinear_check.h"
#include "support/opencl_check.h"

using namespace femgpu;
using namespace femgpu::test;

namespace {

// sum_q w_q p(x_q) on facet f.
double facet_integral(int dim, int facet, int degree, const std::function<double(const double *)> &p)
{
  QuadratureRule r = facet_quadrature(dim, facet, degree, default_share_dir());
  double s = 0;
  for (int q = 0; q < r.size(); ++q) s += r.weights[static_cast<size_t>(q)] * p(&r.points[static_cast<size_t>(q * dim)]);
  return s;
}

const IntegralDomain kDs{IntegralDomain::Type::ExteriorFacet, std::nullopt};

ActionIR lower_on_facet(const Form &form, int facet)
{
  LowerOptions o;
  o.domain = kDs;
  o.facet = facet;
  return lower_form(form, o);
}

// v^T A u for P_K fields u, v given at the nodes of one mesh.
double apply_form(const ActionIR &ir, const CellMesh &mesh, const Fields &u, const Fields &v)
{
  return reference_a(ir, tabulate_action(ir, default_share_dir()), mesh, u, v);
}

}  // namespace

TEST_CASE("facet quadrature: weights sum to the reference facet's measure, points lie on it", "[facet][quadrature]")
{
  const double sq2 = std::sqrt(2.0), sq3 = std::sqrt(3.0);
  const double measure2[3] = {2 * sq2, 2, 2}, measure3[4] = {2 * sq3, 2, 2, 2};
  for (int dim : {2, 3})
    for (int f = 0; f <= dim; ++f)
      for (int degree : {1, 2, 5, 9}) {
        QuadratureRule r = facet_quadrature(dim, f, degree, default_share_dir());
        double sum = 0;
        for (double w : r.weights) sum += w;
        CHECK(sum == Approx(dim == 2 ? measure2[f] : measure3[f]).epsilon(1e-13));
        for (int q = 0; q < r.size(); ++q) {
          const double *x = &r.points[static_cast<size_t>(q * dim)];
          double s = 0;
          for (int k = 0; k < dim; ++k) s += x[k];
          if (f == 0) CHECK(s == Approx(2.0 - dim).margin(1e-14));  // the facet opposite v0: sum X = 2 - d
          else CHECK(x[f - 1] == Approx(-1.0).margin(1e-14));          // X_{f-1} = -1
        }
      }
}

TEST_CASE("facet quadrature integrates polynomials on each reference facet exactly", "[facet][quadrature]")
{
  const double sq2 = std::sqrt(2.0), sq3 = std::sqrt(3.0);
  auto X = [](const double *x) { return x[0]; };
  auto X2 = [](const double *x) { return x[0] * x[0]; };
  // Triangle: facet 0 from (1,-1) to (-1,1) (X = 1 - 2t, length 2 sqrt 2), facet 1 on X = -1, facet 2 on Y = -1.
  CHECK(facet_integral(2, 0, 2, X2) == Approx(2 * sq2 / 3));
  CHECK(facet_integral(2, 1, 2, X2) == Approx(2));
  CHECK(facet_integral(2, 2, 2, X2) == Approx(2.0 / 3));
  CHECK(facet_integral(2, 2, 7, [](const double *x) { return std::pow(x[0], 6) + x[0] * x[0] * x[0]; }) == Approx(2.0 / 7));
  CHECK(facet_integral(2, 1, 4, [](const double *x) { return std::pow(x[1] + 1, 4); }) == Approx(32.0 / 5));
  // Tetrahedron: facet 0 the triangle (1,-1,-1), (-1,1,-1), (-1,-1,1) of area 2 sqrt 3;
  // the integral of X^2 over a triangle is |T|/12 ((sum x_i)^2 + sum x_i^2).
  CHECK(facet_integral(3, 0, 1, X) == Approx(-2 * sq3 / 3));
  CHECK(facet_integral(3, 0, 2, X2) == Approx(2 * sq3 / 3));
  CHECK(facet_integral(3, 3, 2, X2) == Approx(2.0 / 12 * (1 + 3)));  // (-1,-1),(1,-1),(-1,1): sum -1, squares 3
  CHECK(facet_integral(3, 1, 2, X2) == Approx(2));                    // on X = -1
  CHECK(facet_integral(3, 2, 2, [](const double *x) { return x[2] * x[2]; }) == Approx(2.0 / 3));  // on Y = -1
}

TEST_CASE("a ds operator on local facet f integrates over facet f of each cell", "[facet][reference]")
{
  // The triangle A = (0,0), B = (2,0), C = (0,1) in closure order: facet 0 = BC, 1 = CA
  // (x = 0), 2 = AB (y = 0). u = 1 + x, v = 1 + y.
  CellMesh mesh;
  mesh.dim = 2;
  mesh.n_cells = 1;
  mesh.vertices = {0, 0, 2, 0, 0, 1};
  mesh.coordinate_map = {0, 2, 4};
  FormBuilder b(FormSignature{CellType::Triangle, Element{1, 1}, 1});
  Form uv = b.make_form({FormBuilder::integral(mul(b.trial_function(), b.test_function()), std::nullopt, kDs)});
  const Fields u{Poly::constant(1.0) + Poly::coordinate(0)}, v{Poly::constant(1.0) + Poly::coordinate(1)};
  CHECK(apply_form(lower_on_facet(uv, 0), mesh, u, v) == Approx(std::sqrt(5.0) * 17 / 6));
  CHECK(apply_form(lower_on_facet(uv, 1), mesh, u, v) == Approx(1.5));
  CHECK(apply_form(lower_on_facet(uv, 2), mesh, u, v) == Approx(4));
  // (x . n) v: x . n = 2/sqrt 5 on BC, 0 on the others (they pass through the origin).
  Form xn = b.make_form({FormBuilder::integral(mul(dot(b.x(), b.facet_normal()), b.test_function()), std::nullopt, kDs)});
  LowerOptions rhs;
  rhs.rank = 1;
  rhs.domain = kDs;
  for (int f = 0; f < 3; ++f) {
    rhs.facet = f;
    ActionIR ir = lower_form(xn, rhs);
    CHECK(apply_form(ir, mesh, u, v) == Approx(f == 0 ? 3.0 : 0.0).margin(1e-13));
  }
}

TEST_CASE("sum over facets of (grad u . n) v ds is the cell integral of div(grad u) v + grad u . grad v", "[facet][reference]")
{
  std::mt19937 rng(29);
  for (int dim : {2, 3}) {
    const int K = dim == 2 ? 3 : 2;
    FormBuilder b(FormSignature{dim == 2 ? CellType::Triangle : CellType::Tetrahedron, Element{K, 1}, 1});
    Expr u = b.trial_function(), v = b.test_function();
    Form flux = b.make_form({FormBuilder::integral(mul(dot(grad(u, dim), b.facet_normal()), v), std::nullopt, kDs)});
    Form cells = b.make_form({FormBuilder::integral(add(mul(div(grad(u, dim), dim), v), inner(grad(u, dim), grad(v, dim))))});
    CellMesh mesh = random_cells(dim, 5, rng);
    Fields fu = random_fields(dim, K, 1, rng), fv = random_fields(dim, K, 1, rng);
    double boundary = 0;
    for (int f = 0; f <= dim; ++f) boundary += apply_form(lower_on_facet(flux, f), mesh, fu, fv);
    INFO("dim " << dim);
    CHECK(boundary == Approx(apply_form(lower_form(cells), mesh, fu, fv)).epsilon(1e-11));
  }
}

TEST_CASE("a ds operator's quadrature rule lies on its facet, and FacetNormal in a dx integral is an error", "[facet][form]")
{
  FormBuilder b(FormSignature{CellType::Tetrahedron, Element{2, 1}, 1});
  Form uv = b.make_form({FormBuilder::integral(mul(b.trial_function(), b.test_function()), std::nullopt, kDs)});
  ActionIR ir = lower_on_facet(uv, 2);
  CHECK(ir.facet == 2);
  CHECK(ir.quadrature_degree == 4);
  Tabulation t = tabulate_action(ir, default_share_dir());
  for (int q = 0; q < t.n_points(); ++q) CHECK(t.rule.points[static_cast<size_t>(q * 3 + 1)] == Approx(-1.0));
  // Only ds integrals: no cell integrals to lower.
  CHECK_THROWS_WITH(lower_form(uv), Catch::Contains("the form has no dx integrals"));
  Form bad = b.make_form({FormBuilder::integral(mul(indexed(b.facet_normal(), {0}), mul(b.trial_function(), b.test_function())))});
  CHECK_THROWS_WITH(lower_form(bad), Catch::Contains("FacetNormal is defined on exterior facet integrals (ds) only"));
}

TEST_CASE("OpenCL kernels of ds operators match the CPU reference", "[facet][opencl]")
{
  std::mt19937 rng(31);
  const FormCase robin{"robin", 1, 2, 1,
                       [](FormBuilder &b) {
                         Expr u = b.trial_function(), v = b.test_function();
                         Expr flux = mul(dot(grad(u, b.dim()), b.facet_normal()), v);
                         return std::vector<Integral>{FormBuilder::integral(add(mul(b.constant("alpha", 1.5), mul(u, v)), flux), std::nullopt, kDs)};
                       }};
  for (int dim : {2, 3})
    for (int f = 0; f <= dim; ++f) {
      FormCase c = robin;
      c.facet = f;
      ActionData d = make_action(c, dim, dim == 2 ? 3 : 2, 37, rng);
      std::vector<Schedule> schedules = tiled_sample(d.ir, d.tab.n_points());
      schedules.push_back(Schedule::single_cell_per_work_item(32));
      for (const Schedule &s : schedules) {
        INFO("dim " << dim << " facet " << f << ": " << to_string(s));
        CHECK(opencl_action_error(d, s) < 1e-12);
      }
    }
}

TEST_CASE("form files: ds, ds(i), ds(subdomain_id=i, degree=q) and FacetNormal(cell)", "[facet][form]")
{
  const FormSignature sig{CellType::Triangle, Element{2, 1}, 1};
  ParsedForms forms = parse_form_text("n = FacetNormal(triangle)\n"
                                      "a = inner(grad(u), grad(v))*dx + 2*u*v*ds(3) + dot(grad(u), n)*v*ds + u*v*ds(subdomain_id=3, degree=6)\n",
                                      "t.ufl", sig);
  const std::vector<IntegralDomain> domains = integral_domains(forms.a);
  REQUIRE(domains.size() == 3);
  CHECK(describe_domain(domains[0]) == "dx");
  CHECK(describe_domain(domains[1]) == "ds");
  CHECK(describe_domain(domains[2]) == "ds(3)");
  CHECK(restricted_to(forms.a, domains[2]).integrals.size() == 2);
  LowerOptions o;
  o.domain = domains[2];
  o.facet = 1;
  CHECK(lower_form(forms.a, o).quadrature_degree == 6);
  o.domain = domains[1];
  CHECK(lower_form(forms.a, o).quadrature_degree == 3);  // grad u . n v: 1 + 2
  // FacetNormal in a dx integral: an error at that integral.
  ParsedForms bad = parse_form_text("n = FacetNormal(triangle)\na = u*v*ds + n[0]*u*v*dx\n", "t.ufl", sig);
  CHECK_THROWS_WITH(lower_form(bad.a), Catch::Contains("t.ufl:2:22: FacetNormal is defined on exterior facet integrals (ds) only"));
}

TEST_CASE("the Jacobian of a residual's ds terms is its derivative (central differences)", "[facet][derivative]")
{
  std::mt19937 rng(41);
  const int K = 2, dim = 2;
  FormBuilder b(FormSignature{CellType::Triangle, Element{K, 1}, 1});
  Expr w = b.coefficient("w"), v = b.test_function();
  // F(w; v) = (w^2 + sin(w) x0) v ds + (grad w . n) w v ds
  Expr integrand = add(mul(add(mul(w, w), mul(math_function("sin", w), indexed(b.x(), {0}))), v),
                       mul(mul(dot(grad(w, dim), b.facet_normal()), w), v));
  const std::vector<Integral> F = {FormBuilder::integral(integrand, std::nullopt, kDs)};
  const Form residual = b.make_form(F), jacobian = b.make_form(derivative(F, w, b.trial_function()));
  CellMesh mesh = random_cells(dim, 3, rng);
  const size_t n = static_cast<size_t>(mesh.n_cells * lagrange_dimension(dim, K));
  const std::vector<int> map = identity_map(n);
  std::vector<double> wv = random_values(n, rng), dv = random_values(n, rng);
  auto apply = [&](const ActionIR &ir, const std::vector<double> &wvals, const std::vector<double> *trial) {
    ActionArrays a;
    a.n_cells = mesh.n_cells;
    a.coordinates = {mesh.vertices.data(), mesh.coordinate_map.data()};
    if (trial) a.trial = {trial->data(), map.data()};
    a.coefficients = {{wvals.data(), map.data()}};
    a.test_map = map.data();
    std::vector<double> out(n, 0.0);
    reference_action(ir, tabulate_action(ir, default_share_dir()), a, out.data());
    return out;
  };
  for (int f = 0; f <= dim; ++f) {
    LowerOptions o;
    o.domain = kDs;
    o.facet = f;
    o.quadrature_degree = 8;  // the same rule for both (sin w: no degree is exact)
    const ActionIR J = lower_form(jacobian, o);
    o.rank = 1;
    const ActionIR R = lower_form(residual, o);
    const double h = 1e-6;
    std::vector<double> wp = wv, wm = wv;
    for (size_t i = 0; i < n; ++i) wp[i] += h * dv[i], wm[i] -= h * dv[i];
    const std::vector<double> jd = apply(J, wv, &dv), fp = apply(R, wp, nullptr), fm = apply(R, wm, nullptr);
    double err = 0, scale = 0;
    for (size_t i = 0; i < n; ++i) {
      err = std::max(err, std::abs((fp[i] - fm[i]) / (2 * h) - jd[i]));
      scale = std::max(scale, std::abs(jd[i]));
    }
    INFO("facet " << f);
    CHECK(scale > 1e-3);
    CHECK(err / scale < 1e-7);
  }
}
