// Cost model, search space and roofline, as the paper defines them.
#include "tune/cost_model.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

#include "tune/quantities.h"

namespace femgpu {

namespace {

long long ceil_div(long long a, long long b) { return (a + b - 1) / b; }

}  // namespace

KernelShape KernelShape::from(const ActionIR &ir, int Q, int word_bytes)
{
  KernelShape s;
  s.dim = ir.dim;
  s.Q = Q;
  s.n_test = ir.n_test_basis;
  s.test_components = ir.signature.element.components;
  s.n_eval = ir.n_eval();
  s.n_test_tables = static_cast<int>(ir.test_derivatives.size());
  s.word_bytes = word_bytes;
  PointwiseCost pc = pointwise_cost(ir.pointwise);
  s.pointwise_ops_per_point = pc.per_point;
  s.pointwise_ops_per_cell = pc.per_cell;
  s.coordinate_dofs = ir.affine ? ir.dim * (ir.dim + 1) : 0;
  for (const EvalGroup &g : ir.groups) {
    KernelShape::Group kg;
    kg.n = g.n_basis;
    kg.n_deriv = static_cast<int>(g.terms.size());
    kg.n_tables = static_cast<int>(g.derivatives.size());
    int components = 0;
    for (int f : g.functions) {
      int c = f == kCoordinates ? ir.dim : f == kTrialFunction ? ir.signature.element.components
                                                               : ir.coefficients[static_cast<size_t>(f - 2)].element.components;
      components += c;
    }
    kg.dofs = g.n_basis * components;
    s.groups.push_back(kg);
  }
  return s;
}

MemoryCounts memory_counts(const KernelShape &s, const Tiles &t)
{
  MemoryCounts m;
  const long long full = s.Q / t.quad_tile, rest = s.Q % t.quad_tile;
  const double regathers = static_cast<double>(full * ceil_div(t.quad_tile, t.eval_rows) + ceil_div(rest, t.eval_rows));
  double dofs = 0, table_entries = 0, eval_reads = 0;
  for (const KernelShape::Group &g : s.groups) {
    dofs += g.dofs;
    table_entries += static_cast<double>(g.n) * s.Q * g.n_tables;
    eval_reads += static_cast<double>(g.n_tables) * g.n * s.Q;  // one read of each table entry serves every term using it
  }
  table_entries += static_cast<double>(s.n_test) * s.Q * s.n_test_tables;
  const double gather = regathers * dofs + s.coordinate_dofs;
  const double scatter = static_cast<double>(ceil_div(s.Q, t.quad_tile)) * s.n_test * s.test_components;
  const double ref = (table_entries + s.Q) / t.cells_per_group;
  m.global_words = gather + scatter + ref;
  m.local_words = eval_reads + s.n_eval * s.Q + s.n_eval * s.Q + static_cast<double>(s.n_test_tables) * s.Q * s.n_test;
  return m;
}

double resident_subgroups(const KernelShape &s, const Tiles &t, const DeviceParams &d)
{
  const double L = static_cast<double>(local_memory_words(s, t)) * s.word_bytes;
  const double groups = std::min(d.local_max_bytes / L, static_cast<double>(d.groups_max));
  return static_cast<double>(ceil_div(static_cast<long long>(t.cells_per_group) * t.items_per_cell, d.subgroup_width)) * groups;
}

double t_sync(const KernelShape &s, const Tiles &t, const DeviceParams &d)
{
  if (d.barrier_seconds <= 0) return 0;
  const double L = static_cast<double>(local_memory_words(s, t)) * s.word_bytes;
  const double groups = std::max(1.0, std::min(std::floor(d.local_max_bytes / L), static_cast<double>(d.groups_max)));
  const double concurrent_cells = static_cast<double>(t.cells_per_group) * std::max(1, d.multiprocessors) * groups;
  return static_cast<double>(n_sync(s, t)) * d.barrier_seconds / concurrent_cells;
}

double t_memory(const KernelShape &s, const Tiles &t, const DeviceParams &d)
{
  const double reside = eta_pred(s, t) * eta_simd(t) * resident_subgroups(s, t, d);
  const double bw_global = std::min(d.beta_global, d.beta_global / d.sg_sat_global * reside);
  const double bw_local = std::min(d.beta_local, d.beta_local / d.sg_sat_local * reside);
  MemoryCounts m = memory_counts(s, t);
  return m.global_words * s.word_bytes / bw_global + m.local_words * s.word_bytes / bw_local;
}

double t_heur(const KernelShape &s, const Tiles &t, const DeviceParams &d) { return t_memory(s, t, d) + t_sync(s, t, d); }

std::vector<int> tile_sizes(int n)
{
  std::vector<int> v;
  for (int k = 1; k <= n; ++k) {
    int size = static_cast<int>(ceil_div(n, k));
    if (v.empty() || v.back() != size) v.push_back(size);
  }
  return v;
}

namespace {

// (N_c, N_WI) pairs with N_c N_WI <= wg_max and eta_simd >= eta_simd_min.
std::vector<std::pair<int, int>> work_divisions(const SearchLimits &l)
{
  std::vector<std::pair<int, int>> out;
  for (int nc = 1; nc <= l.wg_max; ++nc)
    for (int nwi = 1; nc * nwi <= l.wg_max; ++nwi) {
      Tiles t;
      t.cells_per_group = nc;
      t.items_per_cell = nwi;
      if (eta_simd(t) >= l.eta_simd_min) out.emplace_back(nc, nwi);
    }
  return out;
}

}  // namespace

bool visit_tiles(const KernelShape &s, const SearchLimits &limits, const DeviceParams &d,
                 const std::function<bool(const Tiles &)> &visit)
{
  const auto divisions = work_divisions(limits);
  std::vector<std::vector<int>> col_choices;
  for (const KernelShape::Group &g : s.groups) col_choices.push_back(tile_sizes(g.n));
  bool skipped = false;
  for (int tq : tile_sizes(s.Q)) {
    long long in_class = 0;
    const bool limited = limits.max_per_quad_tile > 0;
    // Returns false to leave this T^Q: its budget is spent.
    auto admit = [&]() {
      if (!limited || in_class < limits.max_per_quad_tile) return true;
      skipped = true;
      return false;
    };
    for (int ter : tile_sizes(tq)) {
      if (!admit()) break;
      for (int tqr : tile_sizes(s.n_test)) {
        if (!admit()) break;
        for (int tqc : tile_sizes(tq)) {
          if (!admit()) break;
          // Walk every combination of eval column tiles (one per group).
          std::vector<size_t> pick(col_choices.size(), 0);
          for (bool more = true; more;) {
            Tiles t;
            t.quad_tile = tq;
            t.eval_rows = ter;
            t.quad_rows = tqr;
            t.quad_cols = tqc;
            for (size_t g = 0; g < pick.size(); ++g) t.eval_cols.push_back(col_choices[g][pick[g]]);
            if (eta_alias(s, t) >= limits.eta_alias_min) {
              for (const auto &[nc, nwi] : divisions) {
                t.cells_per_group = nc;
                t.items_per_cell = nwi;
                if (static_cast<double>(allocated_local_words(s, t)) * s.word_bytes > d.local_max_per_group) continue;
                if (!admit()) break;
                if (!visit(t)) return skipped;
                ++in_class;
              }
            }
            more = false;
            for (size_t g = 0; g < pick.size() && !more; ++g) {
              if (++pick[g] < col_choices[g].size()) more = true;
              else pick[g] = 0;
            }
            if (more && !admit()) more = false;
          }
        }
      }
    }
  }
  return skipped;
}

SearchSpace enumerate_tiles(const KernelShape &s, const SearchLimits &limits, const DeviceParams &d)
{
  SearchSpace space;
  visit_tiles(s, limits, d, [&](const Tiles &t) {
    space.candidates.push_back(t);
    if (static_cast<long long>(space.candidates.size()) < limits.max_candidates) return true;
    space.truncated = true;
    return false;
  });
  return space;
}

std::vector<Tiles> rank_tiles(const KernelShape &s, const std::vector<Tiles> &candidates, const DeviceParams &d, size_t b)
{
  std::vector<size_t> order(candidates.size());
  std::iota(order.begin(), order.end(), 0);
  std::vector<double> cost(candidates.size());
  for (size_t i = 0; i < candidates.size(); ++i) cost[i] = t_heur(s, candidates[i], d);
  const size_t k = std::min(b, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<long>(k), order.end(),
                    [&](size_t a, size_t c) { return cost[a] < cost[c] || (cost[a] == cost[c] && a < c); });
  std::vector<Tiles> best;
  for (size_t i = 0; i < k; ++i) best.push_back(candidates[order[i]]);
  return best;
}

Roofline roofline(const KernelShape &s, double flops_per_cell, long long n_cells, long long n_dofs_in, long long n_dofs_out,
                  long long n_coordinate_values, long long n_map_entries, const DeviceParams &d)
{
  Roofline r;
  r.flops = flops_per_cell * static_cast<double>(n_cells);
  // Each DOF read once, each output DOF read and written once, coordinates and maps once.
  r.global_bytes = static_cast<double>(n_dofs_in + 2 * n_dofs_out + n_coordinate_values) * s.word_bytes + 4.0 * static_cast<double>(n_map_entries);
  Tiles whole;  // the local accesses do not depend on tiles
  whole.eval_cols.assign(s.groups.size(), 1);
  whole.quad_tile = s.Q;
  r.local_bytes = memory_counts(s, whole).local_words * s.word_bytes * static_cast<double>(n_cells);
  const double global = r.flops / r.global_bytes * d.beta_global;
  const double local = r.flops / r.local_bytes * std::max(d.beta_local, d.beta_ldg);
  r.gflops = std::min({global, local, d.flops_peak}) / 1e9;
  r.bound = r.gflops * 1e9 == global ? "global" : r.gflops * 1e9 == local ? "local" : "compute";
  return r;
}

}  // namespace femgpu
