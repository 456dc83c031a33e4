// Derivative rules for each SSA operation (chain rule, one node at a time).
#include "ir/derivative.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "form/expr.h"

namespace femgpu {

int ForwardDerivative::operator()(int target)
{
  if (auto it = memo_.find(target); it != memo_.end()) return it->second;
  // Collect the not-yet-differentiated nodes below target; ids are topological.
  std::vector<int> todo, stack{target};
  std::vector<char> seen(static_cast<size_t>(p_.size()), 0);
  while (!stack.empty()) {
    int id = stack.back();
    stack.pop_back();
    if (id < 0 || seen[static_cast<size_t>(id)] || memo_.count(id)) continue;
    seen[static_cast<size_t>(id)] = 1;
    todo.push_back(id);
    const SNode &n = p_.node(id);
    for (int op : {n.a, n.b, n.c})
      if (op >= 0) stack.push_back(op);
  }
  std::sort(todo.begin(), todo.end());
  for (int id : todo) memo_[id] = rule(id);
  return memo_.at(target);
}

int ForwardDerivative::rule(int id)
{
  const SNode n = p_.node(id);  // copy: the program grows while we work
  if (n.op == SOp::Input || n.op == SOp::Ident) {
    if (auto s = seed_(id)) return *s;
    return n.op == SOp::Ident ? memo_.at(n.a) : p_.zero();
  }
  if (n.op == SOp::Const || is_condition(n.op) || n.op == SOp::Sign) return p_.zero();
  const int a = n.a, b = n.b;
  const int da = memo_.at(a);
  const int db = b >= 0 ? memo_.at(b) : -1;
  Program &p = p_;
  auto c = [&](double v) { return p.constant(v); };
  switch (n.op) {
    case SOp::Add: return p.add(da, db);
    case SOp::Neg: return p.neg(da);
    case SOp::Mul: return p.add(p.mul(da, b), p.mul(a, db));
    case SOp::Div:  // (da - (a/b) db) / b
      return p.div(p.sub(da, p.mul(id, db)), b);
    case SOp::Pow:
      if (p.is_const(b)) {
        double e = p.node(b).value;
        return p.mul(p.mul(c(e), p.pow(a, c(e - 1.0))), da);
      }
      // a^b (db ln a + b da / a)
      return p.mul(id, p.add(p.mul(db, p.unary(SOp::Log, a)), p.div(p.mul(b, da), a)));
    case SOp::Sqrt: return p.div(da, p.mul(c(2.0), id));
    case SOp::Exp: return p.mul(id, da);
    case SOp::Log: return p.div(da, a);
    case SOp::Abs: return p.mul(p.unary(SOp::Sign, a), da);
    case SOp::Sin: return p.mul(p.unary(SOp::Cos, a), da);
    case SOp::Cos: return p.neg(p.mul(p.unary(SOp::Sin, a), da));
    case SOp::Tan: return p.mul(p.add(c(1.0), p.mul(id, id)), da);
    case SOp::Asin: return p.div(da, p.unary(SOp::Sqrt, p.sub(c(1.0), p.mul(a, a))));
    case SOp::Acos: return p.neg(p.div(da, p.unary(SOp::Sqrt, p.sub(c(1.0), p.mul(a, a)))));
    case SOp::Atan: return p.div(da, p.add(c(1.0), p.mul(a, a)));
    case SOp::Sinh: return p.mul(p.unary(SOp::Cosh, a), da);
    case SOp::Cosh: return p.mul(p.unary(SOp::Sinh, a), da);
    case SOp::Tanh: return p.mul(p.sub(c(1.0), p.mul(id, id)), da);
    case SOp::Erf:
      return p.mul(p.mul(c(2.0 / std::sqrt(M_PI)), p.unary(SOp::Exp, p.neg(p.mul(a, a)))), da);
    case SOp::Min: return p.select(p.binary(SOp::Lt, a, b), da, db);
    case SOp::Max: return p.select(p.binary(SOp::Gt, a, b), da, db);
    case SOp::Select: return p.select(a, db, memo_.at(n.c));
    default: throw FormError(std::string("cannot differentiate ") + sop_name(n.op));
  }
}

}  // namespace femgpu
