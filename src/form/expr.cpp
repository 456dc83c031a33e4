// Expression builders: shape checking with UFL's rules, nothing else.
#include "form/expr.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <set>
#include <sstream>

namespace femgpu {

namespace {

Expr make(Op op, Shape shape, std::vector<Expr> operands = {})
{
  auto n = std::make_shared<Node>();
  n->op = op;
  n->shape = std::move(shape);
  n->operands = std::move(operands);
  return n;
}

[[noreturn]] void fail(const std::string &what) { throw FormError(what); }

void require_scalar(const Expr &a, const char *where)
{
  if (!is_scalar(a)) fail(std::string(where) + " needs a scalar, got shape " + shape_string(a->shape));
}

void require_square(const Expr &a, const char *where)
{
  if (rank(a) != 2 || a->shape[0] != a->shape[1])
    fail(std::string(where) + " needs a square matrix, got shape " + shape_string(a->shape));
}

bool is_literal(const Expr &a, double v) { return a->op == Op::Literal && a->value == v; }

}  // namespace

int rank(const Expr &e) { return static_cast<int>(e->shape.size()); }
bool is_scalar(const Expr &e) { return e->shape.empty(); }

std::string shape_string(const Shape &s)
{
  std::ostringstream os;
  os << "(";
  for (size_t i = 0; i < s.size(); ++i) os << (i ? ", " : "") << s[i];
  if (s.size() == 1) os << ",";
  os << ")";
  return os.str();
}

Expr argument(int number, const Shape &shape, const std::string &name)
{
  auto e = make(Op::Argument, shape);
  auto n = std::const_pointer_cast<Node>(e);
  n->index = number;
  n->name = name;
  return e;
}

Expr coefficient(int slot, const Shape &shape, const std::string &name)
{
  auto n = std::const_pointer_cast<Node>(make(Op::Coefficient, shape));
  n->index = slot;
  n->name = name;
  return n;
}

Expr constant(int slot, const std::string &name)
{
  auto n = std::const_pointer_cast<Node>(make(Op::Constant, {}));
  n->index = slot;
  n->name = name;
  return n;
}

Expr literal(double value)
{
  if (!std::isfinite(value)) fail("a literal must be a finite number");
  auto n = std::const_pointer_cast<Node>(make(Op::Literal, {}));
  n->value = value;
  return n;
}

Expr spatial_coordinate(int dim) { return make(Op::SpatialCoordinate, {dim}); }
Expr facet_normal(int dim) { return make(Op::FacetNormal, {dim}); }
Expr identity(int dim)
{
  if (dim < 1 || dim > 3) fail("Identity(d) needs 1 <= d <= 3, got " + std::to_string(dim));
  return make(Op::Identity, {dim, dim});
}

Expr add(const Expr &a, const Expr &b)
{
  if (a->shape != b->shape)
    fail("cannot add shapes " + shape_string(a->shape) + " and " + shape_string(b->shape));
  return make(Op::Sum, a->shape, {a, b});
}

Expr negate(const Expr &a) { return make(Op::Negate, a->shape, {a}); }
Expr sub(const Expr &a, const Expr &b)
{
  if (a->shape != b->shape)
    fail("cannot subtract shapes " + shape_string(b->shape) + " from " + shape_string(a->shape));
  return add(a, negate(b));
}

Expr mul(const Expr &a, const Expr &b)
{
  if (is_scalar(a) || is_scalar(b)) {
    Shape s = is_scalar(a) ? b->shape : a->shape;
    return make(Op::Product, s, {a, b});
  }
  // UFL: matrix-vector and matrix-matrix products mean dot(); others are errors.
  if (rank(a) == 2 && (rank(b) == 1 || rank(b) == 2)) return dot(a, b);
  fail("invalid ranks " + std::to_string(rank(a)) + " and " + std::to_string(rank(b)) +
       " in product (use inner, dot or outer)");
}

Expr divide(const Expr &a, const Expr &b)
{
  if (!is_scalar(b)) fail("division by a non-scalar of shape " + shape_string(b->shape));
  if (is_literal(b, 0.0)) fail("division by zero");
  return make(Op::Division, a->shape, {a, b});
}

Expr power(const Expr &a, const Expr &b)
{
  require_scalar(b, "the exponent of '**'");
  if (!is_scalar(a)) {
    // UFL squares a tensor as inner(a, a); other tensor powers are errors.
    if (is_literal(b, 2.0)) return inner(a, a);
    fail("cannot raise a tensor of shape " + shape_string(a->shape) + " to a power other than 2");
  }
  return make(Op::Power, {}, {a, b});
}

Expr inner(const Expr &a, const Expr &b)
{
  if (a->shape != b->shape)
    fail("inner() needs equal shapes, got " + shape_string(a->shape) + " and " + shape_string(b->shape));
  return make(Op::Inner, {}, {a, b});
}

Expr dot(const Expr &a, const Expr &b)
{
  if (is_scalar(a) && is_scalar(b)) return mul(a, b);
  if (is_scalar(a) || is_scalar(b)) fail("dot() of a scalar and a tensor; use '*'");
  if (a->shape.back() != b->shape.front())
    fail("dot() needs the last axis of " + shape_string(a->shape) + " to match the first of " +
         shape_string(b->shape));
  Shape s(a->shape.begin(), a->shape.end() - 1);
  s.insert(s.end(), b->shape.begin() + 1, b->shape.end());
  return make(Op::Dot, s, {a, b});
}

Expr outer(const Expr &a, const Expr &b)
{
  Shape s = a->shape;
  s.insert(s.end(), b->shape.begin(), b->shape.end());
  return make(Op::Outer, s, {a, b});
}

Expr cross(const Expr &a, const Expr &b)
{
  if (a->shape != Shape{3} || b->shape != Shape{3}) fail("cross() needs two vectors of length 3");
  return make(Op::Cross, {3}, {a, b});
}

Expr transpose(const Expr &a)
{
  if (rank(a) != 2) fail("transpose needs a matrix, got shape " + shape_string(a->shape));
  return make(Op::Transpose, {a->shape[1], a->shape[0]}, {a});
}

Expr trace(const Expr &a)
{
  require_square(a, "tr()");
  return make(Op::Trace, {}, {a});
}

Expr determinant(const Expr &a)
{
  if (is_scalar(a)) return a;
  require_square(a, "det()");
  if (a->shape[0] > 3) fail("det() is supported up to 3x3");
  return make(Op::Determinant, {}, {a});
}

Expr inverse(const Expr &a)
{
  if (is_scalar(a)) return divide(literal(1.0), a);
  require_square(a, "inv()");
  if (a->shape[0] > 3) fail("inv() is supported up to 3x3");
  return make(Op::Inverse, a->shape, {a});
}

Expr sym(const Expr &a) { require_square(a, "sym()"); return make(Op::Sym, a->shape, {a}); }
Expr skew(const Expr &a) { require_square(a, "skew()"); return make(Op::Skew, a->shape, {a}); }
Expr dev(const Expr &a) { require_square(a, "dev()"); return make(Op::Dev, a->shape, {a}); }

Expr indexed(const Expr &a, const std::vector<int> &indices)
{
  if (indices.empty()) fail("empty index");
  if (indices.size() > a->shape.size())
    fail("too many indices (" + std::to_string(indices.size()) + ") for shape " + shape_string(a->shape));
  for (size_t i = 0; i < indices.size(); ++i)
    if (indices[i] < 0 || indices[i] >= a->shape[i])
      fail("index " + std::to_string(indices[i]) + " out of range for axis " + std::to_string(i) +
           " of shape " + shape_string(a->shape));
  auto n = std::const_pointer_cast<Node>(
      make(Op::Indexed, Shape(a->shape.begin() + indices.size(), a->shape.end()), {a}));
  n->indices = indices;
  return n;
}

Expr as_vector(const std::vector<Expr> &components)
{
  if (components.empty()) fail("as_vector() of an empty list");
  for (const Expr &c : components)
    if (c->shape != components[0]->shape) fail("as_vector() components must have equal shapes");
  Shape s{static_cast<int>(components.size())};
  s.insert(s.end(), components[0]->shape.begin(), components[0]->shape.end());
  return make(Op::ListTensor, s, components);
}

Expr as_matrix(const std::vector<std::vector<Expr>> &rows)
{
  if (rows.empty()) fail("as_matrix() of an empty list");
  std::vector<Expr> built;
  for (const auto &r : rows) {
    if (r.size() != rows[0].size()) fail("as_matrix() rows must have equal lengths");
    for (const Expr &e : r) require_scalar(e, "as_matrix() entry");
    built.push_back(as_vector(r));
  }
  return as_vector(built);
}

Expr grad(const Expr &a, int dim)
{
  Shape s = a->shape;
  s.push_back(dim);
  return make(Op::Grad, s, {a});
}

Expr div(const Expr &a, int dim)
{
  if (is_scalar(a) || a->shape.back() != dim)
    fail("div() needs a tensor whose last axis has length " + std::to_string(dim) + ", got " +
         shape_string(a->shape));
  return make(Op::Div, Shape(a->shape.begin(), a->shape.end() - 1), {a});
}

Expr nabla_grad(const Expr &a, int dim)
{
  Shape s{dim};
  s.insert(s.end(), a->shape.begin(), a->shape.end());
  return make(Op::NablaGrad, s, {a});
}

Expr nabla_div(const Expr &a, int dim)
{
  if (is_scalar(a) || a->shape.front() != dim)
    fail("nabla_div() needs a tensor whose first axis has length " + std::to_string(dim));
  return make(Op::NablaDiv, Shape(a->shape.begin() + 1, a->shape.end()), {a});
}

Expr curl(const Expr &a, int dim)
{
  if (dim == 3 && a->shape == Shape{3}) return make(Op::Curl, {3}, {a});
  if (dim == 2 && a->shape == Shape{2}) return make(Op::Curl, {}, {a});
  if (dim == 2 && is_scalar(a)) return make(Op::Curl, {2}, {a});
  fail("curl() needs a vector of length d (or a scalar in 2D), got " + shape_string(a->shape));
}

bool is_math_function(const std::string &name)
{
  static const std::set<std::string> names = {"sqrt", "exp",  "ln",   "abs",  "sin",  "cos", "tan",
                                              "asin", "acos", "atan", "sinh", "cosh", "tanh", "erf",
                                              "sign"};
  return names.count(name) > 0;
}

Expr math_function(const std::string &name, const Expr &a)
{
  if (!is_math_function(name)) fail("unknown function '" + name + "'");
  require_scalar(a, (name + "()").c_str());
  auto n = std::const_pointer_cast<Node>(make(Op::MathFunction, {}, {a}));
  n->name = name;
  return n;
}

Expr min_value(const Expr &a, const Expr &b)
{
  require_scalar(a, "min_value()");
  require_scalar(b, "min_value()");
  return make(Op::MinValue, {}, {a, b});
}

Expr max_value(const Expr &a, const Expr &b)
{
  require_scalar(a, "max_value()");
  require_scalar(b, "max_value()");
  return make(Op::MaxValue, {}, {a, b});
}

Expr condition(const std::string &name, const Expr &a, const Expr &b)
{
  static const std::set<std::string> compare = {"lt", "le", "gt", "ge", "eq", "ne"};
  bool logical = name == "and" || name == "or";
  if (!compare.count(name) && !logical) fail("unknown condition '" + name + "'");
  if (logical) {
    if (a->op != Op::Condition || b->op != Op::Condition) fail(name + " needs two conditions");
  } else {
    require_scalar(a, "a comparison");
    require_scalar(b, "a comparison");
  }
  auto n = std::const_pointer_cast<Node>(make(Op::Condition, {}, {a, b}));
  n->name = name;
  return n;
}

Expr logical_not(const Expr &a)
{
  if (a->op != Op::Condition) fail("Not() needs a condition");
  auto n = std::const_pointer_cast<Node>(make(Op::Condition, {}, {a}));
  n->name = "not";
  return n;
}

Expr conditional(const Expr &cond, const Expr &t, const Expr &f)
{
  if (cond->op != Op::Condition)
    fail("conditional() needs a condition (lt, gt, le, ge, eq, ne, And, Or, Not) first");
  if (t->shape != f->shape)
    fail("conditional() branches have shapes " + shape_string(t->shape) + " and " + shape_string(f->shape));
  return make(Op::Conditional, t->shape, {cond, t, f});
}

Expr variable(const Expr &a)
{
  static std::atomic<int> next_label{0};
  auto n = std::const_pointer_cast<Node>(make(Op::Variable, a->shape, {a}));
  n->index = next_label++;
  return n;
}

Expr diff(const Expr &f, const Expr &var)
{
  if (var->op != Op::Variable) fail("diff(f, v) needs v = variable(...)");
  Shape s = f->shape;
  s.insert(s.end(), var->shape.begin(), var->shape.end());
  return make(Op::Diff, s, {f, var});
}

Expr derivative(const Expr &f, const Expr &w, const Expr &du)
{
  if (w->op != Op::Coefficient) fail("derivative(F, w, du) needs w to be a Coefficient");
  if (du->shape != w->shape)
    fail("derivative(): direction of shape " + shape_string(du->shape) + " for coefficient '" + w->name +
         "' of shape " + shape_string(w->shape));
  return make(Op::Derivative, f->shape, {f, w, du});
}

}  // namespace femgpu
