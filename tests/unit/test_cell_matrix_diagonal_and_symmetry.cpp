// The reference diagonal is the diagonal of the assembled operator: entry i equals
// e_i^T A e_i computed with the whole action on global unit vectors (maps shared
// between cells, some entries constrained). Symmetric forms have symmetric cell
// matrices to rounding; forms that are not symmetric (an advection term, a nonlinear
// Jacobian whose asymmetry depends on the coefficient) are caught.
#include <catch2/catch.hpp>

#include <algorithm>

#include "reference/reference_diagonal.h"
#include "support/action_cases.h"
#include "support/forms_api.h"

using namespace femgpu;
using namespace femgpu::test;

namespace {

// n_cells x width into a pool of DOFs, distinct within a cell (as FE closures are),
// shared between cells, about 10% constrained (-1).
std::vector<int> closure_like_map(int n_cells, int width, int pool, std::mt19937 &rng)
{
  std::vector<int> all(static_cast<size_t>(pool)), map;
  std::iota(all.begin(), all.end(), 0);
  std::uniform_int_distribution<int> percent(0, 99);
  for (int c = 0; c < n_cells; ++c) {
    std::shuffle(all.begin(), all.end(), rng);
    for (int i = 0; i < width; ++i) map.push_back(percent(rng) < 10 ? -1 : all[static_cast<size_t>(i)]);
  }
  return map;
}

}  // namespace

TEST_CASE("the reference diagonal is the diagonal of the assembled operator", "[reference][diagonal]")
{
  std::mt19937 rng(7);
  for (const FormCase &c : form_cases()) {
    if (c.rank != 2) continue;
    for (int dim : {2, 3})
      for (int degree : {1, 2}) {
        ActionData d = make_action(c, dim, degree, 4, rng);
        const int width = cell_width(d.ir), pool = width * 2;
        d.test_map = closure_like_map(d.n_cells, width, pool, rng);
        d.maps[0] = d.test_map;  // trial and test share the numbering, as in the Mat
        ActionArrays a = d.arrays();
        std::vector<double> diag(static_cast<size_t>(pool), 0.0), unit(static_cast<size_t>(pool), 0.0);
        reference_diagonal(d.ir, d.tab, a, diag.data());
        a.trial.values = unit.data();
        double largest = 0.0, error = 0.0;
        for (int i = 0; i < pool; ++i) {
          std::vector<double> column(static_cast<size_t>(pool), 0.0);
          unit[static_cast<size_t>(i)] = 1.0;
          reference_action(d.ir, d.tab, a, column.data());
          unit[static_cast<size_t>(i)] = 0.0;
          largest = std::max(largest, std::abs(column[static_cast<size_t>(i)]));
          error = std::max(error, std::abs(column[static_cast<size_t>(i)] - diag[static_cast<size_t>(i)]));
        }
        INFO(c.name << " dim " << dim << " P" << degree << ": max |diag - e_i^T A e_i| = " << error << ", max |diag| = " << largest);
        CHECK(largest > 0.0);
        CHECK(error <= 1e-13 * largest);
      }
  }
}

TEST_CASE("cell matrices of symmetric forms are symmetric, of others not", "[reference][symmetry]")
{
  std::mt19937 rng(11);
  std::vector<FormCase> cases = form_cases();
  cases.push_back({"hyperelastic jacobian", 0, 2, 1, [](FormBuilder &b) {
                     return derivative(hyperelastic_residual(b), b.coefficient("w"), b.trial_function());
                   }});
  cases.push_back({"advection", 1, 2, 1, [](FormBuilder &b) {
                     return one(add(inner(grad(b.trial_function(), b.dim()), grad(b.test_function(), b.dim())),
                                    mul(indexed(grad(b.trial_function(), b.dim()), {0}), b.test_function())));
                   }});
  for (const FormCase &c : cases) {
    if (c.rank != 2) continue;
    const bool symmetric = c.name != "nonlinear jacobian" && c.name != "advection" && c.name != "P2 and DG0 vector coefficients";
    for (int dim : {2, 3})
      for (int degree : {1, 3}) {
        ActionData d = make_action(c, dim, degree, 2, rng);
        const double asymmetry = std::max(reference_cell_asymmetry(d.ir, d.tab, d.arrays(), 0),
                                          reference_cell_asymmetry(d.ir, d.tab, d.arrays(), 1));
        INFO(c.name << " dim " << dim << " P" << degree << ": asymmetry " << asymmetry);
        if (symmetric) CHECK(asymmetry <= 1e-13);
        else CHECK(asymmetry > 1e-3);
      }
  }
}

TEST_CASE("a cell matrix's column is the action on a unit vector", "[reference][diagonal]")
{
  std::mt19937 rng(3);
  const FormCase c = form_cases()[3];  // elasticity
  ActionData d = make_action(c, 2, 2, 1, rng);
  const int width = cell_width(d.ir);
  std::vector<int> identity(static_cast<size_t>(width));
  std::iota(identity.begin(), identity.end(), 0);
  d.maps[0] = d.test_map = identity;
  std::vector<double> x = random_values(static_cast<size_t>(width), rng), y(static_cast<size_t>(width), 0.0);
  d.values[0] = x;
  reference_action(d.ir, d.tab, d.arrays(), y.data());
  std::vector<double> m = reference_cell_matrix(d.ir, d.tab, d.arrays(), 0);
  for (int i = 0; i < width; ++i) {
    double mx = 0.0;
    for (int j = 0; j < width; ++j) mx += m[static_cast<size_t>(i * width + j)] * x[static_cast<size_t>(j)];
    CHECK(mx == Approx(y[static_cast<size_t>(i)]).epsilon(1e-12).margin(1e-14));
  }
}
