// The twins of the fastest candidates (twins.h): each a small change of a timed schedule.
#include "tune/twins.h"

#include <algorithm>
#include <cmath>
#include <functional>


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
                                                const std::function<bool(const Schedule &)> &eligible,
                                                const std::function<Schedule(const Schedule &)> &transform)
{
  const std::vector<const TimedCandidate *> ran = fastest_ran(timed);
  std::vector<TimedCandidate> twins;
  for (std::size_t i = 0; i < std::min(n, ran.size()); ++i) {
    const Schedule &s = ran[i]->schedule;
    if (!eligible(s)) continue;
    const Schedule twin = transform(s);
    if (!listed(twins, twin)) add_twin(&twins, timed, *ran[i], twin);
  }
  return twins;
}

}  // namespace

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
  return twins_among_fastest(
      timed, n, [](const Schedule &s) { return s.strategy() == Strategy::TensorCore && s.mma().quad_order == MmaQuadOrder::Rows; },
      [](const Schedule &s) {
        MmaSizes m = s.mma();
        m.quad_order = MmaQuadOrder::Steps;
        return s.with_mma(m);
      });
}

std::vector<TimedCandidate> warp_scatter_twins(const std::vector<TimedCandidate> &timed, std::size_t n)
{
  return twins_of_fastest(
      timed, n, [](const TimedCandidate &c) { return c.schedule.strategy() != Strategy::TensorCore && c.schedule.scatter() == Scatter::Atomic; },
      [](const TimedCandidate &c) { return c.schedule.with_scatter(Scatter::Warp); });
}

std::vector<TimedCandidate> own_dofs_twins(const ActionIR &ir, const std::vector<TimedCandidate> &timed, std::size_t n)
{
  if (lagrange_interior_dimension(ir.dim, ir.signature.element.degree) == 0) return {};
  return twins_among_fastest(
      timed, n,
      [](const Schedule &s) { return s.strategy() == Strategy::SingleCellPerWorkItem && s.lanes() == 1 && s.own_dofs() == OwnDofs::Atomic; },
      [](const Schedule &s) { return s.with_own_dofs(OwnDofs::Plain); });
}

std::vector<TimedCandidate> staged_scatter_twins(const std::vector<TimedCandidate> &timed, std::size_t n)
{
  // An own=plain original and its atomic sibling make the same twin, timed once.
  return twins_among_fastest(
      timed, n,
      [](const Schedule &s) {
        return s.strategy() == Strategy::SingleCellPerWorkItem && s.lanes() == 1 && s.dofs() == Dofs::Registers && s.scatter() != Scatter::Staged;
      },
      [](const Schedule &s) { return s.with_scatter(Scatter::Staged).with_own_dofs(OwnDofs::Atomic); });
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

}  // namespace femgpu
