// The names of a time-dependent residual and its IJacobian (time_dependent.h).
#include "form/time_dependent.h"

#include <unordered_set>

namespace femgpu {

std::string time_derivative_of(const std::string &name)
{
  const std::string suffix = kTimeDerivativeSuffix;
  if (name.size() <= suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) return "";
  return name.substr(0, name.size() - suffix.size());
}

bool is_time_derivative(const std::string &name, const std::vector<CoefficientInfo> &coefficients, const Element &element)
{
  const std::string of = time_derivative_of(name);
  if (of.empty()) return false;
  bool rate_here = false, unknown_here = false;
  for (const CoefficientInfo &c : coefficients) {
    rate_here = rate_here || (c.name == name && c.element == element);
    unknown_here = unknown_here || (c.name == of && c.element == element);
  }
  return rate_here && unknown_here;
}

std::vector<Integral> time_dependent_jacobian(const std::vector<Integral> &F, const Expr &w, const Expr &w_t, const Expr &shift,
                                              const Expr &du)
{
  std::vector<Integral> a = derivative(F, w, du);
  for (Integral i : derivative(F, w_t, du)) {
    i.integrand = mul(shift, i.integrand);
    a.push_back(i);
  }
  return a;
}

bool uses_constant(const Form &form, const std::string &name)
{
  std::unordered_set<const Node *> seen;
  std::vector<const Node *> todo;
  for (const Integral &i : form.integrals) todo.push_back(i.integrand.get());
  while (!todo.empty()) {  // iterative: a deep DAG cannot overflow the stack
    const Node *n = todo.back();
    todo.pop_back();
    if (!seen.insert(n).second) continue;
    if (n->op == Op::Constant && n->name == name) return true;
    for (const Expr &operand : n->operands) todo.push_back(operand.get());
  }
  return false;
}

}  // namespace femgpu
