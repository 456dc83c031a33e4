// Which pointwise values vary between quadrature points, which per-cell values the
// kernels recompute at the points, and which they hold across the loops
// (pointwise_marks.h, action_ir.h's held_cell_values).
#include "ir/pointwise_marks.h"

#include <vector>

namespace femgpu {

void mark_varying(Pointwise &pw)
{
  const Program &p = pw.program;
  pw.varies.assign(static_cast<size_t>(p.size()), 0);
  for (int id = 0; id < p.size(); ++id) {
    const SNode &n = p.node(id);
    char v = 0;
    if (n.op == SOp::Input) {
      InputKind k = p.inputs()[static_cast<size_t>(n.input)].kind;
      v = k == InputKind::Eval || k == InputKind::Weight;
    }
    for (int o : {n.a, n.b, n.c})
      if (o >= 0) v |= pw.varies[static_cast<size_t>(o)];
    pw.varies[static_cast<size_t>(id)] = v;
  }
}

// Per-cell values live in registers across the evaluation and quadrature loops. One that
// is a cheap operation on per-cell values the point code reads anyway (0.5 * K_ij in
// sym(grad u)) costs a register (two in FP64) to save one FLOP per point; recomputing it
// instead frees the register and keeps no other value alive. Elasticity 3D P4's tiled
// kernel held 30 such doubles: ptxas 128 -> 96 registers with them out of the way.
void mark_recomputed(Pointwise &pw)
{
  const Program &p = pw.program;
  pw.recomputed.assign(static_cast<size_t>(p.size()), 0);
  auto cheap = [&](int id) { SOp op = p.node(id).op; return op == SOp::Add || op == SOp::Mul || op == SOp::Neg; };
  for (bool changed = true; changed;) {
    changed = false;
    std::vector<char> held(static_cast<size_t>(p.size()), 0);
    for (int id : held_cell_values(pw)) held[static_cast<size_t>(id)] = 1;
    for (int id = p.size() - 1; id >= 0; --id) {
      const SNode &x = p.node(id);
      if (!held[static_cast<size_t>(id)] || !cheap(id)) continue;
      bool free = true;
      for (int o : {x.a, x.b, x.c})
        if (o >= 0 && !p.is_const(o) && !held[static_cast<size_t>(o)]) free = false;
      if (free) {
        pw.recomputed[static_cast<size_t>(id)] = 1;
        changed = true;
      }
    }
  }
}

std::vector<int> held_cell_values(const Pointwise &pw)
{
  const Program &p = pw.program;
  auto at_points = [&](int id) { return pw.varies[static_cast<size_t>(id)] || (!pw.recomputed.empty() && pw.recomputed[static_cast<size_t>(id)]); };
  std::vector<char> held(static_cast<size_t>(p.size()), 0);
  auto read = [&](int o) {
    if (o >= 0 && !at_points(o) && !p.is_const(o)) held[static_cast<size_t>(o)] = 1;
  };
  for (int id = 0; id < p.size(); ++id)
    if (at_points(id))
      for (int o : {p.node(id).a, p.node(id).b, p.node(id).c}) read(o);
  for (int o : pw.outputs) read(o);
  std::vector<int> ids;
  for (int id = 0; id < p.size(); ++id)
    if (held[static_cast<size_t>(id)]) ids.push_back(id);
  return ids;
}

}  // namespace femgpu
