// The twins of the fastest candidates (twins.h): each a small change of a timed schedule.
#include "tune/twins.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <sstream>
#include <stdexcept>

#include "schedule/schedule_words.h"

namespace femgpu {

namespace {

bool listed(const std::vector<TimedCandidate> &list, const Schedule &s)
{
  return std::any_of(list.begin(), list.end(), [&](const TimedCandidate &c) { return to_string(c.schedule) == to_string(s); });
}

// The candidates that ran, fastest first. The assembled operator has no kernel variants:
// it is never twinned.
std::vector<const TimedCandidate *> fastest_ran(const std::vector<TimedCandidate> &timed)
{
  std::vector<const TimedCandidate *> ran;
  for (const TimedCandidate &c : timed)
    if (c.error.empty() && std::isfinite(c.median_ms) && c.schedule.strategy() != Strategy::Assembled) ran.push_back(&c);
  std::stable_sort(ran.begin(), ran.end(), [](const TimedCandidate *a, const TimedCandidate *b) { return a->median_ms < b->median_ms; });
  return ran;
}

// Appends `original`'s twin `schedule` to `twins` unless `timed` holds it already.
void add_twin(std::vector<TimedCandidate> *twins, const std::vector<TimedCandidate> &timed, const TimedCandidate &original,
              const Schedule &schedule)
{
  if (listed(timed, schedule)) return;
  TimedCandidate twin;
  twin.schedule = schedule;
  twin.model_seconds = original.model_seconds;
  twins->push_back(twin);
}

// The twins (transform(candidate)) of the n fastest candidates that ran and satisfy
// `eligible`, fastest first; twins already in `timed` are skipped.
std::vector<TimedCandidate> twins_of_fastest(const std::vector<TimedCandidate> &timed, std::size_t n,
                                             const std::function<bool(const TimedCandidate &)> &eligible,
                                             const std::function<Schedule(const TimedCandidate &)> &transform)
{
  std::vector<TimedCandidate> twins;
  for (const TimedCandidate *c : fastest_ran(timed)) {
    if (twins.size() >= n) break;
    if (eligible(*c)) add_twin(&twins, timed, *c, transform(*c));
  }
  return twins;
}

// The twins (transform(candidate)) of those of the n fastest candidates that ran (of any
// strategy) which satisfy `eligible`, fastest first: a twin is worth its time only where
// its kind of kernel leads. Twins already in `timed`, or made twice, are skipped.
std::vector<TimedCandidate> twins_among_fastest(const std::vector<TimedCandidate> &timed, std::size_t n,
                                                const std::function<bool(const TimedCandidate &)> &eligible,
                                                const std::function<Schedule(const TimedCandidate &)> &transform)
{
  const std::vector<const TimedCandidate *> ran = fastest_ran(timed);
  std::vector<TimedCandidate> twins;
  for (std::size_t i = 0; i < std::min(n, ran.size()); ++i) {
    if (!eligible(*ran[i])) continue;
    const Schedule twin = transform(*ran[i]);
    if (!listed(twins, twin)) add_twin(&twins, timed, *ran[i], twin);
  }
  return twins;
}

// The choice word and value of one word of a rule ("scatter=staged").
std::pair<const ScheduleWord *, std::string> rule_word(const TwinRule &rule, const std::string &word)
{
  const std::size_t eq = word.find('=');
  const ScheduleWord *w = eq == std::string::npos ? nullptr : find_schedule_word(word.substr(0, eq));
  const std::string value = eq == std::string::npos ? "" : word.substr(eq + 1);
  if (!w || w->kind != WordKind::Choice || std::find(w->choices.begin(), w->choices.end(), value) == w->choices.end())
    throw std::logic_error("twin rule \"" + std::string(rule.words) + "\": '" + word + "' is not a choice of a schedule word");
  return {w, value};
}

}  // namespace

std::optional<Schedule> twin_of(const TwinRule &rule, const Schedule &s)
{
  if (!rule.kinds.empty() && std::find(rule.kinds.begin(), rule.kinds.end(), s.strategy()) == rule.kinds.end()) return std::nullopt;
  std::istringstream words(rule.words);
  Schedule twin = s;
  bool first = true;
  for (std::string word; words >> word; first = false) {
    const auto [w, value] = rule_word(rule, word);
    if (!word_takes(*w, s.strategy())) return std::nullopt;
    const std::string now = choice_value(*w, s);
    const bool from = rule.from.empty() ? now != value : std::find(rule.from.begin(), rule.from.end(), now) != rule.from.end();
    if (first && !from) return std::nullopt;
    twin = w->apply(twin, value);
  }
  if (!choices_apply(twin)) return std::nullopt;
  return twin;
}

std::vector<TimedCandidate> rule_twins(const TwinRule &rule, const PlanContext &ctx, const std::vector<TimedCandidate> &timed, std::size_t n)
{
  if (rule.form && !rule.form(ctx)) return {};
  auto takes = [&rule](const TimedCandidate &c) { return (!rule.worth || rule.worth(c)) && twin_of(rule, c.schedule).has_value(); };
  auto twin = [&rule](const TimedCandidate &c) { return *twin_of(rule, c.schedule); };
  return rule.pick == TwinRule::Pick::Fastest ? twins_of_fastest(timed, n, takes, twin) : twins_among_fastest(timed, n, takes, twin);
}

bool pairs_table_loads(const ActionIR &ir)
{
  auto even = [](std::size_t n_tables) { return n_tables > 0 && n_tables % 2 == 0; };
  for (const EvalGroup &g : ir.groups)
    if (even(g.derivatives.size())) return true;
  return even(ir.test_derivatives.size());
}

std::vector<TimedCandidate> register_bound_twins(const std::vector<TimedCandidate> &timed, std::size_t n, const SmLimits &sm)
{
  auto groups = [&sm](const TimedCandidate &c) {
    return c.registers > 0 ? register_bound_groups(sm, threads_per_group(c.schedule), c.registers, c.shared_bytes) : 0;
  };
  return twins_of_fastest(
      timed, n, [&](const TimedCandidate &c) { return c.schedule.groups_per_sm() == 0 && groups(c) > 0; },
      [&](const TimedCandidate &c) { return c.schedule.with_groups_per_sm(groups(c)); });
}

std::vector<TimedCandidate> cell_value_bound_twins(const ActionIR &ir, const std::vector<TimedCandidate> &timed, std::size_t n,
                                                   const SmLimits &sm)
{
  if (held_cell_values(ir.pointwise).empty()) return {};
  // The groups the twin's bound asks for, counted with the twin's own shared memory (s_cell).
  auto groups = [&](const TimedCandidate &c) {
    const Schedule shared = c.schedule.with_cell_values(CellValues::Shared);
    return c.registers > 0 ? register_bound_groups(sm, threads_per_group(c.schedule), c.registers, shared_memory_bytes(shared, ir)) : 0;
  };
  return twins_of_fastest(
      timed, n,
      [&](const TimedCandidate &c) {
        return c.schedule.strategy() == Strategy::Tiled && c.schedule.cell_values() == CellValues::Registers &&
               c.schedule.groups_per_sm() == 0 && groups(c) > 0;
      },
      [&](const TimedCandidate &c) { return c.schedule.with_cell_values(CellValues::Shared).with_groups_per_sm(groups(c)); });
}

int half_group_cells(const TileSizes &t)
{
  const int warps = (t.cells_per_group * t.items_per_cell + 31) / 32;
  const int cells = (warps + 1) / 2 * 32 / std::max(1, t.items_per_cell);
  return std::max(1, std::min(cells, t.cells_per_group - 1));
}

std::vector<TimedCandidate> half_group_twins(const std::vector<TimedCandidate> &timed, std::size_t n)
{
  return twins_of_fastest(
      timed, n,
      [](const TimedCandidate &c) {
        return c.schedule.strategy() == Strategy::Tiled && c.schedule.tiles().cells_per_group >= 2 && c.schedule.groups_per_sm() == 0 &&
               half_group_cells(c.schedule.tiles()) < c.schedule.tiles().cells_per_group;
      },
      [](const TimedCandidate &c) { return c.schedule.with_cells_per_group(half_group_cells(c.schedule.tiles())); });
}

std::vector<TimedCandidate> bound_twins(const ActionIR &ir, const std::vector<TimedCandidate> &timed, std::size_t register_n,
                                        std::size_t cell_value_n, const SmLimits &sm)
{
  std::vector<TimedCandidate> twins = register_bound_twins(timed, register_n, sm);
  for (TimedCandidate &twin : cell_value_bound_twins(ir, timed, cell_value_n, sm)) twins.push_back(std::move(twin));
  return twins;
}

std::vector<TimedCandidate> bound_twins_of_best(const ActionIR &ir, const TuneReport &report, const SmLimits &sm)
{
  if (report.best < 0) return {};
  const std::vector<TimedCandidate> best{report.candidates[static_cast<size_t>(report.best)]};
  std::vector<TimedCandidate> twins = bound_twins(ir, best, 1, 1, sm);
  twins.erase(std::remove_if(twins.begin(), twins.end(), [&](const TimedCandidate &t) { return listed(report.candidates, t.schedule); }),
              twins.end());
  return twins;
}

const TimedCandidate *unbounded_original(const std::vector<TimedCandidate> &timed, const Schedule &twin)
{
  // A cell-value twin's original holds its per-cell values in registers.
  for (const Schedule &s : {twin.with_groups_per_sm(0), twin.with_groups_per_sm(0).with_cell_values(CellValues::Registers)}) {
    const std::string original = to_string(s);
    for (const TimedCandidate &c : timed)
      if (to_string(c.schedule) == original) return &c;
  }
  return nullptr;
}

}  // namespace femgpu
