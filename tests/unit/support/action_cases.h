// Forms and random action inputs for comparing generated kernels with the CPU oracle.
//
// Every case has random non-zero DOF values, random constants, and maps drawn from a
// pool smaller than the map so that cells (and entries within a cell) share DOFs and
// the scatter collides; a few map entries are negative (constrained). Geometry is a set
// of random well-shaped simplices; P2 geometry perturbs every node to curve the cells.
#pragma once

#include <algorithm>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "fem/action_tables.h"
#include "ir/lower.h"
#include "kernel/kernel_abi.h"
#include "schedule/schedule.h"
#include "cell_mesh.h"
#include "forms_api.h"

namespace femgpu::test {

struct FormCase {
  std::string name;
  int components;       // 0: dim
  int rank;             // 2 bilinear, 1 residual
  int coordinate_degree;
  std::function<std::vector<Integral>(FormBuilder &)> integrals;
  int facet = -1;  // >= 0: lower the ds integrals on this local facet (every cell's facet f)
};

inline std::vector<Integral> one(const Expr &integrand) { return {FormBuilder::integral(integrand)}; }

// F(w; v) = (1 + w^2) grad w . grad v, the residual of a nonlinear diffusion.
inline std::vector<Integral> nonlinear_residual(FormBuilder &b)
{
  Expr w = b.coefficient("w"), v = b.test_function();
  Expr k = add(literal(1.0), mul(w, w));
  return one(inner(mul(k, grad(w, b.dim())), grad(v, b.dim())));
}

inline std::vector<FormCase> form_cases()
{
  auto gradu_gradv = [](FormBuilder &b) { return inner(grad(b.trial_function(), b.dim()), grad(b.test_function(), b.dim())); };
  return {
      {"mass", 1, 2, 1, [](FormBuilder &b) { return one(mul(b.trial_function(), b.test_function())); }},
      {"laplace", 1, 2, 1, [=](FormBuilder &b) { return one(gradu_gradv(b)); }},
      {"helmholtz", 1, 2, 1,
       [=](FormBuilder &b) {
         return one(sub(gradu_gradv(b), mul(b.constant("k2", 2.5), mul(b.trial_function(), b.test_function()))));
       }},
      {"elasticity", 0, 2, 1,
       [](FormBuilder &b) {
         const int d = b.dim();
         Expr lambda = b.constant("lmbda", 0.7), mu = b.constant("mu", 1.3);
         auto eps = [&](const Expr &w) { return sym(grad(w, d)); };
         Expr u = b.trial_function();
         Expr sigma = add(mul(mul(lambda, trace(eps(u))), identity(d)), mul(mul(literal(2.0), mu), eps(u)));
         return one(inner(sigma, eps(b.test_function())));
       }},
      {"nonlinear jacobian", 1, 2, 1,
       [](FormBuilder &b) { return derivative(nonlinear_residual(b), b.coefficient("w"), b.trial_function()); }},
      {"nonlinear residual", 1, 1, 1, nonlinear_residual},
      {"x-weighted", 1, 2, 1,
       [=](FormBuilder &b) {
         Expr x0 = indexed(b.x(), {0}), x1 = indexed(b.x(), {1});
         return one(add(mul(mul(add(literal(1.0), mul(x0, x0)), b.trial_function()), b.test_function()),
                        mul(math_function("exp", x1), gradu_gradv(b))));
       }},
      {"curved P2 geometry", 0, 2, 2,
       [=](FormBuilder &b) {
         return one(add(inner(grad(b.trial_function(), b.dim()), grad(b.test_function(), b.dim())),
                        inner(b.trial_function(), b.test_function())));
       }},
      {"hyperelasticity", 0, 2, 1,
       [](FormBuilder &b) { return derivative(hyperelastic_residual(b), b.coefficient("w"), b.trial_function()); }},
      // Coefficients in their own elements (their own tables, maps and loops): a P1 and
      // a DG0 scalar, whatever the trial degree.
      {"P1 and DG0 coefficients", 1, 2, 1,
       [=](FormBuilder &b) {
         Expr k1 = b.coefficient("k1", Element{1, 1}), k0 = b.coefficient("k0", Element{0, 1});
         Expr uv = mul(b.trial_function(), b.test_function());
         return one(add(mul(add(k1, k0), gradu_gradv(b)), mul(mul(k1, k1), uv)));
       }},
      // A P2 vector and a DG0 vector coefficient with a vector trial function: advection
      // (beta . grad) u . v plus a DG0 reaction c . u (c . v).
      {"P2 and DG0 vector coefficients", 0, 2, 1,
       [](FormBuilder &b) {
         const int d = b.dim();
         Expr beta = b.coefficient("beta", Element{2, d}), c = b.coefficient("c", Element{0, d});
         Expr u = b.trial_function(), v = b.test_function();
         return one(add(inner(dot(grad(u, d), beta), v), mul(dot(c, u), dot(c, v))));
       }}
  };
}

// The arrays of one action with random data; `arrays()` points into them.
struct ActionData {
  ActionIR ir;
  Tabulation tab;
  int n_cells = 0;
  std::vector<double> coords;
  std::vector<int> coords_map;
  std::vector<std::vector<double>> values;  // trial (rank 2) then coefficients
  std::vector<std::vector<int>> maps;
  std::vector<int> test_map;
  std::vector<double> constants;
  std::vector<double> prefill;              // the output before the action

