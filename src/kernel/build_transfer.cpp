// Transfer kernels (build_transfer.h): one work-item per (cell, output DOF of the cell).
//
// Each work-item owns one sum and adds it with one atomic: the table is small (at most
// a few hundred entries, read by every cell alike, so it stays in cache), and a transfer
// runs twice per multigrid level and cycle, far less often than the operator, so the
// simplest parallelisation that reads each input once per cell is enough.
#include "kernel/build_transfer.h"

#include <algorithm>
#include <stdexcept>

#include "kernel/build_common.h"

namespace femgpu::kernel {

namespace {

constexpr int kThreadsPerGroup = 128;

Param pointer(const std::string &name, Type type, bool written = false) { return {name, type, true, written}; }

// The value an input map entry points at, or 0 for a negative entry.
Ex read_input(const Ex &index) { return select(index >= lit(0), var("g_in")[select(index >= lit(0), index, lit(0))], real_lit(0.0)); }

// Forward: the row DOF r_local (basis r_basis, component r_component) of cell r_cell.
Block forward_body()
{
  const Ex cell = var("r_cell"), zero = lit(0);
  const Ex col = var("g_col_map")[cell * size("N_COL_DOFS") + var("i_col") * size("N_COMPONENTS") + var("r_component")];
  Block sum{declare(Space::Register, Type::Int, "r_col", col),
            accumulate(var("r_sum"), var("g_table")[var("r_basis") * size("N_COL_BASIS") + var("i_col")] * read_input(var("r_col")))};
  return {declare(Space::Register, Type::Int, "r_row", var("g_row_map")[cell * size("N_ROW_DOFS") + var("r_local")]),
          if_then(var("r_row") >= zero,
                  {declare(Space::Register, Type::Real, "r_sum", real_lit(0.0), false), loop("i_col", zero, size("N_COL_BASIS"), sum),
                   atomic_add(address_of(var("g_out")[var("r_row")]), var("g_row_weight")[var("r_row")] * var("r_sum"))})};
}

// Transpose: the column DOF r_local (basis r_basis, component r_component) of cell r_cell.
Block transpose_body()
{
  const Ex cell = var("r_cell"), zero = lit(0);
  const Ex row = var("g_row_map")[cell * size("N_ROW_DOFS") + var("i_row") * size("N_COMPONENTS") + var("r_component")];
  const Ex weighted = var("g_row_weight")[var("r_row")] * var("g_in")[var("r_row")];
  Block sum{declare(Space::Register, Type::Int, "r_row", row),
            if_then(var("r_row") >= zero,
                    {accumulate(var("r_sum"), var("g_table")[var("i_row") * size("N_COL_BASIS") + var("r_basis")] * weighted)})};
  return {declare(Space::Register, Type::Int, "r_col", var("g_col_map")[cell * size("N_COL_DOFS") + var("r_local")]),
          if_then(var("r_col") >= zero,
                  {declare(Space::Register, Type::Real, "r_sum", real_lit(0.0), false), loop("i_row", zero, size("N_ROW_BASIS"), sum),
                   atomic_add(address_of(var("g_out")[var("r_col")]), var("r_sum"))})};
}

}  // namespace

Kernel build_transfer(const TransferShape &shape, TransferDirection direction)
{
  if (shape.row_basis < 1 || shape.col_basis < 1 || shape.components < 1)
    throw std::invalid_argument("build_transfer: empty transfer table (" + std::to_string(shape.row_basis) + " x " +
                                std::to_string(shape.col_basis) + ", " + std::to_string(shape.components) + " components)");
  const bool forward = direction == TransferDirection::Forward;
  const int out_dofs = (forward ? shape.row_basis : shape.col_basis) * shape.components;
  Kernel k;
  k.name = "femgpu_transfer";
  k.schedule = forward ? "transfer, one work-item per (cell, row DOF)" : "transfer transpose, one work-item per (cell, column DOF)";
  k.precision = Precision::FP64;
  k.block_x = std::min(out_dofs, kThreadsPerGroup);
  k.block_y = std::max(1, kThreadsPerGroup / k.block_x);
  k.cells_per_group = k.block_y;
  k.sizes = {{"N_ROW_BASIS", shape.row_basis},
             {"N_COL_BASIS", shape.col_basis},
             {"N_COMPONENTS", shape.components},
             {"N_ROW_DOFS", shape.row_basis * shape.components},
             {"N_COL_DOFS", shape.col_basis * shape.components},
             {"N_OUT_DOFS", out_dofs},
             {"BLOCK_X", k.block_x},
             {"N_PASSES", (out_dofs + k.block_x - 1) / k.block_x},
             {"CELLS_PER_GROUP", k.cells_per_group}};
  k.params = {{"n_cells", Type::Int, false, false},   pointer("g_table", Type::Real),      pointer("g_row_map", Type::Int),
              pointer("g_col_map", Type::Int),        pointer("g_row_weight", Type::Real), pointer("g_in", Type::Real),
              pointer("g_out", Type::Real, true)};
  const Ex local = var("r_local");
  Block dof{declare(Space::Register, Type::Int, "r_basis", local / size("N_COMPONENTS")),
            declare(Space::Register, Type::Int, "r_component", local % size("N_COMPONENTS"))};
  const Block body = forward ? forward_body() : transpose_body();
  dof.insert(dof.end(), body.begin(), body.end());
  const Ex cell = size("CELLS_PER_GROUP") * builtin(Builtin::GroupX) + builtin(Builtin::LocalY);
  k.body = {declare(Space::Register, Type::Int, "r_cell", cell),
            if_then(var("r_cell") < var("n_cells"),
                    {loop("i_pass", lit(0), size("N_PASSES"),
                          {declare(Space::Register, Type::Int, "r_local", var("i_pass") * size("BLOCK_X") + builtin(Builtin::LocalX)),
                           if_then(local < size("N_OUT_DOFS"), dof)})})};
  return k;
}

}  // namespace femgpu::kernel
