// Schedule factories, validation against one form, and the paper's section 3.2.4
// memory quantities (the text form is schedule_text.cpp).
#include "schedule/schedule.h"

#include "schedule/mma_layout.h"

#include <algorithm>
#include <array>
#include <map>
#include <sstream>
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

namespace {

// "<name> = <value> must be <relation> <limit> (<why>)"
void require(bool ok, const std::string &name, long long value, const std::string &relation, long long limit,
             const std::string &why)
{
  if (ok) return;
  std::ostringstream os;
  os << "invalid schedule: " << name << " = " << value << " must be " << relation << " " << limit << " (" << why << ")";
  throw std::invalid_argument(os.str());
}

void require_range(const std::string &name, long long value, long long limit, const std::string &why)
{
  require(value >= 1, name, value, ">=", 1, "a loop needs a positive tile");
  require(value <= limit, name, value, "<=", limit, why);
}

void validate_tiles(const TileSizes &t, const ActionIR &ir, int Q)
{
  require_range("cells_per_group", t.cells_per_group, kMaxThreadsPerGroup, "threads per group limit");
  require_range("items_per_cell", t.items_per_cell, kMaxThreadsPerGroup, "threads per group limit");
  const long long threads = static_cast<long long>(t.cells_per_group) * t.items_per_cell;
  require(threads <= kMaxThreadsPerGroup, "cells_per_group*items_per_cell", threads, "<=", kMaxThreadsPerGroup,
          "threads per group limit");
  require_range("quad_tile", t.quad_tile, Q, "the number of quadrature points");
  require_range("eval_rows", t.eval_rows, t.quad_tile, "quad_tile, the loop it tiles");
  require(t.eval_cols.size() == ir.groups.size(), "eval_cols.size()", static_cast<long long>(t.eval_cols.size()), "==",
          static_cast<long long>(ir.groups.size()), "one column tile per evaluation group");
  for (size_t g = 0; g < ir.groups.size(); ++g)
    require_range("eval_cols[" + std::to_string(g) + "]", t.eval_cols[g], ir.groups[g].n_basis,
                  "the group's basis size n");
  require_range("quad_rows", t.quad_rows, ir.n_test_basis, "the test basis size n_W");
  require_range("quad_cols", t.quad_cols, t.quad_tile, "quad_tile, the loop it tiles");
}

// Strategy::TensorCore: FP64 products in whole 8 x 8 tiles; the other choices are the
// tiled and SCPWI kernels' and have no meaning here.
void validate_mma(const Schedule &s, const ActionIR &ir, int Q, long long max_shared_bytes)
{
  const MmaSizes &m = s.mma();
  if (s.precision() != Precision::FP64)
    throw std::invalid_argument("invalid schedule: mma kernels use the FP64 tensor cores (mma.sync m8n8k4 .f64); there is no fp32 variant");
  if (s.dofs() != Dofs::Registers || s.cell_values() != CellValues::Registers || s.tables() != Tables::Global ||
      s.loops() != Loops::Compiler || s.scatter() != Scatter::Atomic || s.lanes() != 1)
    throw std::invalid_argument("invalid schedule: an mma kernel takes none of dofs=, cells=, tables=, loops=, scatter= or lanes= (its "
                                "operands live in shared memory, its tables in global memory)");
  require_range("cells_per_group", m.cells_per_group, kMaxThreadsPerGroup, "threads per group limit");
  require(m.cells_per_group % 8 == 0, "cells_per_group", m.cells_per_group, "a multiple of", 8, "the width of a product's column tile");
  require_range("warps", m.warps, kMaxThreadsPerGroup / 32, "threads per group limit");
  // One work-item computes each cell's Jacobian and per-cell values (build_mma.cpp).
  require(m.cells_per_group <= 32 * m.warps, "cells_per_group", m.cells_per_group, "<=", 32 * m.warps,
          "32 x warps, one work-item per cell for its per-cell values");
  require_range("quad_tile", m.quad_tile, (Q + 7) / 8 * 8, "the number of quadrature points, rounded up to 8");
  require(m.quad_tile % 8 == 0, "quad_tile", m.quad_tile, "a multiple of", 8, "the height of a product's row tile");
  require(shared_memory_bytes(s, ir) <= max_shared_bytes, "shared memory bytes", shared_memory_bytes(s, ir), "<=", max_shared_bytes,
          "DOFs, evaluated values, pointwise results and per-cell values of N_c cells");
}

// Strategy::Assembled: a matrix that the mesh and the constants fix (schedule.h).
void validate_assembled(const Schedule &s, const ActionIR &ir)
{
  if (s.precision() != Precision::FP64)
    throw std::invalid_argument("invalid schedule: the assembled operator sums FP64 cell matrices; there is no fp32 variant");
  if (s.dofs() != Dofs::Registers || s.cell_values() != CellValues::Registers || s.tables() != Tables::Global ||
      s.loops() != Loops::Compiler || s.scatter() != Scatter::Atomic || s.lanes() != 1 || s.groups_per_sm() != 0)
    throw std::invalid_argument("invalid schedule: the assembled operator has no action kernel, so none of dofs=, cells=, tables=, loops=, "
                                "scatter=, lanes= or groups_per_sm= applies");
  if (ir.rank != 2) throw std::invalid_argument("invalid schedule: assembled needs a bilinear form (a matrix); this form is a residual");
  if (!ir.coefficients.empty())
    throw std::invalid_argument("invalid schedule: assembled needs a form without coefficient functions (the form has " +
                                std::to_string(ir.coefficients.size()) + "): its matrix would change with their values");
}

}  // namespace

