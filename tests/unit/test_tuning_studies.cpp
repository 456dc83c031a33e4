// The CPU half of the paper's studies (Tables 5-8): Spearman's rho and Q~_k against
// hand-computed values, the random sample's reproducibility and uniformity, and the
// constrained spaces of the ablation and sensitivity rows against brute-force filters
// of the full pruned space.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <set>

#include "schedule/schedule.h"
#include "tools/studies.h"

#include "support/kernel_shapes.h"

using namespace femgpu;

namespace {

std::string key(const Tiles &t) { return to_string(Schedule::tiled(t)); }

std::vector<std::string> keys(const std::vector<Tiles> &ts)
{
  std::vector<std::string> out;
  for (const Tiles &t : ts) out.push_back(key(t));
  return out;
}

}  // namespace

TEST_CASE("average ranks give tied values the mean of their positions", "[tune]")
{
  CHECK(average_ranks({10, 20, 20, 30}) == std::vector<double>{1, 2.5, 2.5, 4});
  CHECK(average_ranks({3, 1, 2}) == std::vector<double>{3, 1, 2});
  CHECK(average_ranks({7, 7, 7}) == std::vector<double>{2, 2, 2});
}

TEST_CASE("Spearman's rho matches hand-computed values", "[tune]")
{
  // Perfect and reversed monotone association, whatever the spacing.
  CHECK(spearman_rho({1, 2, 3, 4, 5}, {2, 4, 6, 8, 100}) == Approx(1.0));
  CHECK(spearman_rho({1, 2, 3, 4, 5}, {50, 40, 3, 2, 1}) == Approx(-1.0));
  // No ties: ranks y = 2 1 4 3 5, sum d^2 = 4, rho = 1 - 6*4/(5*24) = 0.8 (Eq. 17).
  CHECK(spearman_rho({1, 2, 3, 4, 5}, {0.2, 0.1, 0.4, 0.3, 0.5}) == Approx(0.8));
  // Ties: ranks y = 1 2.5 2.5 4; Pearson of ranks = 4.5 / sqrt(5 * 4.5) = 3/sqrt(10).
  CHECK(spearman_rho({1, 2, 3, 4}, {1, 2, 2, 3}) == Approx(3 / std::sqrt(10.0)));
  // Infinity (a candidate that failed) ranks last like any largest value.
  CHECK(spearman_rho({1, 2, 3}, {1, 2, std::numeric_limits<double>::infinity()}) == Approx(1.0));
  CHECK(std::isnan(spearman_rho({1, 2, 3}, {4, 4, 4})));
  CHECK(std::isnan(spearman_rho({1}, {1})));
  CHECK_THROWS_AS(spearman_rho({1, 2}, {1}), std::invalid_argument);
}

TEST_CASE("Q~_k is the best of the model's top k over the best of all timed", "[tune]")
{
  const double inf = std::numeric_limits<double>::infinity();
  // Times in model order (ms): the model's best takes 5 ms, the fastest is 4th.
  const std::vector<double> t = {5, 3, 4, 2, inf};
  CHECK(topk_quality(t, 1) == Approx(2.0 / 5));
  CHECK(topk_quality(t, 2) == Approx(2.0 / 3));
  CHECK(topk_quality(t, 3) == Approx(2.0 / 3));
  CHECK(topk_quality(t, 4) == Approx(1.0));
  CHECK(topk_quality(t, 70) == Approx(1.0));
  CHECK(topk_quality({inf, 2}, 1) == 0.0);  // the top 1 failed: nothing of it ran
  CHECK(std::isnan(topk_quality({inf, inf}, 1)));
  CHECK(geometric_mean({1, 4, std::nan("")}) == Approx(2.0));
  CHECK(arithmetic_mean({1, 2, std::nan("")}) == Approx(1.5));
}

