// Forms written with the C++ API for tests: the same operators as the shipped .ufl
// files, so the two front ends can be checked against each other.
#pragma once

#include "form/form.h"

namespace femgpu::test {

// The paper's hyperelasticity residual (Appendix A): P(F) : grad v - b . v with
// F = I + grad w, E = (F^T F - I)/2, psi = lambda/2 tr(E)^2 + mu tr(E^2), S = dpsi/dE.
inline std::vector<Integral> hyperelastic_residual(FormBuilder &b)
{
  const int d = b.dim();
  Expr w = b.coefficient("w");
  Expr lambda = b.constant("lmbda", 1.0), mu = b.constant("mu", 0.5), B = b.constant("B", 0.1);
  Expr I = identity(d);
  Expr F = add(I, grad(w, d));
  Expr E = variable(divide(sub(mul(transpose(F), F), I), literal(2.0)));
  Expr psi = add(mul(divide(lambda, literal(2.0)), power(trace(E), literal(2.0))), mul(mu, trace(mul(E, E))));
  Expr P = mul(F, diff(psi, E));
  Expr body = mul(B, indexed(I, {0}));
  return {FormBuilder::integral(sub(inner(P, grad(b.test_function(), d)), dot(body, b.test_function())))};
}

// A scalar nonlinear diffusion residual with a conditional and a transcendental term.
inline std::vector<Integral> nonlinear_diffusion_residual(FormBuilder &b)
{
  const int d = b.dim();
  Expr w = b.coefficient("w");
  Expr k = add(literal(1.0), mul(w, w));
  Expr limiter = conditional(condition("gt", w, literal(0.0)), math_function("exp", w), add(literal(1.0), math_function("sin", w)));
  Expr v = b.test_function();
  return {FormBuilder::integral(add(mul(k, inner(grad(w, d), grad(v, d))), mul(limiter, v)))};
}

}  // namespace femgpu::test