void validate(const Schedule &s, const ActionIR &ir, int n_quadrature_points, long long max_shared_bytes)
{
  require(n_quadrature_points >= 1, "number of quadrature points", n_quadrature_points, ">=", 1, "an empty rule");
  if (s.strategy() == Strategy::Assembled && s.own_dofs() != OwnDofs::Atomic)
    throw std::invalid_argument("invalid schedule: the assembled operator has no action kernel, so own= does not apply");
  if (s.strategy() == Strategy::Assembled) return validate_assembled(s, ir);
  if (s.tables() == Tables::Interleaved && s.strategy() != Strategy::Tiled)
    throw std::invalid_argument("invalid schedule: tables=interleaved is for tiled kernels (the layout of their shared prefetch buffer); SCPWI "
                                "reads its tables from global or constant memory");
  if (s.tables() == Tables::Constant || s.tables() == Tables::MergedConstant) {
    if (s.strategy() != Strategy::SingleCellPerWorkItem)
      throw std::invalid_argument("invalid schedule: constant tables are for SCPWI; tiled kernels prefetch their tables into shared memory");
    const long long bytes = constant_table_bytes(s, ir, n_quadrature_points);
    require(bytes <= kMaxConstantTableBytes, "constant table bytes", bytes, "<=", kMaxConstantTableBytes, "constant memory");
  }
  if (s.groups_per_sm() > 0) {
    require(s.groups_per_sm() <= kMaxGroupsPerSM, "groups_per_sm", s.groups_per_sm(), "<=", kMaxGroupsPerSM, "groups one SM holds at once");
    const long long resident = static_cast<long long>(s.groups_per_sm()) * threads_per_group(s);
    require(resident <= kMaxThreadsPerSM, "groups_per_sm*threads per group", resident, "<=", kMaxThreadsPerSM,
            "threads one SM holds at once");
  }
  if (s.cell_values() == CellValues::Shared && s.strategy() != Strategy::Tiled)
    throw std::invalid_argument("invalid schedule: cells=shared is for tiled kernels, whose cells' work-items read the per-cell values "
                                "in turns; an SCPWI work-item holds its own cell's");
  if (s.loops() != Loops::Compiler && s.strategy() != Strategy::Tiled)
    throw std::invalid_argument("invalid schedule: loops=unrolled is for tiled kernels; SCPWI's loops over basis functions are unrolled already");
  if (s.own_dofs() != OwnDofs::Atomic && (s.strategy() != Strategy::SingleCellPerWorkItem || s.lanes() != 1))
    throw std::invalid_argument("invalid schedule: own=plain is for SCPWI kernels of one work-item a cell; the others add to every DOF atomically");
  if (s.strategy() == Strategy::TensorCore) {
    validate_mma(s, ir, n_quadrature_points, max_shared_bytes);
    return;
  }
  if (s.strategy() == Strategy::SingleCellPerWorkItem) {
    require_range("work_group_size", s.work_group_size(), kMaxThreadsPerGroup, "threads per group limit");
    if (s.lanes() != 1) {
      const int C = ir.signature.element.components;
      require(C > 1, "lanes", s.lanes(), "==", 1, "the form's test element has one component");
      require(s.lanes() == C, "lanes", s.lanes(), "==", C, "one lane per component of the test element");
      require(s.dofs() == Dofs::Registers, "lanes", s.lanes(), "==", 1, "dofs=shared keeps whole cells in shared memory");
      const long long threads = static_cast<long long>(s.work_group_size()) * s.lanes();
      require(threads <= kMaxThreadsPerGroup, "work_group_size*lanes", threads, "<=", kMaxThreadsPerGroup, "threads per group limit");
    }
    require(shared_memory_bytes(s, ir) <= max_shared_bytes, "shared memory bytes", shared_memory_bytes(s, ir), "<=", max_shared_bytes,
            "one column of DOFs and outputs per work-item (dofs=shared), or the lanes' exchange buffer");
    return;
  }
  validate_tiles(s.tiles(), ir, n_quadrature_points);
  require(shared_memory_bytes(s, ir) <= max_shared_bytes, "shared memory bytes", shared_memory_bytes(s, ir), "<=",
          max_shared_bytes, "prefetch buffer (Eq. 5) + e[N_c][T^Q][N_eval], with any shared DOF tiles and per-cell values");
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
    words += shared_dof_words(s, ir);
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
