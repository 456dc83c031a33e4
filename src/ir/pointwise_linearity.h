// Whether a bilinear form's pointwise program is one linear map at every quadrature
// point: each output e_j = w * sum_i M_ji * (an evaluated derivative of the trial
// function), with w the point's weight and M_ji built only from what is the same at
// every point of a cell (the affine Jacobian, constants, literals).
//
// Takes: a lowered ActionIR.
// Returns: true for such forms on affine cells integrated over the cell (dx): mass,
// Laplace, Helmholtz, linear elasticity with constant parameters. False where anything
// varies between points other than the trial function's values (coordinates, coefficient
// functions), where the trial function enters nonlinearly (hyperelasticity's Jacobian
// reads the state), for residuals, curved cells and facet integrals.
// Does not: change the IR. fem/compressed_points.h uses the answer.
#pragma once

#include "ir/action_ir.h"

namespace femgpu {

bool same_linear_map_at_every_point(const ActionIR &ir);

}  // namespace femgpu
