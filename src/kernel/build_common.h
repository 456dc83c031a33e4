// Pieces both strategies share: compile-time sizes, parameters, gathers, the affine
// Jacobian and the pointwise program as straight-line SSA.
//
// Takes: an ActionIR and its Tabulation. Returns: kernel AST fragments.
// Does not: decide loop structure; build_scpwi.cpp and build_tiled.cpp do.
#pragma once

#include <functional>
#include <string>

#include "fem/action_tables.h"
#include "ir/action_ir.h"
#include "kernel/kernel_abi.h"
#include "kernel/kernel_ast.h"

namespace femgpu::kernel {

Ex size(const std::string &name);  // a compile-time constant (UPPER_CASE)
std::string upper(const std::string &s);

// DIM, N_QUAD, N_TEST_BASIS, N_COMPONENTS, N_TEST_DOFS, N_EVAL, N_DOFS_<STEM>,
// N_BASIS_G<g> and the table offsets OFFSET_G<g>_D<k>, OFFSET_TEST_D<k>.
// merge_tables: the OFFSET_* defines of pack_tables(ir, tab, merge_tables).
void declare_common_sizes(Kernel &k, const ActionIR &ir, const Tabulation &tab, bool merge_tables = false);
std::vector<Param> action_params(const ActionIR &ir);  // params_of(kernel_arguments(ir))
std::vector<Param> params_of(const std::vector<KernelArg> &arguments);

Ex group_table(int group, int derivative);  // OFFSET_G<g>_D<k>
Ex test_table(int derivative);              // OFFSET_TEST_D<k>

// r_<local>[count] = function's map-row entries first .. first+count-1 of `cell`; entries
// at or past `valid`, negative map entries and inactive cells read as zero.
Block gather(const ActionIR &ir, int function, const std::string &local, const Ex &cell, const Ex &active,
             const Ex &first, const Ex &count, const Ex &valid);
// The same entries, entry i stored to slot(i) (an lvalue) instead of a new register array.
Block gather_to(const ActionIR &ir, int function, const std::function<Ex(const Ex &)> &slot, const Ex &cell, const Ex &active,
                const Ex &first, const Ex &count, const Ex &valid);

// const r_J_<i>_<k> from r_coords and the P1 reference gradients (affine forms only).
Block affine_jacobian(const ActionIR &ir, const Tabulation &tab);

// Declarations of the program nodes that vary per quadrature point (varying) or not.
// eval(input) gives the value of an Eval input; weight the quadrature weight.
// reciprocals: a divisor shared by several divisions (det J) is inverted once and the
// divisions become products (build_common.cpp's division_counts).
Block pointwise(const ActionIR &ir, bool varying, const std::function<Ex(int)> &eval, const Ex &weight, bool reciprocals = true);
Ex node_value(const Program &p, int id);  // literal for constants, else r_t<id>

// One-cell-per-work-item builders (SCPWI, diagonal) keep each evaluated term of a group
// in a register r_e_g<group>_t<term>; at point i_quad they run evaluate_group for every
// group and then the varying pointwise nodes on those registers.
std::string eval_register(int group, int term);
Block evaluate_and_map(const ActionIR &ir, const std::function<Block(int)> &evaluate_group);
// The varying pointwise nodes at point i_quad, on the r_e_g<group>_t<term> registers.
Block pointwise_at_point(const ActionIR &ir);

// The sum of the pointwise outputs e_j whose test term is (component, derivative); a
// null Ex (no node) where no test term is.
Ex test_term_sum(const ActionIR &ir, int component, int derivative);
// <dof> = g_test_map's entry `entry` of `cell`; where it is not negative (a constrained
// DOF), g_out[<dof>] += value, atomically: other cells may share the DOF. With
// OwnDofs::Plain, a plain add where the entry is one of the cell's own (owned_test_dofs).
Block add_to_test_dof(const Ex &cell, const Ex &entry, const Ex &value, const std::string &dof = "r_dof", OwnDofs own = OwnDofs::Atomic);
// The same add where the test DOF `dof` (a map entry, negative: none) is already known.
Block add_to_dof(const Ex &dof, const Ex &value, const std::string &name = "r_dof");

// A cell's own DOFs: its interior nodes, first in PetscFE's basis order, so test entries
// below N_OWNED_TEST_DOFS (owned_test_dofs). No other cell adds to them, and an SCPWI
// kernel adds to a cell's entry from one work-item, once a launch, so with OwnDofs::Plain
// (schedule.h) they get a plain add.
int owned_test_dofs(const ActionIR &ir);

// A group's work-items sweeping `total` entries, consecutive work-items on consecutive
// entries: for round < rounds, index = round * stride + thread, body where index < total.
Stmt strided(const std::string &round, const Ex &rounds, const Ex &stride, const Ex &thread, const Ex &total, const std::string &index,
             Block body);
// The schedule's OwnDofs where the element has own DOFs, else OwnDofs::Atomic: an
// own=plain schedule of an element without them builds the atomic kernel, byte for byte.
OwnDofs own_dofs_of(const ActionIR &ir, const Schedule &schedule);

// What every action kernel starts with: the name femgpu_action, the schedule's text and
// precision, the common sizes (declare_common_sizes) and the parameters (action_params).
Kernel begin_action_kernel(const ActionIR &ir, const Tabulation &tab, const Schedule &schedule, bool merge_tables = false);

// What every SCPWI kernel (build_scpwi, build_scpwi_lanes) starts with: name, schedule,
// precision, the common sizes and WORK_GROUP_SIZE, parameters, launch shape (wg*lanes
// work-items, wg cells per group) and, for constant tables, c_tables. Returns the name
// of the array the kernel reads its tables from (g_tables or c_tables).
std::string begin_scpwi_kernel(Kernel &k, const ActionIR &ir, const Tabulation &tab, const Schedule &schedule);

// The schedule's Scatter: with Scatter::Warp, every atomic add of the body (an action
// kernel's only atomics are its output scatter) becomes warp-aggregated.
void apply_scatter(Kernel &k, const Schedule &schedule);

}  // namespace femgpu::kernel
