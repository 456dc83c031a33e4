// A bench kernel against the CPU reference on sampled cells of its mesh (bench_verify.h).
#include "tools/bench_verify.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>

#include "fem/share_dir.h"
#include "kernel/kernel_abi.h"
#include "reference/reference_action.h"

namespace femgpu {

namespace {

// The rows of `map` (width entries per cell) of the given cells, in their order.
std::vector<int> rows_of(const int *map, int width, const std::vector<int> &cells)
{
  std::vector<int> out;
  out.reserve(cells.size() * static_cast<size_t>(width));
  for (int cell : cells) out.insert(out.end(), map + static_cast<size_t>(cell) * width, map + static_cast<size_t>(cell + 1) * width);
  return out;
}

}  // namespace

BenchVerification verify_on_sample(const BenchCase &c, const BenchOperands &o, const CudaKernel &kernel, int max_cells, unsigned seed)
{
  const ActionArrays &all = o.arrays;
  std::vector<int> cells(static_cast<size_t>(all.n_cells));
  std::iota(cells.begin(), cells.end(), 0);
  std::vector<int> sample;
  std::sample(cells.begin(), cells.end(), std::back_inserter(sample), std::max(0, std::min(max_cells, all.n_cells)), std::mt19937(seed));
  BenchVerification v;
  v.cells = static_cast<int>(sample.size());
  if (sample.empty()) return v;
  // The sample's rows of each map; the test map stays the trial map's where it is one.
  const int test_width = c.ir.n_test_basis * c.ir.signature.element.components;
  std::vector<int> coords_map = rows_of(all.coordinates.map, map_width(c.ir, kCoordinates), sample);
  std::vector<int> test_map = rows_of(all.test_map, test_width, sample);
  std::vector<std::vector<int>> maps;
  ActionArrays sub = all;
  sub.n_cells = v.cells;
  sub.coordinates.map = coords_map.data();
  sub.test_map = test_map.data();
  auto restrict_map = [&](FunctionArrays &f, int function) {
    if (!f.map) return;
    if (f.map == all.test_map) {
      f.map = test_map.data();
      return;
    }
    maps.push_back(rows_of(f.map, map_width(c.ir, function), sample));
    f.map = maps.back().data();
  };
  maps.reserve(1 + sub.coefficients.size());
  if (c.ir.rank == 2) restrict_map(sub.trial, kTrialFunction);
  for (size_t i = 0; i < sub.coefficients.size(); ++i) restrict_map(sub.coefficients[i], coefficient_function(static_cast<int>(i)));
  const std::size_t n_out = o.data->n_out();
  std::vector<double> want(n_out, 0.0), got(n_out, 0.0);
  // At the rule's points also where the kernel's are compressed: that checks the compression.
  const Tabulation rule = c.tab.compressed() ? tabulate_action(c.ir, default_share_dir(), Points::Rule) : c.tab;
  reference_action(c.ir, rule, sub, want.data());
  DeviceActionData data(c.ir, c.tab, sub, n_out, kernel.schedule().precision());
  data.zero_out();
  kernel.launch(data);
  data.download_out(got.data());
  double err = 0.0, scale = 0.0;
  for (std::size_t i = 0; i < n_out; ++i) {
    err = std::max(err, std::isfinite(got[i]) ? std::fabs(got[i] - want[i]) : INFINITY);
    scale = std::max(scale, std::fabs(want[i]));
  }
  // A zero reference would make any kernel that writes nothing pass.
  if (!(scale > 0)) throw std::runtime_error("verification: the reference action on the " + std::to_string(v.cells) + " sampled cells is zero");
  v.relative_error = err / scale;
  return v;
}

}  // namespace femgpu
