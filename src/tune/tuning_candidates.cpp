// The first round of tuning: which schedules to time (tuner.h's tuning_candidates), from
// the cost model's rankings of the tiled space, and the settings text that keys them.
#include <algorithm>
#include <limits>
#include <sstream>

#include "tune/quantities.h"
#include "tune/tuner.h"

namespace femgpu {

namespace {

// Tiles that differ at most in their quadrature-stage register tile (T_q^r x T_q^c):
// the same evaluation tiling (N_c, N_WI, T^Q, T_e^r, T_e^c).
bool same_evaluation_tiling(const Tiles &a, const Tiles &b)
{
  return a.cells_per_group == b.cells_per_group && a.items_per_cell == b.items_per_cell && a.quad_tile == b.quad_tile &&
         a.eval_rows == b.eval_rows && a.eval_cols == b.eval_cols;
}

// The cost model's choice from a stream of tiled candidates, without storing the
// stream: the b cheapest, taking at most `per_tiling` of each evaluation tiling (see
// TuneSettings::per_evaluation_tiling; 0: no cap), then the cheapest of each N_WI class
// and of each T^Q class that those lack. Ties keep the earlier candidate (enumeration
// order), as rank_tiles. The N_WI classes: the paper's model (SG_sat = 1 on the H200)
// ranks one-item-per-cell tiles first, so timing also a few warp-per-cell ones keeps
// tuning from missing them.
class TileSelection {
 public:
  TileSelection(std::size_t b, std::size_t per_tiling, std::vector<int> nwi_classes, std::vector<int> tq_classes)
      : b_(b), per_tiling_(per_tiling), nwi_(std::move(nwi_classes)), tq_(std::move(tq_classes)), nwi_best_(nwi_.size()), tq_best_(tq_.size())
  {
  }

  // Called for every candidate of the walk (millions): the tiles are copied only when kept.
  // The kept list is exactly the b cheapest of the stream once each evaluation tiling is
  // cut to its per_tiling cheapest: a candidate displaced from a full tiling is worse
  // than per_tiling of its own, and one pushed off the end is worse than b kept ones
  // that can only be replaced by cheaper ones of their own tiling.
  void offer(const Tiles &t, double cost, std::size_t order)
  {
    if (b_ > 0 && (top_.size() < b_ || before(cost, order, top_.back()))) {
      const Entry e{cost, order, t};
      auto worst_same = top_.end();
      std::size_t same = 0;
      if (per_tiling_ > 0)
        for (auto it = top_.begin(); it != top_.end(); ++it)
          if (same_evaluation_tiling(it->tiles, t)) {
            ++same;
            worst_same = it;  // top_ is sorted, so the last one seen is the worst
          }
      if (same < per_tiling_ || per_tiling_ == 0) {
        top_.insert(std::upper_bound(top_.begin(), top_.end(), e), e);
        if (top_.size() > b_) top_.pop_back();
      } else if (before(cost, order, *worst_same)) {
        top_.erase(worst_same);
        top_.insert(std::upper_bound(top_.begin(), top_.end(), e), e);
      }
    }
    for (size_t i = 0; i < nwi_.size(); ++i)
      if (t.items_per_cell == nwi_[i]) keep_better(nwi_best_[i], t, cost, order);
    for (size_t i = 0; i < tq_.size(); ++i)
      if (t.quad_tile == tq_[i]) keep_better(tq_best_[i], t, cost, order);
  }

  std::vector<Tiles> chosen() const
  {
    std::vector<Tiles> out;
    for (const Entry &e : top_) out.push_back(e.tiles);
    add_class_bests(out, nwi_, nwi_best_, [](const Tiles &t) { return t.items_per_cell; });
    add_class_bests(out, tq_, tq_best_, [](const Tiles &t) { return t.quad_tile; });
    return out;
  }

 private:
  struct Entry {
    double cost = std::numeric_limits<double>::infinity();
    std::size_t order = 0;
    Tiles tiles;
    bool operator<(const Entry &o) const { return before(cost, order, o); }
  };
  struct Best {
    bool set = false;
    Entry entry;
  };
  // (cost, order) ranks ahead of e: cheaper, or as cheap and earlier.
  static bool before(double cost, std::size_t order, const Entry &e) { return cost < e.cost || (cost == e.cost && order < e.order); }
  static void keep_better(Best &best, const Tiles &t, double cost, std::size_t order)
  {
    if (!best.set || before(cost, order, best.entry)) best = {true, {cost, order, t}};
  }
  // The best of each class none of `out` belongs to, in class order.
  template <class Key>
  static void add_class_bests(std::vector<Tiles> &out, const std::vector<int> &classes, const std::vector<Best> &bests, Key key)
  {
    for (size_t i = 0; i < classes.size(); ++i) {
      const bool have = std::any_of(out.begin(), out.end(), [&](const Tiles &t) { return key(t) == classes[i]; });
      if (!have && bests[i].set) out.push_back(bests[i].entry.tiles);
    }
  }

