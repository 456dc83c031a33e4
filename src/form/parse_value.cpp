// Values, expression checks and Python-number arithmetic for the form-file interpreter.
#include "form/parse_value.h"

#include <cmath>
#include <functional>
#include <limits>
#include <unordered_set>

namespace femgpu::parse {

Value Value::of_int(int64_t v) { Value r; r.kind = Kind::Int; r.i = v; return r; }
Value Value::of_float(double v) { Value r; r.kind = Kind::Float; r.f = v; return r; }
Value Value::of_expr(Expr v) { Value r; r.kind = Kind::Expr; r.e = std::move(v); return r; }
Value Value::of_form(std::vector<Integral> v) { Value r; r.kind = Kind::Form; r.form = std::move(v); return r; }
Value Value::measure(std::optional<int> degree, const IntegralDomain &domain)
{
  Value r;
  r.kind = Kind::Measure;
  r.degree = degree;
  r.domain = domain;
  return r;
}
Value Value::function(const std::string &name) { Value r; r.kind = Kind::Function; r.s = name; return r; }
Value Value::list(std::vector<Value> v) { Value r; r.kind = Kind::List; r.items = std::move(v); return r; }
Value Value::string(const std::string &v) { Value r; r.kind = Kind::String; r.s = v; return r; }
Value Value::index(int id) { Value r; r.kind = Kind::Index; r.i = id; return r; }
Value Value::of_element(DeclaredElement e)
{
  Value r;
  r.kind = Kind::Element;
  r.element = std::make_shared<const DeclaredElement>(std::move(e));
  return r;
}
Value Value::of_cell(CellType c, int coordinate_degree) { Value r; r.kind = Kind::Cell; r.cell = c; r.i = coordinate_degree; return r; }

Value Context::new_index(const std::string &name)
{
  int id = next_index++;
  index_names[id] = name;
  return Value::index(id);
}

std::string Context::index_name(int id) const
{
  auto it = index_names.find(id);
  return it == index_names.end() || it->second.empty() ? "i_" + std::to_string(id) : it->second;
}

std::string type_name(const Value &v)
{
  switch (v.kind) {
    case Kind::Int: return "int";
    case Kind::Float: return "float";
    case Kind::Expr:
      return "expression of shape " + shape_string(v.e->shape) + (v.free.empty() ? "" : " with free indices");
    case Kind::Form: return "form";
    case Kind::Measure: return "measure";
    case Kind::Function: return "function '" + v.s + "'";
    case Kind::List: return "list";
    case Kind::String: return "string";
    case Kind::Dict: return "dict";
    case Kind::Index: return "index";
    case Kind::Element: return "element " + v.element->text;
    case Kind::Cell: return v.i ? "mesh" : "cell";
  }
  return "?";
}

int Context::depth_of(const Expr &e)
{
  auto it = depth_.find(e.get());
  if (it != depth_.end()) return it->second;
  // Unregistered nodes are terminals or a builder's own inner nodes (a level or two).
  int d = 0;
  for (const Expr &o : e->operands) d = std::max(d, depth_of(o));
  return d + 1;
}

Expr Context::checked(const Expr &e, Loc loc)
{
  if (static_cast<int>(e->shape.size()) > kMaxTensorRank)
    fail_at(loc, "tensor of rank " + std::to_string(e->shape.size()) + " is too large (limit " +
                     std::to_string(kMaxTensorRank) + ")");
  int64_t size = 1;
  for (int n : e->shape) {
    size *= n;
    if (size > kMaxTensorSize)
      fail_at(loc, "tensor of shape " + shape_string(e->shape) + " is too large (limit " +
                       std::to_string(kMaxTensorSize) + " components)");
  }
  int d = depth_of(e);
  if (d > kMaxExprDepth)
    fail_at(loc, "expression is nested too deeply (more than " + std::to_string(kMaxExprDepth) + " levels)");
  depth_[e.get()] = d;
  keep_.push_back(e);
  return e;
}

Expr to_expr(const Value &v, Loc loc, const std::string &what)
{
  if (v.kind == Kind::Expr && !v.free.empty())
    fail_at(loc, what + " has free indices: only products, sums, indexing, .dx() and as_tensor() take them (repeat an "
                        "index in a product to sum over it, or bind it with as_tensor)");
  if (v.kind == Kind::Expr) return v.e;
  if (v.is_number()) return literal(v.number());
  std::string hint = v.kind == Kind::Form ? " (forms cannot be used inside expressions)" : "";
  fail_at(loc, what + " must be an expression, got " + type_name(v) + hint);
}

int64_t to_int(const Value &v, Loc loc, const std::string &what)
{
  if (v.kind == Kind::Int) return v.i;
  fail_at(loc, what + " must be a Python integer, got " + type_name(v));
}

namespace {

// Iterative, so a deep DAG cannot overflow the stack; each shared node is seen once.
bool any_node(const Expr &root, const std::function<bool(const Node &)> &pred)
{
  std::unordered_set<const Node *> seen;
  std::vector<const Node *> todo{root.get()};
  while (!todo.empty()) {
    const Node *n = todo.back();
    todo.pop_back();
    if (!seen.insert(n).second) continue;
    if (pred(*n)) return true;
    for (const Expr &o : n->operands) todo.push_back(o.get());
  }
  return false;
}

[[noreturn]] void overflow(Loc loc) { fail_at(loc, "integer overflow (Python integers here must fit in 64 bits)"); }

int64_t int_power(int64_t base, int64_t exp, Loc loc)
{
  int64_t result = 1;
  while (exp > 0) {
    if ((exp & 1) && __builtin_mul_overflow(result, base, &result)) overflow(loc);
    exp >>= 1;
    if (exp > 0 && __builtin_mul_overflow(base, base, &base)) overflow(loc);
  }
  return result;
}

Value int_binary(const std::string &op, int64_t a, int64_t b, Loc loc)
{
  int64_t r = 0;
  if (op == "+" && __builtin_add_overflow(a, b, &r)) overflow(loc);
  if (op == "-" && __builtin_sub_overflow(a, b, &r)) overflow(loc);
  if (op == "*" && __builtin_mul_overflow(a, b, &r)) overflow(loc);
  if (op == "**" && b >= 0) r = int_power(a, b, loc);
  if (op == "+" || op == "-" || op == "*" || (op == "**" && b >= 0)) return Value::of_int(r);
  return number_binary(op, Value::of_float(static_cast<double>(a)), Value::of_float(static_cast<double>(b)), loc);
}

}  // namespace

bool contains_argument(const Expr &e, int number)
{
  return any_node(e, [number](const Node &n) { return n.op == Op::Argument && n.index == number; });
}

bool is_constant_expression(const Expr &e)
{
  return !any_node(e, [](const Node &n) {
    bool terminal = n.operands.empty();
    return terminal && n.op != Op::Literal && n.op != Op::Constant && n.op != Op::Identity;
  });
}

std::vector<int> coefficient_slots(const Expr &e)
{
  std::vector<int> slots;
  any_node(e, [&slots](const Node &n) {
    if (n.op == Op::Coefficient) slots.push_back(n.index);
    return false;
  });
  return slots;
}

Value number_binary(const std::string &op, const Value &a, const Value &b, Loc loc)
{
  bool ints = a.kind == Kind::Int && b.kind == Kind::Int;
  if (op == "/" && b.number() == 0.0) fail_at(loc, "division by zero");
  if (op == "**" && a.number() == 0.0 && b.number() < 0) fail_at(loc, "0 cannot be raised to a negative power");
  if (ints) return int_binary(op, a.i, b.i, loc);
  double x = a.number(), y = b.number(), r = 0.0;
  if (op == "+") r = x + y;
  else if (op == "-") r = x - y;
  else if (op == "*") r = x * y;
  else if (op == "/") r = x / y;
  else if (op == "**") {
    if (x < 0 && y != std::floor(y)) fail_at(loc, "a negative number raised to a fractional power is complex");
    r = std::pow(x, y);
  } else {
    fail_at(loc, "unsupported operator '" + op + "' for numbers");
  }
  if (!std::isfinite(r)) fail_at(loc, "numeric overflow (the result is not a finite number)");
  return Value::of_float(r);
}

Value number_negate(const Value &a, Loc loc)
{
  if (a.kind == Kind::Float) return Value::of_float(-a.f);
  if (a.i == std::numeric_limits<int64_t>::min()) overflow(loc);
  return Value::of_int(-a.i);
}

}  // namespace femgpu::parse
