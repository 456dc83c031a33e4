// The backend-agnostic half of tuning after the first round's list (tuning_candidates.cpp):
// the timing loop, median and choice, the budget's rules (the twins: twins.cpp).
#include "tune/tuner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <sstream>

#include "tune/median.h"
#include "tune/quantities.h"

namespace femgpu {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0)
{
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

double expected_timing_seconds(double fastest_ms, double floor)
{
  return std::isfinite(fastest_ms) ? std::max(floor, kBudgetLaunches * fastest_ms * 1e-3) : floor;
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
