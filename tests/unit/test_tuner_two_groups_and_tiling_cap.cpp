// The tuner's selections against a brute-force ranking of the whole space: the b
// cheapest with at most per_evaluation_tiling of one evaluation tiling, and the
// two-group selection (tuner.h).
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "fem/quadrature.h"
#include "form/parser.h"
#include "ir/lower.h"
#include "tune/occupancy.h"
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
  s.two_group_candidates = 0;
  return s;
}

struct Ranked {
  double cost;
  Tiles tiles;
};

// The whole space in the walk's order, stably sorted by the model's cost (ties keep
// the walk's order, as the tuner does), restricted to `keep`.
template <class Keep>
std::vector<Ranked> ranked_space(const KernelShape &shape, const DeviceParams &d, Keep keep)
{
  std::vector<Ranked> all;
  visit_tiles(shape, SearchLimits{}, d, [&](const Tiles &t) {
    if (keep(t)) all.push_back({t_heur(shape, t, d), t});
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

TEST_CASE("estimated registers: 2.4 per word plus 10, rounded up, at most the per-thread cap", "[tune][two_groups]")
{
  const SmLimits sm;
  CHECK(estimated_registers(0, sm) == 10);
  CHECK(estimated_registers(48, sm) == 126);  // 115.2 -> 116, + 10
  CHECK(estimated_registers(50, sm) == 130);
  CHECK(estimated_registers(104, sm) == 255);  // 249.6 -> 250 + 10 = 260, capped
  CHECK(estimated_registers(500, sm) == 255);
}

TEST_CASE("the model's b best take at most per_evaluation_tiling candidates of one evaluation tiling", "[tune][tiling_cap]")
{
  const ActionIR ir = elasticity_p6();
  const int Q = 25;
  const KernelShape shape = KernelShape::from(ir, Q);
  const DeviceParams d;
  TuneSettings s = only_tiled_selections();
  s.shared_dofs_above_words = 0;  // every candidate as its tiles name it
  std::size_t space = 0;
  bool truncated = true;
  const std::vector<Ranked> ranked = ranked_space(shape, d, [](const Tiles &) { return true; });
  // Uncapped (the paper's top b), the best 9 here repeat a tiling: the cap has work to do.
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

TEST_CASE("tuning also times the model's best candidates of which an SM holds two groups", "[tune][two_groups]")
{
  const ActionIR ir = elasticity_p6();
  const int Q = 25;
  const KernelShape shape = KernelShape::from(ir, Q);
  const DeviceParams d;
  SmLimits sm;
  sm.shared_bytes = static_cast<long long>(d.local_max_bytes);
  sm.max_groups = d.groups_max;
  auto groups = [&](const Tiles &t) {
    const long long shared = allocated_local_words(shape, t) * 8;
    return residency(sm, t.cells_per_group * t.items_per_cell, estimated_registers(register_words(shape, t), sm), shared).groups();
  };
  TuneSettings s = only_tiled_selections();
  s.shared_dofs_above_words = 0;
  std::size_t space = 0;
  bool truncated = true;
  const std::vector<TimedCandidate> plain = tuning_candidates(ir, Q, d, s, &space, &truncated);
  REQUIRE(plain.size() == s.candidates);
  // The model's favourites here are alone on their SM; the new ones are not.
  for (const TimedCandidate &c : plain) CHECK(groups(c.schedule.tiles()) == 1);
  s.two_group_candidates = 3;
  const std::vector<TimedCandidate> with_two = tuning_candidates(ir, Q, d, s, &space, &truncated);
  REQUIRE(with_two.size() == plain.size() + 3);
  const std::vector<Ranked> two = ranked_space(shape, d, [&](const Tiles &t) { return groups(t) >= 2; });
  const std::vector<std::string> names = names_of(with_two);
  CHECK(std::vector<std::string>(names.begin() + static_cast<long>(plain.size()), names.end()) ==
        first_capped(two, 3, s.per_evaluation_tiling));
  for (std::size_t i = plain.size(); i < with_two.size(); ++i) CHECK(groups(with_two[i].schedule.tiles()) >= 2);
}