TEST_CASE("random samples are reproducible, distinct and uniform", "[tune]")
{
  const std::vector<size_t> a = sample_without_replacement(1000000, 20, 7);
  CHECK(a == sample_without_replacement(1000000, 20, 7));
  CHECK(a != sample_without_replacement(1000000, 20, 8));
  CHECK(std::set<size_t>(a.begin(), a.end()).size() == 20);
  for (size_t i : a) CHECK(i < 1000000);
  std::vector<size_t> all = sample_without_replacement(5, 20, 1);
  CHECK(std::set<size_t>(all.begin(), all.end()) == std::set<size_t>{0, 1, 2, 3, 4});
  // Each of 5 items is in a 2-sample with probability 2/5.
  std::vector<int> hits(5, 0);
  const int draws = 20000;
  for (int s = 0; s < draws; ++s)
    for (size_t i : sample_without_replacement(5, 2, static_cast<std::uint64_t>(s))) ++hits[i];
  for (int h : hits) CHECK(h / static_cast<double>(draws) == Approx(0.4).margin(0.015));
}

TEST_CASE("streamed top-b equals ranking the stored space", "[tune]")
{
  const KernelShape s = test::mass_p3_shape();
  SearchLimits limits;
  DeviceParams d;
  d.sg_sat_global = 12, d.sg_sat_local = 5;  // the probed H200's: a non-trivial ranking
  const SearchSpace space = enumerate_tiles(s, limits, d);
  const RankedTiles top = top_tiles(s, limits, d, 70);
  CHECK(top.space_size == static_cast<long long>(space.candidates.size()));
  CHECK(keys(top.best) == keys(rank_tiles(s, space.candidates, d, 70)));
  for (size_t i = 0; i < top.best.size(); ++i) CHECK(top.model_seconds[i] == t_heur(s, top.best[i], d));
  // The positions of the random sample pick the same candidates as the stored space.
  const std::vector<size_t> positions = {0, 17, 4000, space.candidates.size() - 1};
  const std::vector<Tiles> picked = tiles_at(s, limits, d, positions);
  REQUIRE(picked.size() == positions.size());
  for (size_t i = 0; i < positions.size(); ++i) CHECK(key(picked[i]) == key(space.candidates[positions[i]]));
  // Truncation as in enumerate_tiles.
  limits.max_candidates = 100;
  const RankedTiles truncated = top_tiles(s, limits, d, 5);
  CHECK(truncated.truncated);
  CHECK(truncated.space_size == 100);
}

TEST_CASE("uniform tile sizes are Constraint-1 sizes covering the loop in as many tiles", "[tune]")
{
  CHECK(uniform_tile_size(10, 4) == 4);
  CHECK(uniform_tile_size(5, 4) == 3);  // 4 + 1 would alias more than 3 + 2
  CHECK(uniform_tile_size(3, 4) == 3);
  CHECK(uniform_tile_size(79, 8) == 8);
  CHECK(uniform_tile_size(12, 8) == 6);
  for (int n = 1; n <= 120; ++n)
    for (int size : {4, 8}) {
      const std::vector<int> allowed = tile_sizes(n);
      const int u = uniform_tile_size(n, size);
      CHECK(std::find(allowed.begin(), allowed.end(), u) != allowed.end());
      CHECK((n + u - 1) / u == (n + size - 1) / size);
      if (std::find(allowed.begin(), allowed.end(), size) != allowed.end()) CHECK(u == size);
    }
}

