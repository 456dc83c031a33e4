// A schedule checked against one form (schedule.h's validate): which choices each
// strategy takes (the scopes of the schedule words' values, schedule_words.h), tile and
// launch limits, shared and constant memory.
#include "schedule/schedule.h"
#include "schedule/schedule_words.h"

#include <sstream>
#include <stdexcept>
#include <string>

namespace femgpu {

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

// The value of `key` outside its scope (schedule_words.h), with the scope's reason.
void require_scope(const Schedule &s, const std::string &key)
{
  if (const ValueScope *refused = refused_scope(s, key)) throw std::invalid_argument(std::string("invalid schedule: ") + refused->why);
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
    throw std::invalid_argument("invalid schedule: an mma kernel takes none of dofs=, cells=, tables=, loops=, scatter= or lanes= (operands= "
                                "says where its operands live; its tables are in global memory)");
  require_range("cells_per_group", m.cells_per_group, kMaxThreadsPerGroup, "threads per group limit");
  require(m.cells_per_group % 8 == 0, "cells_per_group", m.cells_per_group, "a multiple of", 8, "the width of a product's column tile");
  require_range("warps", m.warps, kMaxThreadsPerGroup / 32, "threads per group limit");
  // One work-item computes each cell's Jacobian and per-cell values (build_mma.cpp).
  require(m.cells_per_group <= 32 * m.warps, "cells_per_group", m.cells_per_group, "<=", 32 * m.warps,
          "32 x warps, one work-item per cell for its per-cell values");
  require_range("quad_tile", m.quad_tile, (Q + 7) / 8 * 8, "the number of quadrature points, rounded up to 8");
  require(m.quad_tile % 8 == 0, "quad_tile", m.quad_tile, "a multiple of", 8, "the height of a product's row tile");
  if (m.operands == MmaOperands::Registers) {  // a warp's 8 cells, one row tile of points at a time
    require(m.cells_per_group == 8 * m.warps, "cells_per_group", m.cells_per_group, "==", 8 * m.warps,
            "8 x warps with operands=registers, 8 cells a warp");
    require(m.quad_tile == 8, "quad_tile", m.quad_tile, "==", 8, "one row tile of points at a time with operands=registers");
    require_scope(s, "quad");  // quad=steps: no quadrature product
  }
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

// Strategy::SingleCellPerWorkItem: the group, the lanes, the shared memory.
void validate_scpwi(const Schedule &s, const ActionIR &ir, long long max_shared_bytes)
{
  require_range("work_group_size", s.work_group_size(), kMaxThreadsPerGroup, "threads per group limit");
  if (s.lanes() != 1) {
    const int C = ir.signature.element.components;
    require(C > 1, "lanes", s.lanes(), "==", 1, "the form's test element has one component");
    require(s.lanes() == C, "lanes", s.lanes(), "==", C, "one lane per component of the test element");
    require(!refused_scope(s, "dofs"), "lanes", s.lanes(), "==", 1, "dofs=shared keeps whole cells in shared memory");
    const long long threads = static_cast<long long>(s.work_group_size()) * s.lanes();
    require(threads <= kMaxThreadsPerGroup, "work_group_size*lanes", threads, "<=", kMaxThreadsPerGroup, "threads per group limit");
  }
  require(shared_memory_bytes(s, ir) <= max_shared_bytes, "shared memory bytes", shared_memory_bytes(s, ir), "<=", max_shared_bytes,
          "one column of DOFs and outputs per work-item (dofs=shared), the lanes' exchange buffer, or a row of staged outputs "
          "per work-item (scatter=staged)");
}

}  // namespace

void validate(const Schedule &s, const ActionIR &ir, int n_quadrature_points, long long max_shared_bytes)
{
  require(n_quadrature_points >= 1, "number of quadrature points", n_quadrature_points, ">=", 1, "an empty rule");
  require_scope(s, "own");
  if (s.scatter() == Scatter::Staged) require_scope(s, "scatter");  // warp: mma's and assembled's lists below
  if (s.strategy() == Strategy::Assembled) return validate_assembled(s, ir);
  require_scope(s, "tables");
  if (s.tables() == Tables::Constant || s.tables() == Tables::MergedConstant) {
    const long long bytes = constant_table_bytes(s, ir, n_quadrature_points);
    require(bytes <= kMaxConstantTableBytes, "constant table bytes", bytes, "<=", kMaxConstantTableBytes, "constant memory");
  }
  if (s.groups_per_sm() > 0) {
    require(s.groups_per_sm() <= kMaxGroupsPerSM, "groups_per_sm", s.groups_per_sm(), "<=", kMaxGroupsPerSM, "groups one SM holds at once");
    const long long resident = static_cast<long long>(s.groups_per_sm()) * threads_per_group(s);
    require(resident <= kMaxThreadsPerSM, "groups_per_sm*threads per group", resident, "<=", kMaxThreadsPerSM,
            "threads one SM holds at once");
  }
  require_scope(s, "cells");
  require_scope(s, "loops");
  if (s.strategy() == Strategy::TensorCore) {
    validate_mma(s, ir, n_quadrature_points, max_shared_bytes);
  } else if (s.strategy() == Strategy::SingleCellPerWorkItem) {
    validate_scpwi(s, ir, max_shared_bytes);
  } else {
    validate_tiles(s.tiles(), ir, n_quadrature_points);
    require(shared_memory_bytes(s, ir) <= max_shared_bytes, "shared memory bytes", shared_memory_bytes(s, ir), "<=", max_shared_bytes,
            "prefetch buffer (Eq. 5) + e[N_c][T^Q][N_eval], with any shared DOF tiles and per-cell values");
  }
  // Every value in its scope: the strategies' own checks above refuse most with their
  // reasons (an mma kernel's list, lanes with dofs=shared); this is the rule twins follow.
  for (const ScheduleWord &w : schedule_words()) require_scope(s, w.key);
}

}  // namespace femgpu
