// The tuner's candidate list: SCPWI, the cost model's best b, the best of each N_WI
// class, and the model's best among low-register candidates (tuner.h), each once.
#include <catch2/catch.hpp>

#include <algorithm>

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
  std::size_t space = 0;
  bool truncated = false;
  s.low_register_words = 0;  // off: SCPWI and the model's b best
  const std::vector<TimedCandidate> plain = tuning_candidates(ir, Q, DeviceParams{}, s, &space, &truncated);
  REQUIRE(plain.size() == 1 + s.candidates);
  const KernelShape shape = KernelShape::from(ir, Q);
  auto low_count = [&](const std::vector<TimedCandidate> &list, long long words) {
    return std::count_if(list.begin() + 1, list.end(), [&](const TimedCandidate &c) { return register_words(shape, c.schedule.tiles()) <= words; });
  };
  // The paper's model alone picks none at or under 40 words here: large DOF tiles win its ranking.
  CHECK(low_count(plain, 40) == 0);
  s.low_register_words = 40;
  const std::vector<TimedCandidate> with_low = tuning_candidates(ir, Q, DeviceParams{}, s, &space, &truncated);
  CHECK(low_count(with_low, 40) == static_cast<long>(s.low_register_candidates));
  for (size_t i = 1; i < with_low.size(); ++i)
    for (size_t j = i + 1; j < with_low.size(); ++j) CHECK_FALSE(with_low[i].schedule.tiles() == with_low[j].schedule.tiles());
}
