// The tuner's selections against a brute-force ranking of the whole space: the b
// cheapest with at most per_evaluation_tiling of one evaluation tiling, by t_heur with
// t_sync, and the paper model's best (tuner.h).
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "fem/quadrature.h"
#include "form/parser.h"
#include "ir/lower.h"
#include "tune/quantities.h"
#include "tune/tuner.h"

using namespace femgpu;

namespace {

ActionIR elasticity_p6()
{
  FormSignature sig{CellType::Triangle, Element{6, 2}, 1};
  return lower_form(parse_form_file(default_share_dir() + "/forms/elasticity.ufl", sig).a);
}

// Everything but the selection under test off.
TuneSettings only_tiled_selections()
{
  TuneSettings s;
  s.scpwi_work_group_sizes = {};
  s.items_per_cell_classes.clear();
  s.quad_tile_classes = 0;
  s.low_register_words = 0;
  s.fit_register_words = 0;
  s.paper_model_candidates = 0;
  return s;
}

struct Ranked {
  double cost;
  Tiles tiles;
};

// The whole space in the walk's order, stably sorted by the model's cost (ties keep
// the walk's order, as the tuner does).
std::vector<Ranked> ranked_space(const KernelShape &shape, const DeviceParams &d)
{
  std::vector<Ranked> all;
  visit_tiles(shape, SearchLimits{}, d, [&](const Tiles &t) {
    all.push_back({t_heur(shape, t, d), t});
    return true;
  });
  std::stable_sort(all.begin(), all.end(), [](const Ranked &a, const Ranked &b) { return a.cost < b.cost; });
  return all;
}

bool same_tiling(const Tiles &a, const Tiles &b)
{
  return a.cells_per_group == b.cells_per_group && a.items_per_cell == b.items_per_cell && a.quad_tile == b.quad_tile &&
         a.eval_rows == b.eval_rows && a.eval_cols == b.eval_cols;
}

// The first n of `ranked` once each evaluation tiling is cut to its `cap` cheapest (0: no cap).
std::vector<std::string> first_capped(const std::vector<Ranked> &ranked, std::size_t n, std::size_t cap)
{
  std::vector<Tiles> kept;
  for (const Ranked &r : ranked) {
    if (kept.size() == n) break;
    const auto same = std::count_if(kept.begin(), kept.end(), [&](const Tiles &k) { return same_tiling(k, r.tiles); });
    if (cap == 0 || static_cast<std::size_t>(same) < cap) kept.push_back(r.tiles);
  }
  std::vector<std::string> names;
  for (const Tiles &t : kept) names.push_back(to_string(Schedule::tiled(t).with_loops(Loops::Unrolled)));
  return names;
}

std::vector<std::string> names_of(const std::vector<TimedCandidate> &list)
{
  std::vector<std::string> names;
  for (const TimedCandidate &c : list) names.push_back(to_string(c.schedule.with_dofs(Dofs::Registers)));
  return names;
}

}  // namespace

TEST_CASE("the model's b best take at most per_evaluation_tiling candidates of one evaluation tiling", "[tune][tiling_cap]")
{
  const ActionIR ir = elasticity_p6();
  const int Q = 25;
  const KernelShape shape = KernelShape::from(ir, Q);
  // The paper's t_heur, whose best 9 here repeat a tiling (with t_sync they do not).
  DeviceParams d;
  d.barrier_seconds = 0;
  TuneSettings s = only_tiled_selections();
  s.model_barrier_seconds = 0;
  s.shared_dofs_above_words = 0;  // every candidate as its tiles name it
  std::size_t space = 0;
  bool truncated = true;
  const std::vector<Ranked> ranked = ranked_space(shape, d);
  // Uncapped (the paper's top b), the best 9 repeat a tiling: the cap has work to do.
  s.per_evaluation_tiling = 0;
  const std::vector<std::string> uncapped = names_of(tuning_candidates(ir, Q, d, s, &space, &truncated));
  REQUIRE_FALSE(truncated);
  CHECK(uncapped == first_capped(ranked, s.candidates, 0));
  REQUIRE(first_capped(ranked, s.candidates, 1) != uncapped);
  for (std::size_t cap : {1, 2, 3}) {
    INFO("cap " << cap);
    s.per_evaluation_tiling = cap;
    const std::vector<TimedCandidate> list = tuning_candidates(ir, Q, d, s, &space, &truncated);
    CHECK(names_of(list) == first_capped(ranked, s.candidates, cap));
    for (const TimedCandidate &c : list) {
      const auto same = std::count_if(list.begin(), list.end(), [&](const TimedCandidate &o) { return same_tiling(o.schedule.tiles(), c.schedule.tiles()); });
      CHECK(static_cast<std::size_t>(same) <= cap);
    }
  }
}

