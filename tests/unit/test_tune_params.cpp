// The tuning parameters of the plan (tune_params.h): each is read with its range checked,
// named in errors, printed back as set, and enters the tuning cache's key exactly when
// its declaration says so; "param" segments of a plan text set them.
#include <catch2/catch.hpp>

#include "tune/tune_params.h"
#include "tune/tune_plan.h"

using namespace femgpu;

namespace {

// Another value in range for `p` than its default `current`.
std::string other_value(const TuneParam &p, const std::string &current)
{
  switch (p.kind) {
    case ParamKind::Bool: return current == "1" ? "0" : "1";
    case ParamKind::Choice: return current == p.choices[0] ? p.choices[1] : p.choices[0];
    case ParamKind::IntegerList: return current == "16" ? "8,16" : "16";
    case ParamKind::Real: return p.max <= 1 ? "0.5" : std::to_string(static_cast<long long>(p.min) + 2);  // printed as written
    default: {
      const std::string max = std::to_string(static_cast<long long>(p.max));
      return current == max ? std::to_string(static_cast<long long>(p.min)) : max;
    }
  }
}

// Values just outside `p`'s range (none for choices).
std::vector<std::string> outside(const TuneParam &p)
{
  if (p.kind == ParamKind::Bool || p.kind == ParamKind::Choice) return {"maybe"};
  const auto text = [](double x) { return std::to_string(static_cast<long long>(x)); };
  if (p.kind == ParamKind::IntegerList) return {"16," + text(p.max + 1), text(p.min - 1)};
  if (p.kind == ParamKind::Real) return {text(p.max * 2), "-1"};
  return {text(p.max + 1), text(p.min - 1)};
}

}  // namespace

TEST_CASE("tune params: each is set within its range, printed back, and enters the key as declared", "[tune][tune_params]")
{
  const TuneSettings defaults;
  for (const TuneParam &p : tune_params()) {
    INFO(p.name);
    const std::string current = p.get(defaults), value = other_value(p, current);
    TuneSettings s = defaults;
    set_tune_param(&s, p.name, current);
    CHECK(tuning_settings_text(s) == tuning_settings_text(defaults));
    set_tune_param(&s, p.name, value);
    CHECK(tune_param_value(s, p.name) == value);
    CHECK((tuning_settings_text(s) != tuning_settings_text(defaults)) == p.in_key);
    CHECK((tune_params_text(s).find(std::string(p.name) + "=") != std::string::npos) == p.in_key);
  }
}

TEST_CASE("tune params: a value out of range or unreadable is refused, naming the parameter and its range", "[tune][tune_params]")
{
  for (const TuneParam &p : tune_params())
    for (const std::string &v : outside(p)) {
      INFO(p.name << "=" << v);
      TuneSettings s;
      try {
        set_tune_param(&s, p.name, v);
        FAIL("taken");
      } catch (const TuneParamError &e) {
        CHECK_THAT(e.what(), Catch::Contains(std::string("parameter '") + p.name + "=" + v + "'") &&
                                 Catch::Contains("(" + std::string(p.name) + "=" + param_values(p) + ")"));
        CHECK(e.out_of_range);
      }
    }
  TuneSettings s;
  const char *unreadable[][2] = {{"candidates", "2x"}, {"candidates", "1e3"}, {"eta_alias_min", "nan"}, {"eta_alias_min", "inf"},
                                 {"scpwi_work_groups", "32,,64"}, {"scpwi_work_groups", "32,"}, {"cutoff", ""}};
  for (const auto &u : unreadable) {
    INFO(u[0] << "=" << u[1]);
    CHECK_THROWS_AS(set_tune_param(&s, u[0], u[1]), TuneParamError);
  }
  CHECK_THROWS_WITH(set_tune_param(&s, "twirl", "1"), Catch::Contains("unknown parameter 'twirl'") && Catch::Contains("wg_max"));
  // The cutoff is off (0) or a factor above 1: between them it would cut the fastest.
  CHECK_NOTHROW(set_tune_param(&s, "cutoff", "0"));
  CHECK_NOTHROW(set_tune_param(&s, "cutoff", "2.5"));
  CHECK(s.cutoff == 2.5);
  CHECK_THROWS_WITH(set_tune_param(&s, "cutoff", "0.5"), Catch::Contains("(cutoff=0 or 1-1e+06)"));
  CHECK_NOTHROW(set_tune_param(&s, "scpwi_work_groups", "none"));
  CHECK(s.scpwi_work_group_sizes.empty());
}

TEST_CASE("tune params: a plan's param segments set them, and alone keep the default rounds", "[tune][tune_params][tune_plan]")
{
  const TunePlan plan = parse_tune_plan("param wg_max=128 cutoff=2; first; local_search n=3");
  CHECK(to_string(plan) == "param wg_max=128 cutoff=2; first; local_search n=3");
  CHECK(to_string(parse_tune_plan(to_string(plan))) == to_string(plan));
  const TuneSettings s = with_plan(TuneSettings{}, parse_tune_plan("first; param model_barrier_ns=0 scpwi_lanes=false loops=compiler; local_search n=1"));
  CHECK(s.model_barrier_seconds == 0);
  CHECK(!s.scpwi_lanes);
  CHECK(s.tiled_loops == Loops::Compiler);
  CHECK(to_string(s.plan) == "first; local_search n=1");
  const TuneSettings alone = with_plan(TuneSettings{}, parse_tune_plan("param candidates=2 scpwi_work_groups=16,64"));
  CHECK(alone.plan.rounds.empty());
  CHECK(alone.candidates == 2);
  CHECK(alone.scpwi_work_group_sizes == std::vector<int>{16, 64});
  CHECK(to_string(settings_plan(alone, default_cuda_plan())) == to_string(default_cuda_plan()));
  const TunePlan printed = parse_tune_plan("param candidates=1; print");
  CHECK(printed.print);
  CHECK(printed.rounds.empty());
  CHECK(to_string(printed) == "param candidates=1; print");
  CHECK(to_string(parse_tune_plan("print; first")) == "print; first");
  CHECK(to_string(parse_tune_plan("first; print; param candidates=1; local_search n=1")) == "param candidates=1; print; first; local_search n=1");
  CHECK(with_plan(TuneSettings{}, parse_tune_plan("param candidates=1; print")).plan.rounds.empty());
  CHECK_THROWS_WITH(parse_tune_plan("param"), Catch::Contains("names no parameter"));
  CHECK_THROWS_WITH(parse_tune_plan("param wg_max"), Catch::Contains("'wg_max' after 'param' is not name=value"));
  CHECK_THROWS_AS(parse_tune_plan("param wg_max=4096; first"), TuneParamError);
  CHECK_THROWS_WITH(parse_tune_plan("param wg_max=64; local_search n=2"), Catch::Contains("'first' alone"));
}

TEST_CASE("tune params: -help and the docs table list every parameter with its values and default", "[tune][tune_params]")
{
  const std::string help = tune_params_help(), table = tune_params_docs_table();
  const TuneSettings defaults;
  for (const TuneParam &p : tune_params()) {
    INFO(p.name);
    CHECK_THAT(help, Catch::Contains(std::string(" ") + p.name + "=" + param_values(p)));
    CHECK_THAT(table, Catch::Contains(std::string("| `") + p.name + "=` |") && Catch::Contains(" | " + p.get(defaults) + " | "));
  }
}
