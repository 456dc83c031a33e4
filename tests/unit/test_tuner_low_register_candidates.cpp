// The tuner's candidate list: SCPWI at each work-group size, the cost model's best b,
// the best of each N_WI class, and the model's best among low-register candidates
// (tuner.h), each once. (The T^Q classes: test_unrolled_loops.cpp.)
#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>

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

}  // namespace

TEST_CASE("tuning also times low-register candidates and times each schedule once", "[tune]")
{
  const ActionIR ir = elasticity_p6();
  const int Q = 25;
  TuneSettings s;
  s.items_per_cell_classes.clear();
  s.quad_tile_classes = 0;  // test_unrolled_loops.cpp checks those
  s.scpwi_constant_tables = false;
  s.scpwi_lanes = false;
  std::size_t space = 0;
  bool truncated = false;
  s.low_register_words = 0;  // off: SCPWI and the model's b best
  s.fit_register_words = 0;
  s.paper_model_candidates = 0;
  const std::vector<TimedCandidate> plain = tuning_candidates(ir, Q, DeviceParams{}, s, &space, &truncated);
  const size_t n_scpwi = s.scpwi_work_group_sizes.size();
  REQUIRE(plain.size() == n_scpwi + s.candidates);
  const KernelShape shape = KernelShape::from(ir, Q);
  auto low_count = [&](const std::vector<TimedCandidate> &list, long long words) {
    return std::count_if(list.begin() + static_cast<long>(n_scpwi), list.end(),
                         [&](const TimedCandidate &c) { return register_words(shape, c.schedule.tiles()) <= words; });
  };
  // The paper's model alone picks none at or under 40 words here: large DOF tiles win its ranking.
  CHECK(low_count(plain, 40) == 0);
  s.low_register_words = 40;
  const std::vector<TimedCandidate> with_low = tuning_candidates(ir, Q, DeviceParams{}, s, &space, &truncated);
  CHECK(low_count(with_low, 40) == static_cast<long>(s.low_register_candidates));
  for (size_t i = n_scpwi; i < with_low.size(); ++i)
    for (size_t j = i + 1; j < with_low.size(); ++j) CHECK_FALSE(with_low[i].schedule.tiles() == with_low[j].schedule.tiles());
}

TEST_CASE("tuning also times the model's best candidates whose kernel as timed fits the register file", "[tune][shared_dofs]")
{
  const ActionIR ir = elasticity_p6();
  const int Q = 25;
  const KernelShape shape = KernelShape::from(ir, Q);
  TuneSettings s;
  s.items_per_cell_classes.clear();
  s.quad_tile_classes = 0;
  s.low_register_words = 0;
  s.paper_model_candidates = 0;
  s.scpwi_work_group_sizes = {};
  std::size_t space = 0;
  bool truncated = false;
  // The footprint of the kernel as tuning times it: shared DOFs above the threshold.
  auto timed_words = [&](const TimedCandidate &c) { return register_words(shape, c.schedule.tiles(), c.schedule.dofs() == Dofs::Shared); };
  s.fit_register_words = 0;
  const std::vector<TimedCandidate> plain = tuning_candidates(ir, Q, DeviceParams{}, s, &space, &truncated);
  REQUIRE(plain.size() == s.candidates);
  // A bound under every footprint the model's best hold, so the fitting ones are new.
  long long least = std::numeric_limits<long long>::max();
  for (const TimedCandidate &c : plain) least = std::min(least, timed_words(c));
  REQUIRE(least > 20);
  s.fit_register_words = least - 1;
  const std::vector<TimedCandidate> with_fit = tuning_candidates(ir, Q, DeviceParams{}, s, &space, &truncated);
  REQUIRE_FALSE(truncated);
  // The whole space, walked here: how many fit, and the cheapest cost among them (t_heur
  // with t_sync; with paper_model_candidates = 0 no second ranking picks more).
  const DeviceParams model;
  auto model_cost = [&](const TimedCandidate &c) { return t_heur(shape, c.schedule.tiles(), model); };
  long long fitting = 0;
  double cheapest = std::numeric_limits<double>::infinity();
  visit_tiles(shape, SearchLimits{}, DeviceParams{}, [&](const Tiles &t) {
    // Timed with shared DOFs above the threshold where those fit the device, else with registers.
    const Schedule shared_dofs = Schedule::tiled(t).with_loops(Loops::Unrolled).with_dofs(Dofs::Shared);
    const bool shared = register_words(shape, t) > s.shared_dofs_above_words &&
                        static_cast<double>(shared_memory_bytes(shared_dofs, ir)) <= DeviceParams{}.local_max_per_group;
    if (register_words(shape, t, shared) <= s.fit_register_words) ++fitting, cheapest = std::min(cheapest, t_heur(shape, t, model));
    return true;
  });
  REQUIRE(fitting > 0);
  REQUIRE(with_fit.size() == plain.size() + std::min<size_t>(s.fit_candidates, static_cast<size_t>(fitting)));
  for (size_t i = 0; i < plain.size(); ++i) CHECK(to_string(with_fit[i].schedule) == to_string(plain[i].schedule));
  CHECK(model_cost(with_fit[plain.size()]) == cheapest);
  for (size_t i = plain.size(); i < with_fit.size(); ++i) {
    INFO(to_string(with_fit[i].schedule));
    CHECK(timed_words(with_fit[i]) <= s.fit_register_words);
    if (i + 1 < with_fit.size()) CHECK(model_cost(with_fit[i]) <= model_cost(with_fit[i + 1]));
  }
  s.fit_candidates = 0;
  CHECK(tuning_candidates(ir, Q, DeviceParams{}, s, &space, &truncated).size() == plain.size());
}

