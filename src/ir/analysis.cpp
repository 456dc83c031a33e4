// Dependence lattice and degree estimation, one pass in topological order each.
#include "ir/analysis.h"

#include <algorithm>

namespace femgpu {

namespace {

using D = Dependence;

bool depends(D d) { return d == D::Linear || d == D::Affine || d == D::Nonlinear; }

D add_dep(D a, D b)
{
  if (a == D::Nonlinear || b == D::Nonlinear) return D::Nonlinear;
  if (a == D::Zero) return b;
  if (b == D::Zero) return a;
  if (a == b) return a;  // Independent+Independent, Linear+Linear, Affine+Affine
  return D::Affine;      // a linear part plus an independent or affine part
}

D mul_dep(D a, D b)
{
  if (a == D::Zero || b == D::Zero) return D::Zero;
  if (a == D::Independent) return b;
  if (b == D::Independent) return a;
  return D::Nonlinear;
}

// Either branch of a select, chosen by an independent condition.
D join_dep(D a, D b)
{
  if (a == D::Nonlinear || b == D::Nonlinear) return D::Nonlinear;
  if (a == D::Zero) return b == D::Zero ? D::Zero : b;
  if (b == D::Zero) return a;
  if (a == b) return a;
  return D::Affine;
}

}  // namespace

std::vector<Dependence> dependence(const Program &p, int root, const std::function<bool(const InputRef &)> &is_target)
{
  std::vector<D> dep(static_cast<size_t>(root + 1), D::Independent);
  for (int id = 0; id <= root; ++id) {
    const SNode &n = p.node(id);
    auto at = [&](int k) { return dep[static_cast<size_t>(k)]; };
    D r = D::Independent;
    switch (n.op) {
      case SOp::Const: r = n.value == 0.0 ? D::Zero : D::Independent; break;
      case SOp::Input: r = is_target(p.inputs()[static_cast<size_t>(n.input)]) ? D::Linear : D::Independent; break;
      case SOp::Ident: case SOp::Neg: r = at(n.a); break;
      case SOp::Add: r = add_dep(at(n.a), at(n.b)); break;
      case SOp::Mul: r = mul_dep(at(n.a), at(n.b)); break;
      case SOp::Div: r = depends(at(n.b)) ? D::Nonlinear : at(n.a); break;
      case SOp::Select:
        r = depends(at(n.a)) ? D::Nonlinear : join_dep(at(n.b), at(n.c));
        break;
      default: {  // functions, powers, min/max, conditions: nonlinear unless independent
        bool any = depends(at(n.a)) || (n.b >= 0 && depends(at(n.b)));
        r = any ? D::Nonlinear : D::Independent;
      }
    }
    dep[static_cast<size_t>(id)] = r;
  }
  return dep;
}

std::vector<long long> estimate_degrees(const Program &p, int root,
                                        const std::function<long long(const InputRef &)> &input_degree,
                                        const std::map<int, long long> &fixed)
{
  const long long cap = 1000000;  // saturate: absurd degrees are rejected by the caller
  std::vector<long long> deg(static_cast<size_t>(root + 1), 0);
  for (int id = 0; id <= root; ++id) {
    auto at = [&](int k) { return deg[static_cast<size_t>(k)]; };
    const SNode &n = p.node(id);
    long long r = 0;
    if (auto it = fixed.find(id); it != fixed.end()) {
      r = it->second;
    } else {
      switch (n.op) {
        case SOp::Const: r = 0; break;
        case SOp::Input: r = input_degree(p.inputs()[static_cast<size_t>(n.input)]); break;
        case SOp::Ident: case SOp::Neg: case SOp::Abs: r = at(n.a); break;
        case SOp::Add: case SOp::Min: case SOp::Max: r = std::max(at(n.a), at(n.b)); break;
        case SOp::Mul: case SOp::Div: r = at(n.a) + at(n.b); break;
        case SOp::Select: r = std::max(at(n.b), at(n.c)); break;
        case SOp::Sign: r = 0; break;
        case SOp::Pow: {
          const SNode &e = p.node(n.b);
          bool integer = e.op == SOp::Const && e.value >= 0 && e.value == static_cast<long long>(e.value) && e.value < cap;
          r = integer ? at(n.a) * static_cast<long long>(e.value) : std::max(at(n.a), at(n.b)) + 2;
          break;
        }
        default:
          if (is_condition(n.op)) r = 0;
          else r = at(n.a) > 0 ? at(n.a) + 2 : 0;  // sqrt, exp, ...
      }
    }
    deg[static_cast<size_t>(id)] = std::min(r, cap);
  }
  return deg;
}

}  // namespace femgpu
