// Schedule factories and the paper's section 3.2.4 memory quantities (validation against
// one form is schedule_validation.cpp, the text form schedule_text.cpp).
#include "schedule/schedule.h"

#include "schedule/mma_layout.h"

#include <algorithm>
#include <array>
#include <map>
#include <stdexcept>

namespace femgpu {

int bytes_per_real(Precision p) { return p == Precision::FP64 ? 8 : 4; }

Schedule Schedule::single_cell_per_work_item(int work_group_size, Precision precision)
{
  Schedule s;
  s.strategy_ = Strategy::SingleCellPerWorkItem;
  s.work_group_size_ = work_group_size;
  s.precision_ = precision;
  return s;
}

Schedule Schedule::tiled(const TileSizes &tiles, Precision precision)
{
  Schedule s;
  s.strategy_ = Strategy::Tiled;
  s.tiles_ = tiles;
  s.precision_ = precision;
  return s;
}

Schedule Schedule::tensor_core(const MmaSizes &sizes, Precision precision)
{
  Schedule s;
  s.strategy_ = Strategy::TensorCore;
  s.mma_ = sizes;
  s.precision_ = precision;
  return s;
}

Schedule Schedule::assembled()
{
  Schedule s;
  s.strategy_ = Strategy::Assembled;
  s.work_group_size_ = kAssembledThreadsPerGroup;
  return s;
}

Schedule Schedule::with_precision(Precision precision) const
{
  Schedule s = *this;
  s.precision_ = precision;
  return s;
}

Schedule Schedule::with_dofs(Dofs dofs) const
{
  Schedule s = *this;
  s.dofs_ = dofs;
  return s;
}

Schedule Schedule::with_cell_values(CellValues where) const
{
  Schedule s = *this;
  s.cell_values_ = where;
  return s;
}

Schedule Schedule::with_tables(Tables tables) const
{
  Schedule s = *this;
  s.tables_ = tables;
  return s;
}

Schedule Schedule::with_loops(Loops loops) const
{
  Schedule s = *this;
  s.loops_ = loops;
  return s;
}

Schedule Schedule::with_scatter(Scatter scatter) const
{
  Schedule s = *this;
  s.scatter_ = scatter;
  return s;
}

Schedule Schedule::with_own_dofs(OwnDofs own) const
{
  Schedule s = *this;
  s.own_dofs_ = own;
  return s;
}

Schedule Schedule::with_groups_per_sm(int groups) const
{
  Schedule s = *this;
  s.groups_per_sm_ = groups;
  return s;
}

Schedule Schedule::with_tiles(const TileSizes &tiles) const
{
  if (strategy_ != Strategy::Tiled) throw std::logic_error("with_tiles: tile sizes are a tiled schedule's parameters");
  Schedule s = *this;
  s.tiles_ = tiles;
  return s;
}

Schedule Schedule::with_cells_per_group(int cells) const
{
  if (strategy_ != Strategy::Tiled) throw std::logic_error("with_cells_per_group: N_c is a tiled schedule's parameter");
  TileSizes t = tiles_;
  t.cells_per_group = cells;
  return with_tiles(t);
}

Schedule Schedule::with_mma(const MmaSizes &sizes) const
{
  if (strategy_ != Strategy::TensorCore) throw std::logic_error("with_mma: N_c, warps and T^Q are a tensor-core schedule's parameters");
  Schedule s = *this;
  s.mma_ = sizes;
  return s;
}

Schedule Schedule::with_work_group_size(int cells) const
{
  if (strategy_ != Strategy::SingleCellPerWorkItem) throw std::logic_error("with_work_group_size: wg is an SCPWI schedule's parameter");
  Schedule s = *this;
  s.work_group_size_ = cells;
  return s;
}

Schedule Schedule::with_lanes(int lanes_per_cell) const
{
  Schedule s = *this;
  s.lanes_ = lanes_per_cell;
  return s;
}

long long table_words(const ActionIR &ir, int n_quadrature_points, bool merged)
{
  std::map<std::pair<int, std::array<int, 3>>, long long> distinct;
  long long words = static_cast<long long>(ir.test_derivatives.size()) * ir.n_test_basis;
  for (const EvalGroup &g : ir.groups) {
    words += static_cast<long long>(g.derivatives.size()) * g.n_basis;
    for (const auto &alpha : g.derivatives) distinct[{g.element.degree, alpha}] = g.n_basis;
  }
  for (const auto &alpha : ir.test_derivatives) distinct[{ir.signature.element.degree, alpha}] = ir.n_test_basis;
  if (merged) {
    words = 0;
    for (const auto &kv : distinct) words += kv.second;
  }
  return words * n_quadrature_points;
}

long long constant_table_bytes(const Schedule &s, const ActionIR &ir, int n_quadrature_points)
{
  if (s.tables() != Tables::Constant && s.tables() != Tables::MergedConstant) return 0;
  return table_words(ir, n_quadrature_points, s.tables() == Tables::MergedConstant) * bytes_per_real(s.precision());
}

int threads_per_group(const Schedule &s)
{
  if (s.strategy() == Strategy::SingleCellPerWorkItem) return s.work_group_size() * s.lanes();
  if (s.strategy() == Strategy::TensorCore) return 32 * s.mma().warps;
  if (s.strategy() == Strategy::Assembled) return kAssembledThreadsPerGroup;
  return s.tiles().cells_per_group * s.tiles().items_per_cell;
}

int cells_per_group(const Schedule &s)
{
  if (s.strategy() == Strategy::TensorCore) return s.mma().cells_per_group;
  if (s.strategy() == Strategy::Assembled) return 0;  // it works on rows, not cells
  return s.strategy() == Strategy::SingleCellPerWorkItem ? s.work_group_size() : s.tiles().cells_per_group;
}

int odd_stride(int words) { return words | 1; }

long long prefetch_buffer_words(const Schedule &s, const ActionIR &ir)
{
  if (s.strategy() != Strategy::Tiled) return 0;
  const TileSizes &t = s.tiles();
  long long words = static_cast<long long>(ir.test_derivatives.size()) * t.quad_rows * odd_stride(t.quad_cols);
  for (size_t g = 0; g < ir.groups.size() && g < t.eval_cols.size(); ++g)
    words = std::max(words, static_cast<long long>(ir.groups[g].derivatives.size()) * t.eval_rows * odd_stride(t.eval_cols[g]));
  return words;
}

namespace {

// Words of the Dofs::Shared arrays: tiled, N_c column tiles per function; SCPWI, one
// column per work-item of every evaluated function but the coordinates (which the
// Jacobian reads from registers) and of the output.
long long shared_dof_words(const Schedule &s, const ActionIR &ir)
{
  if (s.dofs() != Dofs::Shared) return 0;
  long long words = 0;
  if (s.strategy() == Strategy::Tiled) {
    for (const EvalGroup &g : ir.groups)
      for (int f : g.functions) words += static_cast<long long>(s.tiles().cells_per_group) * dof_tile_stride(s, ir, f);
    return words;
  }
  for (const EvalGroup &g : ir.groups)
    for (int f : g.functions)
      if (f != kCoordinates) words += static_cast<long long>(g.n_basis) * g.element.components;
  words += static_cast<long long>(ir.n_test_basis) * ir.signature.element.components;
  return words * s.work_group_size();
}

}  // namespace

int dof_tile_stride(const Schedule &s, const ActionIR &ir, int function)
{
  for (size_t g = 0; g < ir.groups.size() && g < s.tiles().eval_cols.size(); ++g)
    for (int f : ir.groups[g].functions)
      if (f == function) return odd_stride(s.tiles().eval_cols[g] * ir.groups[g].element.components);
  throw std::invalid_argument("dof_tile_stride: function " + std::to_string(function) + " is in no evaluation group");
}

bool lane_split(const ActionIR &ir, int function)
{
  const int C = ir.signature.element.components;
  const int g = ir.group_of_function(function);
  return C > 1 && function != kCoordinates && g >= 0 && ir.groups[static_cast<size_t>(g)].element.components == C;
}

std::vector<LaneRow> lane_exchange_rows(const ActionIR &ir)
{
  std::vector<LaneRow> rows;
  for (size_t g = 0; g < ir.groups.size(); ++g)
    for (const EvalTerm &t : ir.groups[g].terms) {
      const LaneRow r{static_cast<int>(g), t.function, t.derivative};
      const bool seen = std::any_of(rows.begin(), rows.end(), [&](const LaneRow &o) {
        return o.group == r.group && o.function == r.function && o.derivative == r.derivative;
      });
      if (lane_split(ir, t.function) && !seen) rows.push_back(r);
    }
  return rows;
}

long long staged_output_words(const Schedule &s, const ActionIR &ir)
{
  if (s.strategy() != Strategy::SingleCellPerWorkItem || s.scatter() != Scatter::Staged) return 0;
  return static_cast<long long>(ir.n_test_basis) * ir.signature.element.components * s.work_group_size();
}

long long lane_exchange_words(const Schedule &s, const ActionIR &ir)
{
  if (s.strategy() != Strategy::SingleCellPerWorkItem || s.lanes() == 1) return 0;
  return 2LL * static_cast<long long>(lane_exchange_rows(ir).size()) * s.lanes() * s.work_group_size();
}

long long shared_memory_bytes(const Schedule &s, const ActionIR &ir)
{
  if (s.strategy() == Strategy::TensorCore) return mma_layout(s.mma(), ir).total_words() * bytes_per_real(s.precision());
  long long words = lane_exchange_words(s, ir);
  if (s.strategy() == Strategy::Tiled) {
    words += prefetch_buffer_words(s, ir) + evaluation_words(s, ir);
    if (!dofs_alias_evaluations(s)) words += shared_dof_words(s, ir);
    if (s.cell_values() == CellValues::Shared) words += static_cast<long long>(s.tiles().cells_per_group) * cell_value_stride(ir);
  } else {
    words += shared_dof_words(s, ir) + staged_output_words(s, ir);
  }
  return words * bytes_per_real(s.precision());
}

bool dofs_alias_evaluations(const Schedule &s)
{
  return s.strategy() == Strategy::Tiled && s.dofs() == Dofs::Shared && s.tiles().eval_rows >= s.tiles().quad_tile;
}

long long evaluation_words(const Schedule &s, const ActionIR &ir)
{
  const TileSizes &t = s.tiles();
  const long long e = static_cast<long long>(t.cells_per_group) * odd_stride(t.quad_tile * ir.n_eval());
  return dofs_alias_evaluations(s) ? std::max(e, shared_dof_words(s, ir)) : e;
}

int cell_value_stride(const ActionIR &ir) { return odd_stride(static_cast<int>(held_cell_values(ir.pointwise).size())); }

}  // namespace femgpu
