// Marks on a lowered pointwise program that the kernels and FLOP counts read.
//
// Takes: a Pointwise whose program and outputs are final (lower.cpp).
// Returns: mark_varying fills Pointwise::varies (1 where a node depends on an evaluation or
// the quadrature weight); mark_recomputed fills Pointwise::recomputed (cheap per-cell
// values the point loop recomputes instead of holding them in registers).
// Does not: change the program.
#pragma once

#include "ir/action_ir.h"

namespace femgpu {

void mark_varying(Pointwise &pw);
void mark_recomputed(Pointwise &pw);  // after mark_varying

}  // namespace femgpu
