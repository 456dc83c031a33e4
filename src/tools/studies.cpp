// Statistics, sampling and constrained spaces of the paper's studies (studies.h).
#include "tools/studies.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <future>
#include <queue>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>

namespace femgpu {

std::vector<double> average_ranks(const std::vector<double> &values)
{
  const size_t n = values.size();
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return values[a] < values[b]; });
  std::vector<double> ranks(n);
  for (size_t i = 0; i < n;) {
    size_t j = i + 1;
    while (j < n && values[order[j]] == values[order[i]]) ++j;
    const double mean_rank = 0.5 * static_cast<double>(i + 1 + j);  // mean of i+1 .. j
    for (size_t m = i; m < j; ++m) ranks[order[m]] = mean_rank;
    i = j;
  }
  return ranks;
}

double spearman_rho(const std::vector<double> &x, const std::vector<double> &y)
{
  const size_t n = x.size();
  if (n != y.size()) throw std::invalid_argument("spearman_rho: x has " + std::to_string(n) + " values, y " + std::to_string(y.size()));
  if (n < 2) return std::nan("");
  const std::vector<double> rx = average_ranks(x), ry = average_ranks(y);
  const double mean = 0.5 * static_cast<double>(n + 1);  // of ranks 1..n, ties or not
  double sxy = 0, sxx = 0, syy = 0;
  for (size_t i = 0; i < n; ++i) {
    sxy += (rx[i] - mean) * (ry[i] - mean);
    sxx += (rx[i] - mean) * (rx[i] - mean);
    syy += (ry[i] - mean) * (ry[i] - mean);
  }
  if (sxx == 0 || syy == 0) return std::nan("");
  return sxy / std::sqrt(sxx * syy);
}

double topk_quality(const std::vector<double> &times_in_model_order, std::size_t k)
{
  const double inf = std::numeric_limits<double>::infinity();
  double best_all = inf, best_k = inf;
  for (size_t i = 0; i < times_in_model_order.size(); ++i) {
    const double t = times_in_model_order[i];
    if (std::isnan(t)) continue;
    best_all = std::min(best_all, t);
    if (i < k) best_k = std::min(best_k, t);
  }
  if (!std::isfinite(best_all)) return std::nan("");
  return std::isfinite(best_k) ? best_all / best_k : 0.0;
}

double arithmetic_mean(const std::vector<double> &xs)
{
  double sum = 0;
  int n = 0;
  for (double x : xs)
    if (!std::isnan(x)) sum += x, ++n;
  return n ? sum / n : std::nan("");
}

double geometric_mean(const std::vector<double> &xs)
{
  double sum = 0;
  int n = 0;
  for (double x : xs)
    if (!std::isnan(x) && x > 0) sum += std::log(x), ++n;
  return n ? std::exp(sum / n) : std::nan("");
}

namespace {

// Uniform in [0, bound) by rejection (no modulo bias; independent of <random>'s
// implementation-defined distributions).
std::uint64_t bounded(std::mt19937_64 &rng, std::uint64_t bound)
{
  const std::uint64_t limit = std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % bound;
  for (;;) {
    const std::uint64_t r = rng();
    if (r < limit) return r % bound;
  }
}

}  // namespace

std::vector<std::size_t> sample_without_replacement(std::size_t population, std::size_t k, std::uint64_t seed)
{
  std::mt19937_64 rng(seed);
  k = std::min(k, population);
  // Partial Fisher-Yates on a sparse permutation: only the touched positions are stored.
  std::vector<std::pair<std::size_t, std::size_t>> swapped;  // position -> value
  auto at = [&](std::size_t i) {
    for (const auto &[p, v] : swapped)
      if (p == i) return v;
    return i;
  };
  auto set = [&](std::size_t i, std::size_t v) {
    for (auto &[p, w] : swapped)
      if (p == i) {
        w = v;
        return;
      }
    swapped.emplace_back(i, v);
  };
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < k; ++i) {
    const std::size_t j = i + static_cast<std::size_t>(bounded(rng, population - i));
    const std::size_t vi = at(i), vj = at(j);
    set(i, vj), set(j, vi);
    out.push_back(vj);
  }
  return out;
}

namespace {

struct Ranked {
  double cost;
  long long position;
  Tiles tiles;
  bool operator<(const Ranked &o) const { return cost < o.cost || (cost == o.cost && position < o.position); }
};

}  // namespace

