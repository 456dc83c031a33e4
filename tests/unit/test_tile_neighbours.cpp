// The local search's candidates (tuner.h's tile_neighbours): every neighbour of
// the fastest tiled candidate keeps whole warps and fits the device, is one
// ladder step from its parent in one tile parameter, keeps the parent's other
// choices and validates; every ladder step of a single tile parameter that fits
// is among them; a refined parent gives none, and SCPWI being faster does not
// stop the refinement. The parent is taken from the pruned space itself.
#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "fem/quadrature.h"
#include "form/parser.h"
#include "ir/lower.h"
#include "tune/quantities.h"
#include "tune/tune_plan.h"
#include "tune/tuner.h"

using namespace femgpu;

namespace {

ActionIR lowered(const std::string &form, int degree)
{
  FormSignature sig{CellType::Triangle, Element{degree, 2}, 1};
  return lower_form(parse_form_file(default_share_dir() + "/forms/" + form + ".ufl", sig).a);
}

TimedCandidate timed(const Schedule &s, double ms)
{
  TimedCandidate c;
  c.schedule = s;
  c.median_ms = ms;
  return c;
}

// Whether b is a and c adjacent on `ladder` (largest first): no ladder value
// lies between.
bool adjacent(const std::vector<int> &ladder, int a, int b)
{
  if (a == b || std::find(ladder.begin(), ladder.end(), b) == ladder.end()) return false;
  return std::none_of(ladder.begin(), ladder.end(), [&](int v) { return v > std::min(a, b) && v < std::max(a, b); });
}

void check_neighbours(const std::string &form, int degree, int Q)
{
  INFO(form << " P" << degree << " Q " << Q);
  const ActionIR ir = lowered(form, degree);
  const KernelShape shape = KernelShape::from(ir, Q);
  DeviceParams device;
  TuneSettings settings;
  // The pruned space, as the tuner's walk admits it.
  std::vector<Tiles> all;
  visit_tiles(shape, settings.limits, device, [&](const Tiles &t) {
    all.push_back(t);
    return true;
  });
  REQUIRE(all.size() > 100);
  // A parent from the middle of the space (no tile at either end of its
  // ladder), with shared DOFs and interleaved tables to see that they are kept.
  Tiles parent = all[all.size() / 2];
  for (const Tiles &t : all)
    if (t.quad_tile < Q && t.eval_rows > 1 && t.eval_rows < t.quad_tile && t.quad_rows > 1 && t.quad_rows < shape.n_test &&
        t.eval_cols[0] > 1 && t.eval_cols[0] < shape.groups[0].n && t.items_per_cell > 1 && t.quad_cols > 1 && t.quad_cols < t.quad_tile) {
      parent = t;
      break;
    }
  // The fastest is a register-bound twin; its unbounded original ran slower.
  const Schedule p = Schedule::tiled(parent).with_loops(Loops::Unrolled).with_tables(Tables::Interleaved).with_groups_per_sm(2);
  INFO("parent " << to_string(p));
  const std::vector<TimedCandidate> list{timed(Schedule::single_cell_per_work_item(), 2.0), timed(p, 1.0),
                                         timed(p.with_groups_per_sm(0), 1.5)};
  std::set<std::string> expanded;
  const std::vector<TimedCandidate> near = tile_neighbours(ir, Q, device, settings, list, &expanded);
  REQUIRE(near.size() >= 8);
  auto fits = [&](const Tiles &t) {
    return static_cast<double>(allocated_local_words(shape, t)) * shape.word_bytes <= device.local_max_per_group &&
           eta_simd(t) >= settings.limits.eta_simd_min && t.cells_per_group * t.items_per_cell <= settings.limits.wg_max;
  };
  CHECK(expanded.count(to_string(p)) == 1);
  std::set<std::string> returned;
  for (const TimedCandidate &c : near) {
    const Tiles &t = c.schedule.tiles();
    INFO("neighbour " << to_string(c.schedule));
    CHECK(fits(t));
    CHECK_NOTHROW(validate(c.schedule, ir, Q, static_cast<long long>(device.local_max_per_group)));
    CHECK(c.schedule.loops() == Loops::Unrolled);
    CHECK(c.schedule.tables() == Tables::Interleaved);
    CHECK(c.schedule.groups_per_sm() == 2);
    CHECK(c.model_seconds > 0);
    CHECK(returned.insert(to_string(c.schedule)).second);
    CHECK(to_string(c.schedule) != to_string(p));
    // One parameter moved one step (a work division is one move; T^Q may snap
    // T_e^r and T_q^c).
    int moved = 0;
    if (t.cells_per_group != parent.cells_per_group || t.items_per_cell != parent.items_per_cell) ++moved;
    if (t.quad_tile != parent.quad_tile) {
      ++moved;
      CHECK(adjacent(tile_sizes(Q), parent.quad_tile, t.quad_tile));
    } else {
      if (t.eval_rows != parent.eval_rows) {
        ++moved;
        CHECK(adjacent(tile_sizes(parent.quad_tile), parent.eval_rows, t.eval_rows));
      }
      if (t.quad_cols != parent.quad_cols) {
        ++moved;
        CHECK(adjacent(tile_sizes(parent.quad_tile), parent.quad_cols, t.quad_cols));
      }
    }
    if (t.eval_cols != parent.eval_cols) {
      ++moved;
      CHECK(adjacent(tile_sizes(shape.groups[0].n), parent.eval_cols[0], t.eval_cols[0]));
    }
    if (t.quad_rows != parent.quad_rows) {
      ++moved;
      CHECK(adjacent(tile_sizes(shape.n_test), parent.quad_rows, t.quad_rows));
    }
    CHECK(moved == 1);
  }
  // Completeness for the single-parameter moves: each ladder step of T_e^c,
  // T_q^r, T_e^r and T_q^c that fits is returned.
  auto expect = [&](Tiles t) {
    if (!fits(t)) return;
    const std::string s = to_string(Schedule::tiled(t).with_loops(Loops::Unrolled).with_tables(Tables::Interleaved).with_groups_per_sm(2));
    INFO("expected " << s);
    CHECK(returned.count(s) == 1);
  };
  for (int v : tile_sizes(shape.groups[0].n))
    if (adjacent(tile_sizes(shape.groups[0].n), parent.eval_cols[0], v)) {
      Tiles t = parent;
      t.eval_cols[0] = v;
      expect(t);
    }
  for (int v : tile_sizes(shape.n_test))
    if (adjacent(tile_sizes(shape.n_test), parent.quad_rows, v)) {
      Tiles t = parent;
      t.quad_rows = v;
      expect(t);
    }
  for (int v : tile_sizes(parent.quad_tile)) {
    Tiles r = parent, c = parent;
    if (adjacent(tile_sizes(parent.quad_tile), parent.eval_rows, v)) {
      r.eval_rows = v;
      expect(r);
    }
    if (adjacent(tile_sizes(parent.quad_tile), parent.quad_cols, v)) {
      c.quad_cols = v;
      expect(c);
    }
  }
  // A refined parent is not refined again; the neighbours already timed are
  // skipped.
  CHECK(tile_neighbours(ir, Q, device, settings, list, &expanded).empty());
  std::vector<TimedCandidate> with_near = list;
  for (const TimedCandidate &c : near) with_near.push_back(timed(c.schedule, 3.0));
  std::set<std::string> fresh;
  CHECK(tile_neighbours(ir, Q, device, settings, with_near, &fresh).empty());
  // Where SCPWI is faster, the fastest tiled candidate is still refined; with
  // no tiled candidate that ran, nothing is.
  std::vector<TimedCandidate> scpwi_wins = list;
  scpwi_wins[0].median_ms = 0.5;
  std::set<std::string> once;
  CHECK(tile_neighbours(ir, Q, device, settings, scpwi_wins, &once).size() == near.size());
  CHECK(once.count(to_string(p)) == 1);
  std::vector<TimedCandidate> failed = list;
  for (TimedCandidate &c : failed)
    if (c.schedule.strategy() == Strategy::Tiled) {
      c.error = "failed";
      c.median_ms = std::numeric_limits<double>::infinity();
    }
  std::set<std::string> none;
  CHECK(tile_neighbours(ir, Q, device, settings, failed, &none).empty());
  CHECK(none.empty());
}

}  // namespace

TEST_CASE(
    "tile neighbours: one ladder step of one tile, whole warps, fitting "
    "the device",
    "[tune][local_search]")
{
  check_neighbours("elasticity", 6, 25);
  check_neighbours("hyperelasticity", 3, 12);
}

TEST_CASE(
    "the local search's rounds are part of the tuning settings text (the "
    "cache key)",
    "[tune][local_search]")
{
  TuneSettings a, b;
  b = with_plan(b, parse_tune_plan("first; local_search n=1"));
  CHECK(tuning_settings_text(a).find("; local_search n=2;") != std::string::npos);  // the default plan's round
  CHECK(tuning_settings_text(b).find(" plan=first; local_search n=1") != std::string::npos);
  CHECK(tuning_settings_text(a) != tuning_settings_text(b));
}
