// The form-level Gateaux derivative: derivative(F, w, du) of the integrals that depend on
// w. The derivative itself stays symbolic (an Op::Derivative node per integral, taken by
// src/ir/scalarize.cpp); here only which integrals have one.
#include <algorithm>
#include <map>
#include <unordered_set>

#include "form/form.h"

namespace femgpu {

namespace {

// Whether the derivative of n follows its operand k: the rules of src/ir/derivative.cpp,
// where a condition and sign() have derivative zero and a select differentiates its
// branches only; an inner derivative(g, w2, du) depends on g and du, not on its slot w2.
bool derivative_follows(const Node &n, size_t k)
{
  switch (n.op) {
    case Op::Condition: return false;
    case Op::Conditional: return k > 0;
    case Op::MathFunction: return n.name != "sign";
    case Op::Derivative: return k != 1;
    default: return true;
  }
}

}  // namespace

bool depends_on(const Expr &f, const Expr &w)
{
  if (w->op != Op::Coefficient) throw FormError("depends_on(f, w) needs w to be a Coefficient");
  std::unordered_set<const Node *> seen;
  std::vector<const Node *> todo{f.get()};  // iterative: a deep DAG cannot overflow the stack
  while (!todo.empty()) {
    const Node *n = todo.back();
    todo.pop_back();
    if (!seen.insert(n).second) continue;
    if (n->op == Op::Coefficient && n->index == w->index) return true;
    for (size_t k = 0; k < n->operands.size(); ++k)
      if (derivative_follows(*n, k)) todo.push_back(n->operands[k].get());
  }
  return false;
}

std::vector<Integral> derivative(const std::vector<Integral> &F, const Expr &w, const Expr &du)
{
  // Lowering takes one rule per domain, the largest degree given in it: keep that rule
  // when the integral that gave it is left out.
  std::map<IntegralDomain, int> given_degree;
  for (const Integral &i : F)
    if (i.quadrature_degree) given_degree[i.domain] = std::max(given_degree[i.domain], *i.quadrature_degree);
  std::vector<Integral> out;
  for (Integral i : F) {
    if (!depends_on(i.integrand, w)) continue;
    i.integrand = femgpu::derivative(i.integrand, w, du);
    if (auto it = given_degree.find(i.domain); it != given_degree.end()) i.quadrature_degree = it->second;
    out.push_back(i);
  }
  return out;
}

}  // namespace femgpu
