// The backend-agnostic half of tuning: candidates, timing loop, median, choice.
#include "tune/tuner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <sstream>

#include "tune/probe_analysis.h"  // median
#include "tune/quantities.h"

namespace femgpu {

namespace {

bool listed(const std::vector<TimedCandidate> &list, const Schedule &s)
{
  return std::any_of(list.begin(), list.end(), [&](const TimedCandidate &c) { return to_string(c.schedule) == to_string(s); });
}

double seconds_since(std::chrono::steady_clock::time_point t0)
{
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

std::vector<TimedCandidate> tuning_candidates(const ActionIR &ir, int Q, const DeviceParams &device, const TuneSettings &s,
                                              std::size_t *space_size, bool *truncated)
{
  std::vector<TimedCandidate> out;
  // In FP64, the larger case: an FP32 tuning of the same list fits too.
  auto fits = [&](const Schedule &schedule) { return constant_table_bytes(schedule, ir, Q) <= kMaxConstantTableBytes; };
  auto add_scpwi = [&](const Schedule &schedule) {
    if (listed(out, schedule)) return;
    TimedCandidate c;
    c.schedule = schedule;
    out.push_back(c);
  };
  const int C = ir.signature.element.components;
  std::vector<int> lanes{1};
  if (s.scpwi_lanes && C > 1) lanes.push_back(C);
  for (int lane : lanes)
    for (int wg : s.scpwi_work_group_sizes) {
      if (wg < 1 || static_cast<long long>(wg) * lane > s.limits.wg_max) continue;
      const Schedule plain = Schedule::single_cell_per_work_item(wg).with_lanes(lane);
      add_scpwi(plain);
      if (!s.scpwi_constant_tables) continue;
      const Schedule separate = plain.with_tables(Tables::Constant);
      const Schedule merged = separate.with_tables(Tables::MergedConstant);
      if (fits(separate)) add_scpwi(separate);
      // Merged differs from separate only when some tables are equal.
      if (fits(merged) && table_words(ir, Q, true) < table_words(ir, Q)) add_scpwi(merged);
    }
  KernelShape shape = KernelShape::from(ir, Q);
  SearchSpace space = enumerate_tiles(shape, s.limits, device);
  *space_size = space.candidates.size();
  *truncated = space.truncated;
  std::vector<Tiles> chosen = rank_tiles_diverse(shape, space.candidates, device, s.candidates, s.items_per_cell_classes);
  if (s.low_register_words > 0 && s.low_register_candidates > 0) {
    std::vector<Tiles> low;
    for (const Tiles &t : space.candidates)
      if (register_words(shape, t) <= s.low_register_words) low.push_back(t);
    for (const Tiles &t : rank_tiles_diverse(shape, low, device, s.low_register_candidates, s.items_per_cell_classes))
      if (std::find(chosen.begin(), chosen.end(), t) == chosen.end()) chosen.push_back(t);
  }
  for (const Tiles &t : chosen) {
    TimedCandidate c;
    c.schedule = Schedule::tiled(t);
    c.model_seconds = t_heur(shape, t, device);
    out.push_back(c);
  }
  return out;
}

std::vector<TimedCandidate> shared_dofs_twins(const std::vector<TimedCandidate> &timed, std::size_t n)
{
  std::vector<const TimedCandidate *> ran;
  for (const TimedCandidate &c : timed)
    if (c.error.empty() && std::isfinite(c.median_ms) && c.local_bytes > 0 && c.schedule.dofs() == Dofs::Registers &&
        c.schedule.lanes() == 1)
      ran.push_back(&c);
  std::stable_sort(ran.begin(), ran.end(), [](const TimedCandidate *a, const TimedCandidate *b) { return a->median_ms < b->median_ms; });
  std::vector<TimedCandidate> twins;
  for (const TimedCandidate *c : ran) {
    if (twins.size() >= n) break;
    TimedCandidate twin;
    twin.schedule = c->schedule.with_dofs(Dofs::Shared);
    twin.model_seconds = c->model_seconds;
    if (!listed(timed, twin.schedule)) twins.push_back(twin);
  }
  return twins;
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
    os << "failed (" << c.error.substr(0, 160) << ")";
    return os.str();
  }
  os << c.median_ms << " ms (median of " << c.runs << ")";
  if (c.registers > 0) os << ", " << c.registers << " regs, " << c.local_bytes << " B spill";
  os << ", " << c.shared_bytes << " B shared";
  return os.str();
}

void time_candidates(TuneReport *report, const std::function<TimedCandidate(std::size_t)> &time, const TuneSettings &s,
                     const std::function<bool(const std::exception &)> &fatal, const std::function<bool()> &stop)
{
  const auto t0 = std::chrono::steady_clock::now();
  double best = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < report->candidates.size(); ++i) {
    TimedCandidate &c = report->candidates[i];
    if (c.error.empty() && stop && stop()) c.error = "not timed: stopped";
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