  std::size_t b_, per_tiling_;
  std::vector<int> nwi_, tq_;
  std::vector<Entry> top_;
  std::vector<Best> nwi_best_, tq_best_;
};

// Whether tuning times these tiles, whose register footprint with the DOF tile in
// registers is `words`, with shared DOFs: unrolled, above TuneSettings::shared_dofs_above_words,
// and the shared arrays still fit the device.
bool times_shared_dofs(const ActionIR &ir, const Tiles &t, long long words, const DeviceParams &device, const TuneSettings &s)
{
  if (s.tiled_loops != Loops::Unrolled || s.shared_dofs_above_words <= 0 || words <= s.shared_dofs_above_words) return false;
  const Schedule shared = Schedule::tiled(t).with_loops(s.tiled_loops).with_dofs(Dofs::Shared);
  return static_cast<double>(shared_memory_bytes(shared, ir)) <= device.local_max_per_group;
}

// Whether the kernel tuning times for these tiles holds at most TuneSettings::fit_register_words.
// Called for every candidate of the walk: the shared arrays are sized only for the few that
// fit with shared DOFs and not without.
bool fits_register_file(const ActionIR &ir, const KernelShape &shape, const Tiles &t, long long words, const DeviceParams &device,
                        const TuneSettings &s)
{
  // Shared DOFs only shrink the footprint, so a footprint that fits in registers fits either way.
  if (words <= s.fit_register_words) return true;
  return register_words(shape, t, true) <= s.fit_register_words && times_shared_dofs(ir, t, words, device, s);
}

// The SCPWI candidates: each work-group size (with one lane per component for vector
// forms), and each with its tables in constant memory where they fit.
std::vector<TimedCandidate> scpwi_candidates(const ActionIR &ir, int Q, const TuneSettings &s)
{
  std::vector<TimedCandidate> out;
  // In FP64, the larger case: an FP32 tuning of the same list fits too.
  auto fits = [&](const Schedule &schedule) { return constant_table_bytes(schedule, ir, Q) <= kMaxConstantTableBytes; };
  auto add = [&](const Schedule &schedule) {
    const std::string text = to_string(schedule);
    if (std::any_of(out.begin(), out.end(), [&](const TimedCandidate &c) { return to_string(c.schedule) == text; })) return;
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
      add(plain);
      if (!s.scpwi_constant_tables) continue;
      const Schedule separate = plain.with_tables(Tables::Constant);
      const Schedule merged = separate.with_tables(Tables::MergedConstant);
      if (fits(separate)) add(separate);
      // Merged differs from separate only when some tables are equal.
      if (fits(merged) && table_words(ir, Q, true) < table_words(ir, Q)) add(merged);
    }
  return out;
}

// The selections one walk of the tiled space fills: the model's b best (with its N_WI
// and T^Q classes), the best by the paper's t_heur alone, the low-register and the
// register-fitting picks, the last two also by the paper's ranking where t_sync is on.
struct Selections {
  const ActionIR &ir;
  const KernelShape &shape;
  const DeviceParams &device;
  const TuneSettings &s;
  bool low_on, fit_on, paper_on;
  TileSelection all, paper, low, fit, low_paper, fit_paper;

  Selections(const ActionIR &ir, const KernelShape &shape, const DeviceParams &device, const TuneSettings &s, std::vector<int> tq_classes)
      : ir(ir), shape(shape), device(device), s(s), low_on(s.low_register_words > 0 && s.low_register_candidates > 0),
        fit_on(s.fit_register_words > 0 && s.fit_candidates > 0), paper_on(s.paper_model_candidates > 0 && device.barrier_seconds > 0),
        all(s.candidates, s.per_evaluation_tiling, s.items_per_cell_classes, std::move(tq_classes)),
        paper(s.paper_model_candidates, s.per_evaluation_tiling, {}, {}),
        low(s.low_register_candidates, s.per_evaluation_tiling, s.items_per_cell_classes, {}), fit(s.fit_candidates, s.per_evaluation_tiling, {}, {}),
        low_paper(s.low_register_candidates, s.per_evaluation_tiling, s.items_per_cell_classes, {}),
        fit_paper(s.fit_candidates, s.per_evaluation_tiling, {}, {})
  {
  }

  void offer(const Tiles &t, std::size_t order)
  {
    const double paper_cost = t_memory(shape, t, device);  // the paper's t_heur (Eq. 14)
    const double cost = paper_cost + t_sync(shape, t, device);
    const long long words = register_words(shape, t);
    all.offer(t, cost, order);
    if (paper_on) paper.offer(t, paper_cost, order);
    if (low_on && words <= s.low_register_words) {
      low.offer(t, cost, order);
      if (paper_on) low_paper.offer(t, paper_cost, order);
    }
    if (fit_on && fits_register_file(ir, shape, t, words, device, s)) {
      fit.offer(t, cost, order);
      if (paper_on) fit_paper.offer(t, paper_cost, order);
    }
  }

