// The measured local search of tuning (tuner.h's tile_neighbours and local_search):
// the tiled candidates one ladder step away from the fastest one timed so far.
#include <algorithm>
#include <cmath>
#include <functional>
#include <set>
#include <stdexcept>

#include "tune/cost_model.h"
#include "tune/quantities.h"
#include "tune/tuner.h"

namespace femgpu {

namespace {

// The values of `ladder` (largest first) next to `value`: the nearest larger
// and the nearest smaller one. A value off the ladder has the ladder values
// around it as its neighbours.
std::vector<int> ladder_steps(const std::vector<int> &ladder, int value)
{
  std::vector<int> steps;
  int above = 0, below = 0;
  for (int v : ladder) {
    if (v > value) above = v;  // the ladder falls: the last value above is the nearest
    if (v < value && below == 0) below = v;
  }
  if (above > 0) steps.push_back(above);
  if (below > 0) steps.push_back(below);
  return steps;
}

// The ladder value of tile_sizes(extent) nearest to `value`, the smaller on a
// tie.
int snap(int extent, int value)
{
  int best = extent;
  for (int v : tile_sizes(extent))
    if (std::abs(v - value) < std::abs(best - value) || (std::abs(v - value) == std::abs(best - value) && v < best)) best = v;
  return best;
}

bool admissible_division(int nc, int nwi, const SearchLimits &l)
{
  if (nc < 1 || nwi < 1 || static_cast<long long>(nc) * nwi > l.wg_max) return false;
  Tiles t;
  t.cells_per_group = nc;
  t.items_per_cell = nwi;
  return eta_simd(t) >= l.eta_simd_min;
}

// The work divisions next to (nc, nwi): N_c one admissible step up and down
// with N_WI kept, and N_WI one up and down with the N_c whose thread count is
// nearest the original's (the smaller on a tie).
std::vector<std::pair<int, int>> division_steps(int nc, int nwi, const SearchLimits &l)
{
  std::vector<std::pair<int, int>> out;
  for (int c = nc + 1; c <= l.wg_max; ++c)
    if (admissible_division(c, nwi, l)) {
      out.emplace_back(c, nwi);
      break;
    }
  for (int c = nc - 1; c >= 1; --c)
    if (admissible_division(c, nwi, l)) {
      out.emplace_back(c, nwi);
      break;
    }
  const long long threads = static_cast<long long>(nc) * nwi;
  for (int w : {nwi + 1, nwi - 1}) {
    int pick = 0;
    long long gap = 0;
    for (int c = 1; static_cast<long long>(c) * w <= l.wg_max && w >= 1; ++c) {
      if (!admissible_division(c, w, l)) continue;
      const long long g = std::llabs(static_cast<long long>(c) * w - threads);
      if (pick == 0 || g < gap) pick = c, gap = g;
    }
    if (pick > 0) out.emplace_back(pick, w);
  }
  return out;
}

// Every tile vector one step from t: each parameter moved along its ladder, the
// others kept (T_e^r and T_q^c snapped onto the new T^Q's ladder when T^Q
// moves).
std::vector<Tiles> one_step_tiles(const KernelShape &shape, const Tiles &t, const SearchLimits &l)
{
  std::vector<Tiles> out;
  for (const auto &[nc, nwi] : division_steps(t.cells_per_group, t.items_per_cell, l)) {
    Tiles n = t;
    n.cells_per_group = nc, n.items_per_cell = nwi;
    out.push_back(n);
  }
  for (int tq : ladder_steps(tile_sizes(shape.Q), t.quad_tile)) {
    Tiles n = t;
    n.quad_tile = tq;
    n.eval_rows = snap(tq, std::min(t.eval_rows, tq));
    n.quad_cols = snap(tq, std::min(t.quad_cols, tq));
    out.push_back(n);
  }
  for (int v : ladder_steps(tile_sizes(t.quad_tile), t.eval_rows)) {
    Tiles n = t;
    n.eval_rows = v;
    out.push_back(n);
  }
  for (size_t g = 0; g < t.eval_cols.size() && g < shape.groups.size(); ++g)
    for (int v : ladder_steps(tile_sizes(shape.groups[g].n), t.eval_cols[g])) {
      Tiles n = t;
      n.eval_cols[g] = v;
      out.push_back(n);
    }
  for (int v : ladder_steps(tile_sizes(shape.n_test), t.quad_rows)) {
    Tiles n = t;
    n.quad_rows = v;
    out.push_back(n);
  }
  for (int v : ladder_steps(tile_sizes(t.quad_tile), t.quad_cols)) {
    Tiles n = t;
    n.quad_cols = v;
    out.push_back(n);
  }
  return out;
}

}  // namespace

std::vector<TimedCandidate> tile_neighbours(const ActionIR &ir, int Q, const DeviceParams &probed, const TuneSettings &s,
                                            const std::vector<TimedCandidate> &timed, std::set<std::string> *expanded,
                                            std::string *parent_text)
{
  // The fastest tiled candidate, also where SCPWI is faster: a refined tiled
  // kernel may overtake it (hyperelasticity 2D P8's refinement gained 1.37x on
  // the H200).
  const TimedCandidate *fastest = nullptr;
  for (const TimedCandidate &c : timed)
    if (c.schedule.strategy() == Strategy::Tiled && c.error.empty() && std::isfinite(c.median_ms) &&
        (!fastest || c.median_ms < fastest->median_ms))
      fastest = &c;
  if (!fastest) return {};
  const Schedule parent = fastest->schedule;
  if (!expanded->insert(to_string(parent)).second) return {};
  if (parent_text) *parent_text = to_string(parent);
  DeviceParams device = probed;
  device.barrier_seconds = s.model_barrier_seconds;
  const KernelShape shape = KernelShape::from(ir, Q, bytes_per_real(parent.precision()));
  std::set<std::string> seen;
  for (const TimedCandidate &c : timed) seen.insert(to_string(c.schedule));
  std::vector<TimedCandidate> out;
  for (const Tiles &t : one_step_tiles(shape, parent.tiles(), s.limits)) {
    // The parent's other choices (DOFs, loops, tables, scatter, register bound,
    // precision) are kept. The space's hard limits hold: whole warps and WG_max
    // (division_steps), the device's shared memory (validate). Not eta_alias_min: it
    // prunes tiles whose prefetch buffers are unbalanced, which moving one tile makes
    // most neighbours (elasticity 2D P6: 3 of 11 would remain), and here each one is
    // measured rather than ranked.
    TimedCandidate c;
    c.schedule = parent.with_tiles(t);
    try {
      validate(c.schedule, ir, Q, static_cast<long long>(device.local_max_per_group));
    } catch (const std::invalid_argument &) {
      continue;  // more shared memory than the device has, a bound on too many threads
    }
    if (!seen.insert(to_string(c.schedule)).second) continue;
    c.model_seconds = t_heur(shape, t, device);
    out.push_back(c);
  }
  return out;
}

void local_search(const ActionIR &ir, int Q, const DeviceParams &device, const TuneSettings &s, std::size_t rounds, const TuneReport &report,
                  const std::function<void(std::vector<TimedCandidate>)> &time_round)
{
  std::set<std::string> expanded;
  std::string parent;
  for (std::size_t r = 0; r < rounds; ++r) {
    std::vector<TimedCandidate> near = tile_neighbours(ir, Q, device, s, report.candidates, &expanded, &parent);
    if (near.empty()) return;
    if (s.monitor)
      s.monitor("local search round " + std::to_string(r + 1) + ": " + std::to_string(near.size()) + " tile neighbours of " + parent);
    time_round(std::move(near));
  }
}

}  // namespace femgpu