  ActionArrays arrays() const
  {
    ActionArrays a;
    a.n_cells = n_cells;
    a.coordinates = {coords.data(), coords_map.data()};
    size_t k = 0;
    if (ir.rank == 2) a.trial = {values[0].data(), maps[0].data()}, k = 1;
    for (; k < values.size(); ++k) a.coefficients.push_back({values[k].data(), maps[k].data()});
    a.test_map = test_map.data();
    a.constants = constants;
    return a;
  }
};

// A map n_cells x width into a pool of width*n_cells/3 DOFs, with ~5% negative entries.
inline std::vector<int> colliding_map(int n_cells, int width, int pool, std::mt19937 &rng)
{
  std::uniform_int_distribution<int> entry(0, pool - 1), percent(0, 99);
  std::vector<int> m(static_cast<size_t>(n_cells * width));
  for (int &e : m) e = percent(rng) < 5 ? -1 : entry(rng);
  return m;
}

inline std::vector<double> random_values(size_t n, std::mt19937 &rng)
{
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> v(n);
  for (double &x : v) x = u(rng);
  return v;
}

// The form case of that name (form_cases); throws if there is none.
inline const FormCase &form_named(const std::string &name)
{
  static const std::vector<FormCase> forms = form_cases();
  for (const FormCase &f : forms)
    if (f.name == name) return f;
  throw std::logic_error("no test form " + name);
}

inline ActionData make_action(const FormCase &c, int dim, int degree, int n_cells, std::mt19937 &rng)
{
  const int C = c.components ? c.components : dim;
  FormSignature sig{dim == 2 ? CellType::Triangle : CellType::Tetrahedron, Element{degree, C}, c.coordinate_degree};
  FormBuilder b(sig);
  ActionData d;
  LowerOptions options;
  options.rank = c.rank;
  if (c.facet >= 0) options.domain.type = IntegralDomain::Type::ExteriorFacet, options.facet = c.facet;
  d.ir = lower_form(b.make_form(c.integrals(b)), options);
  d.tab = tabulate_action(d.ir, default_share_dir());
  d.n_cells = n_cells;
  CellMesh mesh = random_cells(dim, n_cells, rng);
  d.coords = c.coordinate_degree == 1 ? mesh.vertices : node_positions(mesh, c.coordinate_degree);
  if (c.coordinate_degree > 1)
    for (double &x : d.coords) x += 0.04 * std::uniform_real_distribution<double>(-1.0, 1.0)(rng);
  for (size_t k = 0; k < d.coords.size() / static_cast<size_t>(dim); ++k) d.coords_map.push_back(static_cast<int>(k) * dim);
  std::vector<int> functions;
  if (d.ir.rank == 2) functions.push_back(kTrialFunction);
  for (size_t i = 0; i < d.ir.coefficients.size(); ++i) functions.push_back(coefficient_function(static_cast<int>(i)));
  for (int f : functions) {
    const int width = function_dofs(d.ir, f), pool = std::max(4, width * n_cells / 3);
    d.maps.push_back(colliding_map(n_cells, width, pool, rng));
    d.values.push_back(random_values(static_cast<size_t>(pool), rng));
  }
  const int test_width = d.ir.n_test_basis * C, test_pool = std::max(4, test_width * n_cells / 3);
  d.test_map = colliding_map(n_cells, test_width, test_pool, rng);
  for (size_t i = 0; i < d.ir.constants.size(); ++i) d.constants.push_back(0.5 + std::uniform_real_distribution<double>(0.0, 1.0)(rng));
  d.prefill = random_values(static_cast<size_t>(test_pool), rng);
  return d;
}

// Tiled schedules that cover the awkward cases: truncated tiles in every loop, N_WI not
// dividing tiles, N_c*N_WI not a multiple of 32, T^Q < Q, several prefetch rounds and
// several rows per work-item; and one with each loop in a single whole tile.
inline std::vector<Schedule> tiled_sample(const ActionIR &ir, int Q)
{
  auto clamp = [](int v, int hi) { return std::max(1, std::min(v, hi)); };
  auto cols = [&](double fraction) {
    std::vector<int> c;
    for (const EvalGroup &g : ir.groups) c.push_back(clamp(static_cast<int>(g.n_basis * fraction) + 1, g.n_basis));
    return c;
  };
  const int nt = ir.n_test_basis;
  std::vector<Schedule> s;
  {  // truncated everywhere, 21 threads
    const int tq = clamp(Q / 2 + 1, Q);
    s.push_back(Schedule::tiled({3, 7, tq, clamp(5, tq), cols(0.6), clamp(nt * 3 / 5 + 1, nt), clamp(3, tq)}));
  }
  {  // whole loops in one tile each, 64 threads; T^Q shrinks until shared memory fits
    std::vector<int> whole;
    for (const EvalGroup &g : ir.groups) whole.push_back(g.n_basis);
    int tq = Q;
    while (tq > 1 && shared_memory_bytes(Schedule::tiled({2, 32, tq, tq, whole, nt, tq}), ir) > kMaxStaticSharedBytes) tq = (tq + 1) / 2;
    s.push_back(Schedule::tiled({2, 32, tq, tq, whole, nt, tq}));
  }
  {  // few work-items per cell: several rows each and several prefetch rounds, 5 threads
    const int tq = clamp(Q - 1, Q);
    s.push_back(Schedule::tiled({1, 5, tq, tq, cols(1.0), nt, clamp(tq / 2 + 1, tq)}));
  }
  {  // tiny tiles, many barriers, 15 threads
    const int tq = clamp(4, Q);
    s.push_back(Schedule::tiled({5, 3, tq, clamp(2, tq), cols(0.2), clamp(4, nt), clamp(2, tq)}));
  }
  return s;
}

// One kernel candidate of the covering sample: a form, a cell dimension and degree,
// and a schedule: SCPWI (tiled_shape < 0) or tiled_sample()[tiled_shape].
struct Candidate {
  size_t form = 0;
  int dim = 2, degree = 1;
  int tiled_shape = -1;
};

inline Schedule candidate_schedule(const Candidate &c, const ActionData &d)
{
  if (c.tiled_shape < 0) return Schedule::single_cell_per_work_item();
  return tiled_sample(d.ir, d.tab.n_points())[static_cast<size_t>(c.tiled_shape)];
}

// SCPWI for every form in 2D P1-P4 and 3D P1-P3; each form also meets every tiled
// shape once, on (dim, degree) pairs that rotate so every pair meets tiled kernels.
inline std::vector<Candidate> kernel_sample(int dim)
{
  const std::vector<std::pair<int, int>> pairs{{2, 1}, {2, 2}, {2, 3}, {2, 4}, {3, 1}, {3, 2}, {3, 3}};
  std::vector<Candidate> sample;
  const size_t n_forms = form_cases().size();
  for (size_t f = 0; f < n_forms; ++f) {
    for (const auto &[d, k] : pairs)
      if (d == dim) sample.push_back({f, d, k, -1});
    for (int shape = 0; shape < 4; ++shape) {
      const auto &[d, k] = pairs[(f + 2 * static_cast<size_t>(shape)) % pairs.size()];
      if (d == dim) sample.push_back({f, d, k, static_cast<int>((f + static_cast<size_t>(shape)) % 4)});
    }
  }
  return sample;
}

}  // namespace femgpu::test