  // The b best first, then each other selection's picks not already in.
  std::vector<Tiles> chosen() const
  {
    std::vector<Tiles> out = all.chosen();
    for (const TileSelection *more : {paper_on ? &paper : nullptr, low_on ? &low : nullptr, fit_on ? &fit : nullptr,
                                      paper_on && low_on ? &low_paper : nullptr, paper_on && fit_on ? &fit_paper : nullptr})
      if (more)
        for (const Tiles &t : more->chosen())
          if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
    return out;
  }
};

}  // namespace

std::vector<TimedCandidate> tuning_candidates(const ActionIR &ir, int Q, const DeviceParams &probed, const TuneSettings &s,
                                              std::size_t *space_size, bool *truncated)
{
  DeviceParams device = probed;
  device.barrier_seconds = s.model_barrier_seconds;
  std::vector<TimedCandidate> out = scpwi_candidates(ir, Q, s);
  const KernelShape shape = KernelShape::from(ir, Q);
  const std::vector<int> quad_tiles = tile_sizes(Q);
  SearchLimits limits = s.limits;
  limits.max_per_quad_tile = std::max<long long>(1, limits.max_candidates / static_cast<long long>(quad_tiles.size()));
  const size_t n_tq_classes = std::min(quad_tiles.size(), static_cast<size_t>(std::max(0, s.quad_tile_classes)));
  Selections selections(ir, shape, device, s, std::vector<int>(quad_tiles.begin(), quad_tiles.begin() + static_cast<long>(n_tq_classes)));
  std::size_t visited = 0;
  *truncated = visit_tiles(shape, limits, device, [&](const Tiles &t) {
    selections.offer(t, visited++);
    return true;
  });
  *space_size = visited;
  for (const Tiles &t : selections.chosen()) {
    TimedCandidate c;
    c.schedule = Schedule::tiled(t).with_loops(s.tiled_loops);
    if (times_shared_dofs(ir, t, register_words(shape, t), device, s)) c.schedule = c.schedule.with_dofs(Dofs::Shared);
    c.model_seconds = t_heur(shape, t, device);
    out.push_back(c);
  }
  return out;
}

// Measured on the H200 (bench/experiments/h200_tensor_cores.txt): of ten shapes forced on
// the 14 vector cases at P2-P8, the first four won every case where a tensor-core kernel
// won (nc=16 tq=8 five times, nc=8 tq=16 four, nc=16 tq=16 two, nc=8 tq=8 one); T^Q = 64
// and 32 cells per group never did (a group's shared memory and registers then hold
// its SM to one or two groups).
const std::vector<MmaSizes> kMmaShapes{{16, 4, 8}, {8, 4, 16}, {16, 4, 16}, {8, 4, 8}, {8, 4, 32}, {16, 8, 32}};

// Measured on the H200 (bench/experiments/h200_test_dofs_prefetch.txt, 3.): forced on mass
// 2D P4-P8 and 3D P4-P6 with the test side the identity, N_c = 16 with 4 warps was the
// fastest tensor-core shape at 2D P4-P6 and 3D P5 (T^Q = 32 capped at the points: 1.13x
// over the table's winner at 2D P5, a shape kMmaShapes lacks), N_c = 8 at 2D P7-P8 and
// 3D P6; 8 warps, and 24 or 32 cells (more registers, fewer groups an SM), never were.
// Scalar forms with a quadrature product ran 1.06-2.1x slower at N_c = 16 and T^Q = 32
// than their winners, so they keep kMmaShapes.
// The last two: the operands in registers (MmaOperands::Registers, 8 cells a warp, T^Q = 8)
// at 4 and 8 warps, in place of the two shared-operand shapes of T^Q = 8, which never won.
// Forced beside the table's winners on the H200 they ran mass 2D P3 1.15x and P4 1.04x
// faster, 2D P5-P8 and 3D P2-P6 0.74-0.99x; 1 and 2 warps were slower than 4 and 8
// (bench/experiments/h200_mma_registers.txt).
const std::vector<MmaSizes> kIdentityMmaShapes{
    {16, 4, 32}, {16, 4, 16}, {8, 4, 32}, {8, 4, 16}, {32, 4, 8, MmaQuadOrder::Rows, MmaOperands::Registers},
    {64, 8, 8, MmaQuadOrder::Rows, MmaOperands::Registers}};

std::vector<TimedCandidate> tensor_core_candidates(const ActionIR &ir, int Q, std::size_t n, long long shared_limit, bool test_identity)
{
  std::vector<TimedCandidate> out;
  const int q8 = (Q + 7) / 8 * 8;
  for (MmaSizes m : test_identity ? kIdentityMmaShapes : kMmaShapes) {
    if (out.size() >= n) break;
    m.quad_tile = std::min(m.quad_tile, q8);
    TimedCandidate c;
    c.schedule = Schedule::tensor_core(m);
    if (std::any_of(out.begin(), out.end(), [&](const TimedCandidate &o) { return o.schedule.mma() == m; })) continue;
    if (shared_memory_bytes(c.schedule, ir) > shared_limit) continue;
    out.push_back(c);
  }
  return out;
}

}  // namespace femgpu
