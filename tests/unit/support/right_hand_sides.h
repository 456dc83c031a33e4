// Right-hand-side forms L(v) as rank-1 forms (F = -L, what a form file with L alone
// gives): kernels with no trial function and no coefficient. One reads x and a constant
// (its only evaluation group is the coordinates), one only a constant (no group at all),
// one is a vector load.
#pragma once

#include "action_cases.h"

namespace femgpu::test {

inline std::vector<FormCase> right_hand_side_cases()
{
  return {
      {"L = c (1 + x0 x1) v", 1, 1, 1,
       [](FormBuilder &b) {
         Expr x0 = indexed(b.x(), {0}), x1 = indexed(b.x(), {1});
         Expr f = mul(b.constant("c", 1.5), add(literal(1.0), mul(x0, x1)));
         return one(negate(mul(f, b.test_function())));
       }},
      {"L = c v", 1, 1, 1, [](FormBuilder &b) { return one(negate(mul(b.constant("c", 2.0), b.test_function()))); }},
      {"L = f(x) . v", 0, 1, 1,
       [](FormBuilder &b) {
         std::vector<Expr> f;
         for (int i = 0; i < b.dim(); ++i) f.push_back(mul(literal(i + 1.0), indexed(b.x(), {(i + 1) % b.dim()})));
         return one(negate(dot(as_vector(f), b.test_function())));
       }},
  };
}

}  // namespace femgpu::test
