// The pieces the tiled kernel's phases share (build_tiled_parts.h).
#include "kernel/build_tiled_parts.h"

#include "kernel/build_common.h"

namespace femgpu::kernel::tiled {

Stmt private_loop(bool unroll, Stmt for_loop) { return unroll ? unrolled(std::move(for_loop)) : for_loop; }

Block private_loops(bool unroll, Block b)
{
  for (Stmt &s : b)
    if (s.kind == Stmt::For) s = private_loop(unroll, std::move(s));
  return b;
}

Stmt my_row() { return declare(Space::Register, Type::Int, "r_row", var("i_row") * size("N_WI") + var("r_item")); }

std::string G(int g) { return "_G" + std::to_string(g); }

Ex tile_word(bool interleaved, int n_tables, const Ex &tile_words, const Ex &stride, const Ex &i, const Ex &j, int d)
{
  if (interleaved) return (i * stride + j) * lit(n_tables) + lit(d);
  return lit(d) * tile_words + i * stride + j;
}

std::string acc_name(int g, int t) { return "r_acc_g" + std::to_string(g) + "_t" + std::to_string(t); }

Block prefetch(const std::string &rounds, const Ex &rows, const Ex &cols, const std::function<Block(Ex, Ex)> &copy)
{
  const Ex k = var("r_k");
  Block inner{declare(Space::Register, Type::Int, "r_i", k / cols), declare(Space::Register, Type::Int, "r_j", k % cols)};
  Block c = copy(var("r_i"), var("r_j"));
  inner.insert(inner.end(), c.begin(), c.end());
  return {strided("i_round", size(rounds), size("N_THREADS"), var("r_thread"), rows * cols, "r_k", inner)};
}

Ex cell_value(int i) { return var("s_cell")[var("r_slot") * size("CELL_STRIDE") + lit(i)]; }

std::string tile_name(int f, bool shared) { return (shared ? "s_" : "r_") + function_stem(f) + "_tile"; }

Ex tile_entry(int f, bool shared, const Ex &i)
{
  if (!shared) return var(tile_name(f, false))[i];
  return var(tile_name(f, true))[var("r_slot") * size("DOF_STRIDE_" + upper(function_stem(f))) + i];
}

}  // namespace femgpu::kernel::tiled
