// Lowering a form to the action IR.
//
// Takes: a Form (bilinear: linear in v and u; or a residual with rank 1: linear in v
// and free of u), optionally a quadrature degree that overrides the estimate.
// Returns: ActionIR. Throws FormError when the form is not linear where it must be,
// has a term without v, or needs what femgpu does not support.
// Does not: tabulate elements (fem/action_tables.h) or choose a schedule.
#pragma once

#include <optional>

#include "ir/action_ir.h"

namespace femgpu {

struct LowerOptions {
  int rank = 2;                             // 2: bilinear, 1: residual
  std::optional<int> quadrature_degree;     // overrides every integral's degree
  int max_quadrature_degree = 40;
};

ActionIR lower_form(const Form &form, const LowerOptions &options = {});

}  // namespace femgpu