TEST_CASE("Table 5's constrained spaces are the full space filtered by each row", "[tune]")
{
  const KernelShape s = test::mass_p3_shape();
  const SearchLimits limits;
  const DeviceParams d;
  const std::vector<Ablation> rows = paper_ablations();
  std::vector<std::string> row_keys;
  for (const Ablation &a : rows) row_keys.push_back(a.key);
  CHECK(row_keys == std::vector<std::string>{"full_extents", "uniform_4", "uniform_8", "nc32_nwi1", "nc16_nwi4", "nc8_nwi8", "nc16_nwi8",
                                             "nc16_nwi16", "tq_q", "tq_half"});
  const SearchSpace space = enumerate_tiles(s, limits, d);
  for (const Ablation &a : rows) {
    INFO(a.key);
    std::vector<Tiles> filtered;
    for (const Tiles &t : space.candidates)
      if (admits(a, s, t)) filtered.push_back(t);
    const RankedTiles r = top_tiles(s, limits, d, 9, [&](const Tiles &t) { return admits(a, s, t); });
    CHECK(r.space_size == static_cast<long long>(filtered.size()));
    CHECK(keys(r.best) == keys(rank_tiles(s, filtered, d, 9)));
    CHECK(!r.best.empty());
  }
  // What each row fixes, on its candidates (Q = 12, n = n_W = 10).
  const RankedTiles full = top_tiles(s, limits, d, 1000, [&](const Tiles &t) { return admits(rows[0], s, t); });
  for (const Tiles &t : full.best)
    CHECK((t.quad_tile == 12 && t.eval_rows == 12 && t.quad_cols == 12 && t.eval_cols[0] == 10 && t.quad_rows == 10));
  const RankedTiles four = top_tiles(s, limits, d, 1000, [&](const Tiles &t) { return admits(rows[1], s, t); });
  for (const Tiles &t : four.best)
    CHECK((t.quad_tile == 4 && t.eval_rows == 4 && t.quad_cols == 4 && t.eval_cols[0] == 4 && t.quad_rows == 4));
  const RankedTiles eight = top_tiles(s, limits, d, 1000, [&](const Tiles &t) { return admits(rows[2], s, t); });
  for (const Tiles &t : eight.best)  // 12 -> 6 (two tiles), 10 -> 5
    CHECK((t.quad_tile == 6 && t.eval_rows == 6 && t.quad_cols == 6 && t.eval_cols[0] == 5 && t.quad_rows == 5));
  const RankedTiles division = top_tiles(s, limits, d, 1000, [&](const Tiles &t) { return admits(rows[4], s, t); });
  for (const Tiles &t : division.best) CHECK((t.cells_per_group == 16 && t.items_per_cell == 4));
  for (const Tiles &t : top_tiles(s, limits, d, 1000, [&](const Tiles &t) { return admits(rows[9], s, t); }).best) CHECK(t.quad_tile == 6);
}

TEST_CASE("Table 8's rows change one component of h* each", "[tune]")
{
  const SearchLimits h;
  const std::vector<Sensitivity> rows = paper_sensitivities(h, 9);
  REQUIRE(rows.size() == 19);
  CHECK(rows[0].key == "ETA_ALIAS_MIN=0");
  CHECK(rows[4].key == "ETA_ALIAS_MIN=0.9");
  CHECK(rows[9].key == "ETA_SIMD_MIN=0.99");
  CHECK(rows[10].key == "WG_MAX=64");
  CHECK(rows[18].key == "b=70");
  for (const Sensitivity &r : rows) {
    INFO(r.key);
    const int changed = (r.limits.eta_alias_min != h.eta_alias_min) + (r.limits.eta_simd_min != h.eta_simd_min) +
                        (r.limits.wg_max != h.wg_max) + (r.b != 9);
    CHECK(changed == 1);
  }
}

TEST_CASE("a study plan times each candidate once and reuses the top for the budget rows", "[tune]")
{
  const KernelShape s = test::mass_p3_shape();
  DeviceParams d;
  StudySettings settings;
  settings.ablation = settings.spearman = settings.topk = settings.sensitivity = true;
  settings.threads = 2;
  const StudyPlan plan = plan_studies(s, d, settings);
  CHECK(plan.top.best.size() == 70);
  CHECK(plan.sample.best.size() == 20);
  CHECK(plan.ablations.size() == 10);
  REQUIRE(plan.sensitivities.size() == 19);
  const std::vector<Sensitivity> rows = paper_sensitivities();
  const std::vector<std::string> top = keys(plan.top.best);
  for (size_t i = 13; i < 19; ++i) {  // the b rows: a prefix of Top_70(Theta(h*))
    INFO(rows[i].key);
    const std::vector<std::string> prefix(top.begin(), top.begin() + static_cast<long>(rows[i].b));
    CHECK(keys(plan.sensitivities[i].best) == prefix);
  }
  // Loosening eta_simd_min to 0 can only grow the space.
  CHECK(plan.sensitivities[5].space_size >= plan.top.space_size);
  CHECK(plan.sensitivities[10].space_size <= plan.top.space_size);  // WG_max = 64
  const std::vector<std::string> unique = keys(plan.unique());
  CHECK(std::set<std::string>(unique.begin(), unique.end()).size() == unique.size());
  for (const Tiles &t : plan.sample.best) CHECK(std::find(unique.begin(), unique.end(), key(t)) != unique.end());
  // Same seed, same plan.
  CHECK(keys(plan_studies(s, d, settings).sample.best) == keys(plan.sample.best));
}
