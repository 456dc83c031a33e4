// The backend-agnostic half of tuning after the first round's list (tuning_candidates.cpp):
// the twins of the fastest, the timing loop, median and choice.
#include "tune/tuner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <sstream>

#include "probe/probe_analysis.h"  // median
#include "model/quantities.h"

namespace femgpu {

namespace {

bool listed(const std::vector<TimedCandidate> &list, const Schedule &s)
{
  return std::any_of(list.begin(), list.end(), [&](const TimedCandidate &c) { return to_string(c.schedule) == to_string(s); });
}

// The twins (transform(candidate)) of the n fastest candidates that ran and satisfy
// `eligible`, fastest first; twins already in `timed` are skipped. The assembled operator
// has no kernel variants: it is never twinned.
std::vector<TimedCandidate> twins_of_fastest(const std::vector<TimedCandidate> &timed, std::size_t n,
                                             const std::function<bool(const TimedCandidate &)> &eligible,
                                             const std::function<Schedule(const TimedCandidate &)> &transform)
{
  std::vector<const TimedCandidate *> ran;
  for (const TimedCandidate &c : timed)
    if (c.error.empty() && std::isfinite(c.median_ms) && c.schedule.strategy() != Strategy::Assembled && eligible(c)) ran.push_back(&c);
  std::stable_sort(ran.begin(), ran.end(), [](const TimedCandidate *a, const TimedCandidate *b) { return a->median_ms < b->median_ms; });
  std::vector<TimedCandidate> twins;
  for (const TimedCandidate *c : ran) {
    if (twins.size() >= n) break;
    TimedCandidate twin;
    twin.schedule = transform(*c);
    twin.model_seconds = c->model_seconds;
    if (!listed(timed, twin.schedule)) twins.push_back(twin);
  }
  return twins;
}

double seconds_since(std::chrono::steady_clock::time_point t0)
{
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

double expected_timing_seconds(double fastest_ms, double floor)
{
  return std::isfinite(fastest_ms) ? std::max(floor, kBudgetLaunches * fastest_ms * 1e-3) : floor;
}

std::vector<TimedCandidate> shared_dofs_twins(const std::vector<TimedCandidate> &timed, std::size_t n)
{
  return twins_of_fastest(
      timed, n,
      [](const TimedCandidate &c) {
        return c.schedule.strategy() != Strategy::TensorCore && (c.local_bytes > 0 || c.schedule.loops() == Loops::Unrolled) &&
               c.schedule.dofs() == Dofs::Registers && c.schedule.lanes() == 1;
      },
      [](const TimedCandidate &c) { return c.schedule.with_dofs(Dofs::Shared); });
}

bool pairs_table_loads(const ActionIR &ir)
{
  auto even = [](std::size_t n_tables) { return n_tables > 0 && n_tables % 2 == 0; };
  for (const EvalGroup &g : ir.groups)
    if (even(g.derivatives.size())) return true;
  return even(ir.test_derivatives.size());
}

std::vector<TimedCandidate> interleaved_twins(const ActionIR &ir, const std::vector<TimedCandidate> &timed, std::size_t n)
{
  if (!pairs_table_loads(ir)) return {};
  return twins_of_fastest(
      timed, n,
      [](const TimedCandidate &c) { return c.schedule.strategy() == Strategy::Tiled && c.schedule.tables() == Tables::Global; },
      [](const TimedCandidate &c) { return c.schedule.with_tables(Tables::Interleaved); });
}

std::vector<TimedCandidate> quad_steps_twins(const std::vector<TimedCandidate> &timed, std::size_t n)
{
  // The n fastest of all first, then the tensor-core ones among them: the twin is worth
  // its time only where a tensor-core kernel leads.
  std::vector<const TimedCandidate *> ran;
  for (const TimedCandidate &c : timed)
    if (c.error.empty() && std::isfinite(c.median_ms) && c.schedule.strategy() != Strategy::Assembled) ran.push_back(&c);
  std::stable_sort(ran.begin(), ran.end(), [](const TimedCandidate *a, const TimedCandidate *b) { return a->median_ms < b->median_ms; });
  std::vector<TimedCandidate> twins;
  for (std::size_t i = 0; i < std::min(n, ran.size()); ++i) {
    const Schedule &s = ran[i]->schedule;
    if (s.strategy() != Strategy::TensorCore || s.mma().quad_order != MmaQuadOrder::Rows) continue;
    MmaSizes m = s.mma();
    m.quad_order = MmaQuadOrder::Steps;
    TimedCandidate twin;
    twin.schedule = s.with_mma(m);
    twin.model_seconds = ran[i]->model_seconds;
    if (!listed(timed, twin.schedule)) twins.push_back(twin);
  }
  return twins;
}

std::vector<TimedCandidate> warp_scatter_twins(const std::vector<TimedCandidate> &timed, std::size_t n)
{
  return twins_of_fastest(
      timed, n, [](const TimedCandidate &c) { return c.schedule.strategy() != Strategy::TensorCore && c.schedule.scatter() == Scatter::Atomic; },
      [](const TimedCandidate &c) { return c.schedule.with_scatter(Scatter::Warp); });
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

std::vector<TimedCandidate> bound_twins_of_best(const ActionIR &ir, const TuneReport &report, const SmLimits &sm, const TuneSettings &s)
{
  if (report.best < 0) return {};
  const std::vector<TimedCandidate> best{report.candidates[static_cast<size_t>(report.best)]};
  std::vector<TimedCandidate> twins =
      bound_twins(ir, best, std::min<std::size_t>(1, s.register_bound_candidates), std::min<std::size_t>(1, s.cell_value_bound_candidates), sm);
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

const char *const kBudgetSpent = "not timed: tuning budget spent";

bool left_by_budget(const TimedCandidate &c) { return c.error.rfind(kBudgetSpent, 0) == 0; }

double assembled_setup_seconds(double cell_entries) { return 0.3 + 1.5e-8 * cell_entries; }

std::string assembled_budget_reason(double cell_entries, double spmv_bound_ms, double fastest_ms, double seconds_left)
{
  const double setup = assembled_setup_seconds(cell_entries);
  if (setup <= seconds_left || spmv_bound_ms < kAssembledOverrunShare * fastest_ms) return "";
  std::ostringstream why;
  why << kBudgetSpent << ": assembling its " << cell_entries << " cell-matrix entries is expected to take " << setup << " s, "
      << std::max(0.0, seconds_left) << " s of the budget left, and its SpMV's lower bound (" << spmv_bound_ms
      << " ms) is not below " << kAssembledOverrunShare << " of the fastest so far (" << fastest_ms << " ms)";
  return why.str();
}

std::vector<TimedCandidate> assembled_candidates(const ActionIR &ir, int Q, Precision precision)
{
  TimedCandidate c;
  c.schedule = Schedule::assembled();
  if (precision != Precision::FP64) return {};
  try {
    validate(c.schedule, ir, Q);
  } catch (const std::invalid_argument &) {
    return {};  // a residual, or a form with coefficients: its matrix is not fixed
  }
  return {c};
}

std::vector<TimedCandidate> anytime_order(std::vector<TimedCandidate> first)
{
  // One list per kind, in the order given: tensor core, tiled (the cost model's order), SCPWI.
  std::vector<TimedCandidate> kinds[3], out;
  for (TimedCandidate &c : first) {
    const Strategy s = c.schedule.strategy();
    kinds[s == Strategy::TensorCore ? 0 : s == Strategy::Tiled ? 1 : 2].push_back(std::move(c));
  }
  const std::size_t longest = std::max({kinds[0].size(), kinds[1].size(), kinds[2].size()});
  for (std::size_t i = 0; i < longest; ++i)
    for (std::vector<TimedCandidate> &kind : kinds)
      if (i < kind.size()) out.push_back(std::move(kind[i]));
  return out;
}

void append_round(TuneReport *report, TuneReport &&round)
{
  const size_t first = report->candidates.size();
  for (TimedCandidate &c : round.candidates) report->candidates.push_back(std::move(c));
  if (round.best >= 0) {
    const size_t b = first + static_cast<size_t>(round.best);
    if (report->best < 0 || report->candidates[b].median_ms < report->candidates[static_cast<size_t>(report->best)].median_ms)
      report->best = static_cast<int>(b);
  }
  report->compile_seconds += round.compile_seconds;
  report->timing_seconds += round.timing_seconds;
  // A round says so itself where it timed its left-overs after all (cuda_tuner's glance).
  const bool left = std::any_of(report->candidates.begin() + static_cast<long>(first), report->candidates.end(),
                                [](const TimedCandidate &c) { return left_by_budget(c); });
  report->budget_spent = report->budget_spent || round.budget_spent || left;
}

std::size_t candidates_timed(const TuneReport &report)
{
  return static_cast<std::size_t>(
      std::count_if(report.candidates.begin(), report.candidates.end(), [](const TimedCandidate &c) { return !left_by_budget(c); }));
}

TimedCandidate time_wall_clock(const std::function<void()> &run, const TuneSettings &s)
{
  for (int i = 0; i < s.warmups; ++i) run();
  std::vector<double> ms;
  double total = 0;
  while ((static_cast<int>(ms.size()) < s.min_runs || total < s.min_seconds * 1e3) && static_cast<int>(ms.size()) < s.max_runs) {
    const auto t0 = std::chrono::steady_clock::now();
    run();
    ms.push_back(seconds_since(t0) * 1e3);
    total += ms.back();
  }
  TimedCandidate c;
  c.runs = static_cast<int>(ms.size());
  c.median_ms = median(ms);
  c.mean_ms = ms.empty() ? c.median_ms : total / static_cast<double>(ms.size());
  return c;
}

std::string describe(const TimedCandidate &c)
{
  std::ostringstream os;
  os << to_string(c.schedule) << ": ";
  if (!c.error.empty()) {
    // Left untimed on purpose (a stop, the budget) is not a failure of the candidate.
    if (c.error.rfind("not timed", 0) == 0) os << c.error;
    else os << "failed (" << c.error.substr(0, 160) << ")";
    return os.str();
  }
  if (c.cut)
    os << c.median_ms << " ms (one run, cut: over the cutoff)";
  else
    os << c.median_ms << " ms (median of " << c.runs << ")";
  if (c.registers > 0) os << ", " << c.registers << " regs, " << c.local_bytes << " B spill";
  os << ", " << c.shared_bytes << " B shared";
  if (c.setup_seconds > 0) os << ", assembled in " << c.setup_seconds << " s";
  return os.str();
}

void time_candidates(TuneReport *report, const std::function<TimedCandidate(std::size_t)> &time, const TuneSettings &s,
                     const std::function<bool(const std::exception &)> &fatal, const std::function<bool()> &stop, const char *stop_reason)
{
  const auto t0 = std::chrono::steady_clock::now();
  double best = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < report->candidates.size(); ++i) {
    TimedCandidate &c = report->candidates[i];
    if (c.error.empty() && stop && stop()) c.error = stop_reason;
    if (c.error.empty()) {
      try {
        TimedCandidate timed = time(i);
        timed.schedule = c.schedule;
        timed.model_seconds = c.model_seconds;
        c = timed;
      } catch (const std::exception &e) {
        if (fatal && fatal(e)) throw;
        c.error = e.what();
      }
    }
    if (!c.error.empty()) c.median_ms = c.mean_ms = std::numeric_limits<double>::infinity();
    if (s.monitor) s.monitor(describe(c));
    if (c.median_ms < best) {
      best = c.median_ms;
      report->best = static_cast<int>(i);
    }
  }
  report->timing_seconds = seconds_since(t0);
}

}  // namespace femgpu
