// Helpers for the UFL-syntax tests: parse form text for a signature, and the CPU
// reference action of a lowered form on random data, so that two spellings of one form
// can be compared output by output.
#pragma once

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "cell_mesh.h"
#include "fem/action_tables.h"
#include "form/form_file.h"
#include "form/parser.h"
#include "ir/lower.h"
#include "kernel/kernel_abi.h"
#include "reference/reference_action.h"

namespace femgpu::test {

inline FormSignature triangle_p(int degree, int components = 1)
{
  return FormSignature{CellType::Triangle, Element{degree, components}, 1};
}

// The form file's a (rank 2) or F (rank 1), lowered.
inline ActionIR lower_text(const std::string &text, const FormSignature &sig, int rank = 2)
{
  ParsedForms p = parse_form_text(text, "t.ufl", sig);
  LowerOptions o;
  o.rank = rank;
  return lower_form(rank == 2 ? p.a : p.F.value(), o);
}

// out = A u (rank 2) or F(w) (rank 1) on n_cells disconnected random cells, with DOF
// values, coefficients and constants drawn from `seed` in table order: two forms with
// the same element and the same coefficient and constant tables see the same data.
// points: the tables at the rule's points or compressed (fem/compressed_points.h).
inline std::vector<double> random_action(const ActionIR &ir, unsigned seed, int n_cells = 3, Points points = Points::Compressed)
{
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0), positive(0.5, 1.5);
  const Tabulation tab = tabulate_action(ir, default_share_dir(), points);
  const CellMesh mesh = random_cells(ir.dim, n_cells, rng);
  auto random_function = [&](int function) {
    std::vector<double> v(static_cast<size_t>(function_dofs(ir, function) * n_cells));
    for (double &x : v) x = value(rng);
    return v;
  };
  std::vector<std::vector<double>> values;
  if (ir.rank == 2) values.push_back(random_function(kTrialFunction));
  for (size_t c = 0; c < ir.coefficients.size(); ++c) values.push_back(random_function(coefficient_function(static_cast<int>(c))));
  const size_t width = static_cast<size_t>(ir.n_test_basis * ir.signature.element.components);
  size_t longest = width * static_cast<size_t>(n_cells);
  for (const std::vector<double> &v : values) longest = std::max(longest, v.size());
  const std::vector<int> map = identity_map(longest);
  ActionArrays arrays;
  arrays.n_cells = n_cells;
  arrays.coordinates = {mesh.vertices.data(), mesh.coordinate_map.data()};
  size_t k = 0;
  if (ir.rank == 2) arrays.trial = {values[k++].data(), map.data()};
  for (; k < values.size(); ++k) arrays.coefficients.push_back({values[k].data(), map.data()});
  arrays.test_map = map.data();
  for (size_t c = 0; c < ir.constants.size(); ++c) arrays.constants.push_back(positive(rng));
  std::vector<double> out(width * static_cast<size_t>(n_cells), 0.0);
  reference_action(ir, tab, arrays, out.data());
  return out;
}

// max |a - b| / max(1, max |a|): 0 for the same action.
inline double action_difference(const std::vector<double> &a, const std::vector<double> &b)
{
  if (a.size() != b.size()) return INFINITY;
  double diff = 0.0, scale = 1.0;
  for (size_t i = 0; i < a.size(); ++i) {
    diff = std::max(diff, std::fabs(a[i] - b[i]));
    scale = std::max(scale, std::fabs(a[i]));
  }
  return diff / scale;
}

// Whether two form texts lower to the same action (1e-14) on random data, several seeds.
inline double difference_of_forms(const std::string &a, const std::string &b, const FormSignature &sig, int rank = 2)
{
  const ActionIR ia = lower_text(a, sig, rank), ib = lower_text(b, sig, rank);
  double worst = 0.0;
  for (unsigned seed : {1u, 2u, 3u}) worst = std::max(worst, action_difference(random_action(ia, seed), random_action(ib, seed)));
  return worst;
}

}  // namespace femgpu::test