TEST_CASE("tuning ranks its b best with t_sync and also times the paper model's best", "[tune][t_sync]")
{
  const ActionIR ir = elasticity_p6();
  const int Q = 25;
  const KernelShape shape = KernelShape::from(ir, Q);
  DeviceParams d;
  d.barrier_seconds = 1e-6;  // large enough to reorder this case's best
  DeviceParams paper = d;
  paper.barrier_seconds = 0;
  TuneSettings s = only_tiled_selections();
  s.model_barrier_seconds = d.barrier_seconds;
  s.shared_dofs_above_words = 0;
  std::size_t space = 0;
  bool truncated = true;
  const std::vector<std::string> with_sync = first_capped(ranked_space(shape, d), s.candidates, s.per_evaluation_tiling);
  const std::vector<std::string> by_paper = first_capped(ranked_space(shape, paper), s.candidates + 3, s.per_evaluation_tiling);
  REQUIRE(with_sync != std::vector<std::string>(by_paper.begin(), by_paper.begin() + static_cast<long>(s.candidates)));
  // The b best with t_sync, then the paper's 3 best that those lack.
  const std::vector<std::string> plain = names_of(tuning_candidates(ir, Q, paper, s, &space, &truncated));
  CHECK(plain == with_sync);
  s.paper_model_candidates = 3;
  const std::vector<std::string> both = names_of(tuning_candidates(ir, Q, paper, s, &space, &truncated));
  std::vector<std::string> expected = with_sync;
  for (size_t i = 0; i < 3; ++i)
    if (std::find(expected.begin(), expected.end(), by_paper[i]) == expected.end()) expected.push_back(by_paper[i]);
  CHECK(both == expected);
  CHECK(both.size() > plain.size());
  // Without t_sync the two rankings agree: nothing is added.
  s.model_barrier_seconds = 0;
  CHECK(names_of(tuning_candidates(ir, Q, paper, s, &space, &truncated)).size() == s.candidates);
}

TEST_CASE("with t_sync on, the low-register and fit selections are made by both rankings", "[tune][t_sync]")
{
  const ActionIR ir = elasticity_p6();
  const int Q = 25;
  const KernelShape shape = KernelShape::from(ir, Q);
  DeviceParams d;
  d.barrier_seconds = 1e-6;
  DeviceParams paper = d;
  paper.barrier_seconds = 0;
  TuneSettings s = only_tiled_selections();
  s.candidates = 0;
  s.model_barrier_seconds = d.barrier_seconds;
  s.shared_dofs_above_words = 0;
  s.low_register_words = 40;
  s.low_register_candidates = 3;
  s.items_per_cell_classes.clear();
  std::size_t space = 0;
  bool truncated = true;
  std::vector<Ranked> low_sync, low_paper;
  for (const Ranked &r : ranked_space(shape, d))
    if (register_words(shape, r.tiles) <= 40) low_sync.push_back(r);
  for (const Ranked &r : ranked_space(shape, paper))
    if (register_words(shape, r.tiles) <= 40) low_paper.push_back(r);
  const std::vector<std::string> by_sync = first_capped(low_sync, 3, s.per_evaluation_tiling);
  const std::vector<std::string> by_paper = first_capped(low_paper, 3, s.per_evaluation_tiling);
  REQUIRE(by_sync != by_paper);
  // Off: the t_sync ranking alone.
  CHECK(names_of(tuning_candidates(ir, Q, paper, s, &space, &truncated)) == by_sync);
  s.paper_model_candidates = 3;
  const std::vector<std::string> paper_best = first_capped(ranked_space(shape, paper), 3, s.per_evaluation_tiling);
  // Order: the paper's b best, the t_sync low picks, then the paper's low picks not yet listed.
  std::vector<std::string> want = paper_best;
  for (const std::vector<std::string> *list : {&by_sync, &by_paper})
    for (const std::string &n : *list)
      if (std::find(want.begin(), want.end(), n) == want.end()) want.push_back(n);
  CHECK(names_of(tuning_candidates(ir, Q, paper, s, &space, &truncated)) == want);
}
