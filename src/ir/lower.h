// Lowering a form to the action IR.
//
// Takes: a Form (bilinear: linear in v and u; or a residual with rank 1: linear in v
// and free of u), optionally a quadrature degree that overrides the estimate, and which
// of its integrals to lower: the cell integrals (dx, the default), or the exterior facet
// integrals of one ds domain on one local facet f of the reference cell (a ds integral
// is, cell by cell, a cell integral on the rule of facet f with the surface factor
// |K^T n_f|: the same IR, tables and kernels serve it; src/petsc runs it on the cells
// whose facet f is on that boundary).
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
  IntegralDomain domain;                    // dx, or ds / ds(i) (then facet >= 0)
  int facet = -1;                           // the local facet of a ds domain
};

ActionIR lower_form(const Form &form, const LowerOptions &options = {});

// Whether every integral of the form is identically zero once scalarized (its
// derivative with respect to every test term is the constant 0): a zero block of a
// mixed form (mixed_blocks.h), e.g. the (p, q) block of Stokes. Throws FormError as
// lowering does for what cannot be scalarized.
bool is_zero_form(const Form &form);

}  // namespace femgpu
