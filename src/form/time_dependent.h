// The names of a time-dependent residual F(t, w, w_t; v), as TS gives its values: the
// unknown w, its time derivative (a coefficient named after it with "_t": w_t of w), the
// time `t`, and TS's `shift` a of the IJacobian dF/dw + a dF/dw_t.
//
// Takes: a form's coefficient table (Form::coefficients) and the unknown's element.
// Returns: which coefficient is a time derivative, and the IJacobian's integrals.
// Does not: bind values (src/petsc/ does, from TS); a form without a w_t is a steady
// residual, whose Jacobian is dF/dw alone.
#pragma once

#include <string>
#include <vector>

#include "form/form.h"

namespace femgpu {

constexpr const char *kTimeDerivativeSuffix = "_t";  // w_t is the time derivative of w
constexpr const char *kTimeShiftName = "shift";      // TS's a in dF/dw + a dF/dw_t
constexpr const char *kTimeName = "t";               // the stage time

// Whether coefficient `name` is the time derivative of another in `element`: it is in
// that element, its name is <w>_t and the table has a coefficient <w> in that element too.
bool is_time_derivative(const std::string &name, const std::vector<CoefficientInfo> &coefficients, const Element &element);

// The coefficient `name` is the time derivative of ("" if none).
std::string time_derivative_of(const std::string &name);

// TS's IJacobian of F along du: derivative(F, w, du) + shift * derivative(F, w_t, du),
// integral by integral (derivative() of form.h; an integral free of w, or of w_t, has no
// term in that part). Empty when F depends on neither.
std::vector<Integral> time_dependent_jacobian(const std::vector<Integral> &F, const Expr &w, const Expr &w_t, const Expr &shift,
                                              const Expr &du);

// Whether an integrand of the form holds the constant `name` (not only its table).
bool uses_constant(const Form &form, const std::string &name);

}  // namespace femgpu
