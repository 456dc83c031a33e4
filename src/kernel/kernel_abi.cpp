// One source of truth for argument order: the builders declare parameters from
// kernel_arguments and the runtimes bind buffers from it.
#include "kernel/kernel_abi.h"

#include <algorithm>
#include <functional>
#include <map>

namespace femgpu {

std::string function_stem(int function)
{
  if (function == kCoordinates) return "coords";
  if (function == kTrialFunction) return "u";
  return "w" + std::to_string(function - 2);
}

int function_components(const ActionIR &ir, int function)
{
  if (function == kCoordinates) return ir.dim;
  if (function == kTrialFunction) return ir.signature.element.components;
  return ir.coefficients.at(static_cast<size_t>(function - 2)).element.components;
}

int map_width(const ActionIR &ir, int function)
{
  return function == kCoordinates ? coordinate_basis(ir) : function_dofs(ir, function);
}

int coordinate_basis(const ActionIR &ir) { return lagrange_dimension(ir.dim, ir.signature.coordinate_degree); }

int function_dofs(const ActionIR &ir, int function)
{
  if (function == kCoordinates) return coordinate_basis(ir) * ir.dim;
  const Element &e = function == kTrialFunction ? ir.signature.element
                                                : ir.coefficients.at(static_cast<size_t>(function - 2)).element;
  return lagrange_dimension(ir.dim, e.degree) * e.components;
}

std::vector<KernelArg> kernel_arguments(const ActionIR &ir)
{
  std::vector<KernelArg> args{{ArgKind::CellCount, 0, "n_cells"}};
  std::vector<int> functions{kCoordinates};
  if (ir.rank == 2) functions.push_back(kTrialFunction);
  for (size_t i = 0; i < ir.coefficients.size(); ++i) functions.push_back(coefficient_function(static_cast<int>(i)));
  for (int f : functions) {
    args.push_back({ArgKind::Values, f, "g_" + function_stem(f)});
    args.push_back({ArgKind::Map, f, "g_" + function_stem(f) + "_map"});
  }
  args.push_back({ArgKind::TestMap, 0, "g_test_map"});
  args.push_back({ArgKind::Tables, 0, "g_tables"});
  args.push_back({ArgKind::Weights, 0, "g_weights"});
  args.push_back({ArgKind::Constants, 0, "g_constants"});
  args.push_back({ArgKind::Out, 0, "g_out"});
  return args;
}

std::vector<KernelArg> diagonal_arguments(const ActionIR &ir)
{
  std::vector<KernelArg> args = kernel_arguments(ir);
  args.erase(std::remove_if(args.begin(), args.end(), [](const KernelArg &a) {
                              return (a.kind == ArgKind::Values || a.kind == ArgKind::Map) && a.function == kTrialFunction;
                            }),
             args.end());
  return args;
}

std::vector<KernelArg> cell_matrix_arguments(const ActionIR &ir)
{
  std::vector<KernelArg> args = diagonal_arguments(ir);
  args.erase(std::remove_if(args.begin(), args.end(), [](const KernelArg &a) { return a.kind == ArgKind::TestMap; }), args.end());
  return args;
}

TableLayout pack_tables(const ActionIR &ir, const Tabulation &tab, bool merge_equal)
{
  TableLayout layout;
  // A table is one element's derivative at the rule's points: the trial and test
  // tables of a square form, or the coordinates' and a P1 function's, are the same
  // numbers, merged when asked (table_words in schedule.h counts by the same key). The
  // values are compared too, so a key that ever meant two tables would not merge them.
  std::map<std::pair<int, MultiIndex>, long long> stored;
  auto append = [&](int degree, const MultiIndex &alpha, const std::vector<double> &table) {
    const auto key = std::make_pair(degree, alpha);
    if (auto it = stored.find(key); merge_equal && it != stored.end() && it->second + table.size() <= layout.data.size() &&
                                    std::equal(table.begin(), table.end(), layout.data.begin() + it->second))
      return it->second;
    const long long offset = static_cast<long long>(layout.data.size());
    layout.data.insert(layout.data.end(), table.begin(), table.end());
    stored.emplace(key, offset);
    return offset;
  };
  for (size_t g = 0; g < ir.groups.size(); ++g) {
    layout.group_offsets.emplace_back();
    for (size_t d = 0; d < tab.group_tables[g].size(); ++d)
      layout.group_offsets.back().push_back(append(ir.groups[g].element.degree, ir.groups[g].derivatives[d], tab.group_tables[g][d]));
  }
  // Merged, an identity test table (Tabulation::test_identity) is left out (offset -1):
  // the merging kernels (SCPWI's) add each point's value to its output instead of
  // reading it, and table_words counts the test and trial tables of one key once.
  for (size_t d = 0; d < tab.test_tables.size(); ++d)
    layout.test_offsets.push_back(merge_equal && tab.test_identity
                                      ? -1
                                      : append(ir.signature.element.degree, ir.test_derivatives[d], tab.test_tables[d]));
  if (layout.data.empty()) layout.data.push_back(0.0);  // buffers may not be empty
  return layout;
}

MmaTables mma_tables(const ActionIR &ir, const Tabulation &tab, long long base, bool values)
{
  MmaTables m;
  const int Q = tab.n_points();
  m.points = 2 * ((Q + 7) / 8 * 8);
  // The offsets first, by count: the kernel builder needs only them.
  long long words = 0;
  for (size_t g = 0; g < ir.groups.size(); ++g) {
    m.group_offsets.push_back(base + words);
    words += static_cast<long long>(tab.group_tables[g].size()) * (m.points / 8) * ((ir.groups[g].n_basis + 3) / 4) * 32;
  }
  m.test_offset = base + words;
  if (!values) return m;
  // One A fragment: 32 words, lane (r, c) = value(r, c), zero where value has none.
  auto fragment = [&](const std::function<double(int, int)> &value) {
    for (int lane = 0; lane < 32; ++lane) m.data.push_back(value(lane / 4, lane % 4));
  };
  for (size_t g = 0; g < ir.groups.size(); ++g) {
    const int n = ir.groups[g].n_basis;
    for (const std::vector<double> &phi : tab.group_tables[g])
      for (int pt = 0; pt < m.points / 8; ++pt)
        for (int s = 0; s < (n + 3) / 4; ++s)
          fragment([&](int r, int c) {
            const int q = 8 * pt + r, j = 4 * s + c;
            return q < Q && j < n ? phi[static_cast<size_t>(q) * n + j] : 0.0;
          });
  }
  const int n = ir.n_test_basis;
  for (const std::vector<double> &psi : tab.test_tables)
    for (int rt = 0; rt < (n + 7) / 8; ++rt)
      for (int p = 0; p < m.points / 4; ++p)
        fragment([&](int r, int c) {
          const int q = 4 * p + c, i = 8 * rt + r;
          return q < Q && i < n ? psi[static_cast<size_t>(q) * n + i] : 0.0;
        });
  return m;
}

std::vector<double> device_tables(const ActionIR &ir, const Tabulation &tab)
{
  std::vector<double> data = pack_tables(ir, tab).data;
  const MmaTables m = mma_tables(ir, tab, static_cast<long long>(data.size()));
  data.insert(data.end(), m.data.begin(), m.data.end());
  return data;
}

}  // namespace femgpu