TEST_CASE("tuning times SCPWI at each listed work-group size up to WG_max, once each", "[tune]")
{
  const ActionIR ir = elasticity_p6();
  TuneSettings s;
  s.items_per_cell_classes.clear();
  s.quad_tile_classes = 0;
  s.low_register_words = 0;
  s.fit_register_words = 0;
  s.paper_model_candidates = 0;
  s.candidates = 2;
  s.scpwi_work_group_sizes = {64, 32, 64, 512, 128};
  s.limits.wg_max = 128;
  s.scpwi_lanes = false;  // below
  std::size_t space = 0;
  bool truncated = false;
  auto scpwi_of = [](const std::vector<TimedCandidate> &list) {
    std::vector<std::string> scpwi;
    for (const TimedCandidate &c : list)
      if (c.schedule.strategy() == Strategy::SingleCellPerWorkItem) scpwi.push_back(to_string(c.schedule));
    return scpwi;
  };
  // P6 elasticity: 2 + 2 tables of 28 x 25 words, 22400 bytes; grad u and grad v share
  // theirs, so merged 11200 bytes.
  REQUIRE(table_words(ir, 25) * 8 == 22400);
  REQUIRE(table_words(ir, 25, true) * 8 == 11200);
  const std::vector<TimedCandidate> list = tuning_candidates(ir, 25, DeviceParams{}, s, &space, &truncated);
  CHECK(scpwi_of(list) ==
        std::vector<std::string>{"scpwi wg=64 fp64", "scpwi wg=64 tables=constant fp64", "scpwi wg=64 tables=constant-merged fp64",
                                 "scpwi wg=32 fp64", "scpwi wg=32 tables=constant fp64", "scpwi wg=32 tables=constant-merged fp64",
                                 "scpwi wg=128 fp64", "scpwi wg=128 tables=constant fp64", "scpwi wg=128 tables=constant-merged fp64"});
  CHECK(list.size() == 9 + s.candidates);
  s.scpwi_constant_tables = false;
  CHECK(scpwi_of(tuning_candidates(ir, 25, DeviceParams{}, s, &space, &truncated)) ==
        std::vector<std::string>{"scpwi wg=64 fp64", "scpwi wg=32 fp64", "scpwi wg=128 fp64"});
  // Separate tables beyond 64 KiB (Q = 75: 67200 bytes) get only the merged variant
  // (33600 bytes); merged ones beyond it (Q = 150), none.
  s.scpwi_constant_tables = true;
  const std::vector<std::string> q75 = scpwi_of(tuning_candidates(ir, 75, DeviceParams{}, s, &space, &truncated));
  CHECK(q75.size() == 6);
  CHECK(std::count_if(q75.begin(), q75.end(), [](const std::string &t) { return t.find("constant-merged") != std::string::npos; }) == 3);
  CHECK(scpwi_of(tuning_candidates(ir, 150, DeviceParams{}, s, &space, &truncated)).size() == 3);
  // A vector form also gets lanes=C at each size whose wg*C work-items fit WG_max.
  s.scpwi_lanes = true;
  s.scpwi_constant_tables = false;
  CHECK(scpwi_of(tuning_candidates(ir, 25, DeviceParams{}, s, &space, &truncated)) ==
        std::vector<std::string>{"scpwi wg=64 fp64", "scpwi wg=32 fp64", "scpwi wg=128 fp64", "scpwi wg=64 lanes=2 fp64", "scpwi wg=32 lanes=2 fp64"});
  s.scpwi_work_group_sizes.clear();
  const std::vector<TimedCandidate> none = tuning_candidates(ir, 25, DeviceParams{}, s, &space, &truncated);
  CHECK(std::none_of(none.begin(), none.end(), [](const TimedCandidate &c) { return c.schedule.strategy() == Strategy::SingleCellPerWorkItem; }));
}
