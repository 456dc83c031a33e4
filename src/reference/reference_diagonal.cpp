// Cell matrices column by column from the reference action on unit vectors.
#include "reference/reference_diagonal.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>

#include "fem/tabulation.h"

namespace femgpu {

namespace {

int element_width(int dim, const Element &e) { return lagrange_dimension(dim, e.degree) * e.components; }

// The arrays of one cell as a one-cell action: the same values, maps advanced to `cell`.
ActionArrays one_cell(const ActionIR &ir, const ActionArrays &a, int cell)
{
  const int d = ir.dim;
  ActionArrays c;
  c.n_cells = 1;
  const size_t coordinate_width = static_cast<size_t>(lagrange_dimension(d, ir.signature.coordinate_degree));  // one entry per node
  c.coordinates = {a.coordinates.values, a.coordinates.map + static_cast<size_t>(cell) * coordinate_width};
  for (size_t i = 0; i < ir.coefficients.size() && i < a.coefficients.size(); ++i) {
    const size_t width = static_cast<size_t>(element_width(d, ir.coefficients[i].element));
    c.coefficients.push_back({a.coefficients[i].values, a.coefficients[i].map + static_cast<size_t>(cell) * width});
  }
  c.constants = a.constants;
  return c;
}

// Columns of the matrix of a one-cell action `c`; its trial and test maps are set here.
std::vector<double> columns(const ActionIR &ir, const Tabulation &tab, ActionArrays c)
{
  if (ir.rank != 2) throw std::invalid_argument("cell matrix: the form is a residual (rank 1), not a bilinear form");
  const int width = cell_width(ir);
  std::vector<int> identity(static_cast<size_t>(width));
  std::iota(identity.begin(), identity.end(), 0);
  std::vector<double> unit(static_cast<size_t>(width), 0.0), column(static_cast<size_t>(width));
  std::vector<double> matrix(static_cast<size_t>(width * width));
  c.trial = {unit.data(), identity.data()};
  c.test_map = identity.data();
  for (int j = 0; j < width; ++j) {
    unit[static_cast<size_t>(j)] = 1.0;
    std::fill(column.begin(), column.end(), 0.0);
    reference_action(ir, tab, c, column.data());
    for (int i = 0; i < width; ++i) matrix[static_cast<size_t>(i * width + j)] = column[static_cast<size_t>(i)];
    unit[static_cast<size_t>(j)] = 0.0;
  }
  return matrix;
}

}  // namespace

std::vector<double> reference_cell_matrix(const ActionIR &ir, const Tabulation &tab, const ActionArrays &arrays, int cell)
{
  return columns(ir, tab, one_cell(ir, arrays, cell));
}

void reference_diagonal(const ActionIR &ir, const Tabulation &tab, const ActionArrays &arrays, double *diag)
{
  if (arrays.n_cells == 0) return;  // a rank without cells: its arrays may be empty (null)
  if (!arrays.test_map) throw std::invalid_argument("reference_diagonal: test map missing");
  const size_t width = static_cast<size_t>(cell_width(ir));
  for (int cell = 0; cell < arrays.n_cells; ++cell) {
    std::vector<double> m = reference_cell_matrix(ir, tab, arrays, cell);
    const int *map = arrays.test_map + static_cast<size_t>(cell) * width;
    for (size_t i = 0; i < width; ++i)
      if (map[i] >= 0) diag[map[i]] += m[i * width + i];
  }
}

double reference_cell_asymmetry(const ActionIR &ir, const Tabulation &tab, const ActionArrays &arrays, int cell, unsigned seed)
{
  ActionArrays c = one_cell(ir, arrays, cell);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> value(0.25, 1.25);
  std::vector<std::vector<double>> random(ir.coefficients.size());
  std::vector<std::vector<int>> identity(ir.coefficients.size());
  c.coefficients.clear();
  for (size_t i = 0; i < ir.coefficients.size(); ++i) {
    random[i].resize(static_cast<size_t>(element_width(ir.dim, ir.coefficients[i].element)));
    for (double &v : random[i]) v = value(rng);
    identity[i].resize(random[i].size());
    std::iota(identity[i].begin(), identity[i].end(), 0);
    c.coefficients.push_back({random[i].data(), identity[i].data()});
  }
  std::vector<double> m = columns(ir, tab, c);
  const size_t n = static_cast<size_t>(cell_width(ir));
  double largest = 0.0, difference = 0.0;
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) {
      largest = std::max(largest, std::abs(m[i * n + j]));
      difference = std::max(difference, std::abs(m[i * n + j] - m[j * n + i]));
    }
  if (!std::isfinite(largest) || !std::isfinite(difference)) return INFINITY;
  return largest > 0.0 ? difference / largest : 0.0;
}

}  // namespace femgpu
