// Forward-mode differentiation of SSA nodes, the one mechanism behind grad, div,
// diff(f, variable) and derivative(F, w, du).
//
// Takes: a program, and a seed: for an Input or Ident node, the id of its derivative
// (or nullopt: Inputs then have derivative zero, Idents pass their operand's through).
// Returns: ids of derivative nodes, appended to the same program.
// Does not: recurse (works in topological order, so deep programs cannot overflow the stack).
#pragma once

#include <functional>
#include <optional>
#include <unordered_map>

#include "ir/program.h"

namespace femgpu {

class ForwardDerivative {
 public:
  using Seed = std::function<std::optional<int>(int node)>;
  ForwardDerivative(Program &program, Seed seed) : p_(program), seed_(std::move(seed)) {}
  int operator()(int node);

 private:
  int rule(int id);
  Program &p_;
  Seed seed_;
  std::unordered_map<int, int> memo_;
};

}  // namespace femgpu
