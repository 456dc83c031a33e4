// unrolled_size (kernel_size.h): a walk of the AST.
#include "kernel/kernel_size.h"

#include <optional>

namespace femgpu::kernel {

namespace {

using Sizes = std::vector<std::pair<std::string, long long>>;

double nodes(const Ex &e)
{
  if (!e.node) return 0;
  double n = 1;
  for (const Ex &a : e.node->args) n += nodes(a);
  return n;
}

// An integer bound: a literal, a compile-time size, or +, -, * of those.
std::optional<long long> constant(const Ex &e, const Sizes &sizes)
{
  if (!e.node) return std::nullopt;
  const ExprNode &n = *e.node;
  if (n.kind == ExprNode::IntLit) return n.int_value;
  if (n.kind == ExprNode::Var) {
    for (const auto &[name, value] : sizes)
      if (name == n.text) return value;
    return std::nullopt;
  }
  if (n.kind != ExprNode::Binary || n.args.size() != 2) return std::nullopt;
  const auto a = constant(n.args[0], sizes), b = constant(n.args[1], sizes);
  if (!a || !b) return std::nullopt;
  if (n.text == "+") return *a + *b;
  if (n.text == "-") return *a - *b;
  if (n.text == "*") return *a * *b;
  return std::nullopt;
}

double block_size(const Block &block, const Sizes &sizes);

bool holds_loop(const Block &block)
{
  for (const Stmt &s : block)
    if (s.kind == Stmt::For || holds_loop(s.body)) return true;
  return false;
}

// Whether nvcc compiles the loop unrolled: where it is marked, and where it holds no other
// loop, as nvcc does on its own with constant trip counts (kernel_size.h says what that
// cost when it was left out).
bool compiled_unrolled(const Stmt &s) { return s.unroll || !holds_loop(s.body); }

double statement_size(const Stmt &s, const Sizes &sizes)
{
  double own = 1 + nodes(s.size) + nodes(s.alias) + nodes(s.target) + nodes(s.value) + nodes(s.cond) + nodes(s.lo) + nodes(s.hi);
  for (const Ex &e : s.operands) own += nodes(e);
  const double body = block_size(s.body, sizes);
  double trips = 1;
  if (s.kind == Stmt::For && compiled_unrolled(s)) {
    const auto lo = constant(s.lo, sizes), hi = constant(s.hi, sizes);
    if (lo && hi && *hi > *lo) trips = static_cast<double>(*hi - *lo);
  }
  return own + trips * body;
}

double block_size(const Block &block, const Sizes &sizes)
{
  double n = 0;
  for (const Stmt &s : block) n += statement_size(s, sizes);
  return n;
}

}  // namespace

double unrolled_size(const Kernel &k) { return block_size(k.body, k.sizes); }

}  // namespace femgpu::kernel