RankedTiles top_tiles(const KernelShape &s, const SearchLimits &limits, const DeviceParams &d, std::size_t b,
                      const std::function<bool(const Tiles &)> &keep)
{
  // Max-heap on (cost, position): the top is the worst of the best b so far, so a later
  // candidate of equal cost never displaces an earlier one (rank_tiles' order).
  std::priority_queue<Ranked> heap;
  RankedTiles out;
  visit_tiles(s, limits, d, [&](const Tiles &t) {
    if (keep && !keep(t)) return true;
    Ranked r{t_heur(s, t, d), out.space_size++, {}};
    if (b > 0 && (heap.size() < b || r < heap.top())) {
      r.tiles = t;
      heap.push(std::move(r));
      if (heap.size() > b) heap.pop();
    }
    if (out.space_size < limits.max_candidates) return true;
    out.truncated = true;
    return false;
  });
  std::vector<Ranked> best;
  for (; !heap.empty(); heap.pop()) best.push_back(heap.top());
  for (auto it = best.rbegin(); it != best.rend(); ++it) {
    out.best.push_back(it->tiles);
    out.model_seconds.push_back(it->cost);
  }
  return out;
}

std::vector<Tiles> tiles_at(const KernelShape &s, const SearchLimits &limits, const DeviceParams &d,
                            const std::vector<std::size_t> &sorted_positions)
{
  std::vector<Tiles> out;
  std::size_t position = 0, next = 0;
  visit_tiles(s, limits, d, [&](const Tiles &t) {
    if (next < sorted_positions.size() && sorted_positions[next] == position) out.push_back(t), ++next;
    ++position;
    return next < sorted_positions.size();
  });
  return out;
}

namespace {

// Runs the jobs, at most `threads` at a time.
void run_parallel(const std::vector<std::function<void()>> &jobs, int threads)
{
  const size_t batch = static_cast<size_t>(std::max(1, threads));
  for (size_t start = 0; start < jobs.size(); start += batch) {
    std::vector<std::future<void>> running;
    for (size_t i = start; i < std::min(jobs.size(), start + batch); ++i) running.push_back(std::async(std::launch::async, jobs[i]));
    for (auto &f : running) f.get();
  }
}

RankedTiles prefix(const RankedTiles &r, size_t b)
{
  RankedTiles out = r;
  out.best.resize(std::min(b, r.best.size()));
  out.model_seconds.resize(out.best.size());
  return out;
}

}  // namespace

std::vector<Ablation> paper_ablations()
{
  using K = Ablation::Kind;
  std::vector<Ablation> rows = {
      {"full_extents", "Full extents", K::FullExtents, 0, 0, 0},
      {"uniform_4", "Uniform tile size 4", K::UniformTile, 4, 0, 0},
      {"uniform_8", "Uniform tile size 8", K::UniformTile, 8, 0, 0},
  };
  for (const auto &[nc, nwi] : std::vector<std::pair<int, int>>{{32, 1}, {16, 4}, {8, 8}, {16, 8}, {16, 16}}) {
    std::ostringstream key, label;
    key << "nc" << nc << "_nwi" << nwi;
    label << "(N_c, N_WI) = (" << nc << ", " << nwi << ")";
    rows.push_back({key.str(), label.str(), K::WorkDivision, 0, nc, nwi});
  }
  rows.push_back({"tq_q", "T^Q = Q", K::QuadTile, 0, 0, 0});
  rows.push_back({"tq_half", "T^Q = ceil(Q/2)", K::QuadTileHalf, 0, 0, 0});
  return rows;
}

int uniform_tile_size(int n, int s)
{
  const int tiles = (n + s - 1) / s;
  return (n + tiles - 1) / tiles;
}

bool admits(const Ablation &a, const KernelShape &s, const Tiles &t)
{
  switch (a.kind) {
    case Ablation::Kind::FullExtents: {
      bool whole = t.quad_tile == s.Q && t.eval_rows == s.Q && t.quad_cols == s.Q && t.quad_rows == s.n_test;
      for (size_t g = 0; g < s.groups.size() && whole; ++g) whole = t.eval_cols[g] == s.groups[g].n;
      return whole;
    }
    case Ablation::Kind::UniformTile: {
      const int u = a.tile;
      const int tq = uniform_tile_size(s.Q, u);
      bool uniform = t.quad_tile == tq && t.eval_rows == uniform_tile_size(tq, u) && t.quad_cols == uniform_tile_size(tq, u) &&
                     t.quad_rows == uniform_tile_size(s.n_test, u);
      for (size_t g = 0; g < s.groups.size() && uniform; ++g) uniform = t.eval_cols[g] == uniform_tile_size(s.groups[g].n, u);
      return uniform;
    }
    case Ablation::Kind::WorkDivision: return t.cells_per_group == a.cells_per_group && t.items_per_cell == a.items_per_cell;
    case Ablation::Kind::QuadTile: return t.quad_tile == s.Q;
    case Ablation::Kind::QuadTileHalf: return t.quad_tile == (s.Q + 1) / 2;
  }
  return false;
}

