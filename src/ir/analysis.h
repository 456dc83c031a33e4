// Analyses of SSA programs used by lowering: how a value depends on a set of inputs
// (to check that a form is linear where it must be) and UFL-style polynomial degree
// estimation (to pick the quadrature degree).
#pragma once

#include <functional>
#include <map>
#include <vector>

#include "ir/program.h"

namespace femgpu {

// How a value depends on some inputs t: identically zero, independent of t,
// homogeneous linear in t, affine in t, or nonlinear.
enum class Dependence { Zero, Independent, Linear, Affine, Nonlinear };

// For all nodes 0..root: the dependence on the inputs for which `is_target` is true.
std::vector<Dependence> dependence(const Program &p, int root, const std::function<bool(const InputRef &)> &is_target);

// Estimated polynomial degree of every node 0..root (UFL's sum-of-degrees rules:
// products add, sums take the max, nonpolynomial functions add 2). `input_degree`
// gives each input's degree; `fixed` overrides nodes (geometry terms such as K).
std::vector<long long> estimate_degrees(const Program &p, int root,
                                        const std::function<long long(const InputRef &)> &input_degree,
                                        const std::map<int, long long> &fixed);

}  // namespace femgpu
