// The pieces the tiled kernel's phases share (build_tiled.cpp builds the kernel,
// build_tiled_evaluation.cpp its evaluation phase, build_tiled_quadrature.cpp its
// quadrature phase and scatter): the schedule's code variant, the names of the tile
// arrays, the cooperative prefetch and the loops over a work-item's rows.
//
// Takes: an ActionIR and the Variant of a tiled schedule. Returns: kernel AST blocks
// that read the names the kernel body declares (r_slot, r_item, r_cell, s_buf, s_e ...).
// Does not: declare sizes or check the schedule (build_tiled does).
#pragma once

#include <functional>
#include <string>

#include "ir/action_ir.h"
#include "kernel/kernel_ast.h"

namespace femgpu::kernel::tiled {

// The schedule's choices that change the tiled kernel's code (not its sizes).
struct Variant {
  bool shared = false;        // Dofs::Shared
  bool unroll = false;        // Loops::Unrolled
  bool interleaved = false;   // Tables::Interleaved
  bool alias = false;         // the shared DOF tiles live in s_e's words (dofs_alias_evaluations)
  bool cells_shared = false;  // CellValues::Shared
};

// The loop, marked for full unrolling when the schedule asks for it (Loops::Unrolled).
Stmt private_loop(bool unroll, Stmt for_loop);
// The block's top-level loops, marked likewise (a register gather's loop over its tile).
Block private_loops(bool unroll, Block b);
// r_row: the work-item's i_row-th row of a tile (rows are dealt round-robin over N_WI).
Stmt my_row();
// "_G<g>", the suffix of group g's sizes.
std::string G(int g);

// Entry (i, j) of derivative table d of a prefetched tile of n_tables tables with rows
// of `stride` words: tables one after another (tile_words apart), or with
// Tables::Interleaved a point's n_tables derivatives side by side, so the unrolled
// loops' reads of an even number of them pair into 16-byte loads.
Ex tile_word(bool interleaved, int n_tables, const Ex &tile_words, const Ex &stride, const Ex &i, const Ex &j, int d);
// r_acc_g<g>_t<t>: the work-item's rows of evaluation term t of group g.
std::string acc_name(int g, int t);
// Cooperative copy of a rows x cols tile: the group's work-items stride over its
// entries; copy(i, j) stores entry (i, j).
Block prefetch(const std::string &rounds, const Ex &rows, const Ex &cols, const std::function<Block(Ex, Ex)> &copy);
// Per-cell value i of this cell (CellValues::Shared).
Ex cell_value(int i);
// s_<f>_tile (Dofs::Shared) or r_<f>_tile: a column tile of function f's DOFs.
std::string tile_name(int f, bool shared);
// Entry i of this cell's column tile of function f.
Ex tile_entry(int f, bool shared, const Ex &i);

// For the quadrature tile i_quad_tile: every group evaluated at the points of each row
// tile, and the pointwise program's e_j stored into s_e.
Block evaluation_phase(const ActionIR &ir, const Variant &v);
// For the same quadrature tile: r_out = Psi e for each row tile of test functions,
// then the atomic scatter of r_out.
Block quadrature_phase(const ActionIR &ir, const Variant &v);

}  // namespace femgpu::kernel::tiled