namespace {

std::string number_key(const std::string &name, double x)
{
  std::ostringstream os;
  os << name << "=" << x;
  return os.str();
}

}  // namespace

std::vector<Sensitivity> paper_sensitivities(const SearchLimits &defaults, std::size_t b)
{
  std::vector<Sensitivity> rows;
  for (double e : {0.0, 0.5, 0.6, 0.7, 0.9}) {
    Sensitivity r{number_key("ETA_ALIAS_MIN", e), defaults, b};
    r.limits.eta_alias_min = e;
    rows.push_back(r);
  }
  for (double e : {0.0, 0.5, 0.7, 0.9, 0.99}) {
    Sensitivity r{number_key("ETA_SIMD_MIN", e), defaults, b};
    r.limits.eta_simd_min = e;
    rows.push_back(r);
  }
  for (int w : {64, 128, 512}) {
    Sensitivity r{number_key("WG_MAX", w), defaults, b};
    r.limits.wg_max = w;
    rows.push_back(r);
  }
  for (std::size_t budget : {1, 3, 5, 20, 50, 70}) rows.push_back({number_key("b", static_cast<double>(budget)), defaults, budget});
  return rows;
}

std::vector<Tiles> StudyPlan::unique() const
{
  std::vector<Tiles> out;
  std::set<std::string> seen;
  auto add = [&](const RankedTiles &r) {
    for (const Tiles &t : r.best)
      if (seen.insert(to_string(Schedule::tiled(t))).second) out.push_back(t);
  };
  add(top);
  add(sample);
  for (const RankedTiles &r : ablations) add(r);
  for (const RankedTiles &r : sensitivities) add(r);
  return out;
}

StudyPlan plan_studies(const KernelShape &s, const DeviceParams &d, const StudySettings &settings)
{
  StudyPlan plan;
  const std::vector<Ablation> ablations = paper_ablations();
  const std::vector<Sensitivity> sensitivities = paper_sensitivities(settings.limits, settings.b);
  // One job per enumeration; they share nothing but the read-only inputs.
  std::vector<std::function<void()>> jobs;
  size_t top = settings.topk ? settings.top : 0;
  if (settings.ablation || settings.sensitivity) top = std::max(top, settings.b);
  if (settings.sensitivity)
    for (const Sensitivity &h : sensitivities) top = std::max(top, h.b);
  if (settings.ablation) plan.ablations.resize(ablations.size());
  if (settings.sensitivity) plan.sensitivities.resize(sensitivities.size());
  jobs.push_back([&] { plan.top = top_tiles(s, settings.limits, d, top); });
  for (size_t i = 0; i < plan.ablations.size(); ++i)
    jobs.push_back([&, i] {
      plan.ablations[i] = top_tiles(s, settings.limits, d, settings.b, [&](const Tiles &t) { return admits(ablations[i], s, t); });
    });
  std::vector<bool> budget_row(plan.sensitivities.size(), false);  // same space as h*, only b differs
  for (size_t i = 0; i < plan.sensitivities.size(); ++i) {
    const Sensitivity &h = sensitivities[i];
    const bool same_space = h.limits.eta_alias_min == settings.limits.eta_alias_min &&
                            h.limits.eta_simd_min == settings.limits.eta_simd_min && h.limits.wg_max == settings.limits.wg_max;
    budget_row[i] = same_space;
    if (!same_space) jobs.push_back([&, i] { plan.sensitivities[i] = top_tiles(s, sensitivities[i].limits, d, sensitivities[i].b); });
  }
  run_parallel(jobs, settings.threads);
  for (size_t i = 0; i < plan.sensitivities.size(); ++i)
    if (budget_row[i]) plan.sensitivities[i] = prefix(plan.top, sensitivities[i].b);
  if (settings.spearman) {
    std::vector<size_t> positions = sample_without_replacement(static_cast<size_t>(plan.top.space_size), settings.sample, settings.seed);
    std::sort(positions.begin(), positions.end());
    plan.sample.best = tiles_at(s, settings.limits, d, positions);
    for (const Tiles &t : plan.sample.best) plan.sample.model_seconds.push_back(t_heur(s, t, d));
    plan.sample.space_size = plan.top.space_size;
    plan.sample.truncated = plan.top.truncated;
  }
  return plan;
}

bool is_low_order(int dim, int degree) { return dim == 2 ? degree <= 4 : degree <= 3; }

}  // namespace femgpu
