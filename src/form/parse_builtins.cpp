// Predefined names and the expression functions of a form file.
#include "form/parse_builtins.h"

#include <algorithm>
#include <cmath>

#include "form/parse_indices.h"

namespace femgpu::parse {

namespace {

using UnaryFn = Expr (*)(const Expr &, int dim);
using BinaryFn = Expr (*)(const Expr &, const Expr &);

const std::map<std::string, UnaryFn> &unary_functions()
{
  static const std::map<std::string, UnaryFn> m = {
      {"grad", [](const Expr &a, int d) { return grad(a, d); }},
      {"div", [](const Expr &a, int d) { return div(a, d); }},
      {"nabla_grad", [](const Expr &a, int d) { return nabla_grad(a, d); }},
      {"nabla_div", [](const Expr &a, int d) { return nabla_div(a, d); }},
      {"curl", [](const Expr &a, int d) { return curl(a, d); }},
      {"rot", [](const Expr &a, int d) { return curl(a, d); }},
      {"transpose", [](const Expr &a, int) { return transpose(a); }},
      {"tr", [](const Expr &a, int) { return trace(a); }},
      {"det", [](const Expr &a, int) { return determinant(a); }},
      {"inv", [](const Expr &a, int) { return inverse(a); }},
      {"sym", [](const Expr &a, int) { return sym(a); }},
      {"skew", [](const Expr &a, int) { return skew(a); }},
      {"dev", [](const Expr &a, int) { return dev(a); }},
      {"variable", [](const Expr &a, int) { return variable(a); }},
      {"Not", [](const Expr &a, int) { return logical_not(a); }},
  };
  return m;
}

const std::map<std::string, BinaryFn> &binary_functions()
{
  static const std::map<std::string, BinaryFn> m = {
      {"inner", [](const Expr &a, const Expr &b) { return inner(a, b); }},
      {"dot", [](const Expr &a, const Expr &b) { return dot(a, b); }},
      {"outer", [](const Expr &a, const Expr &b) { return outer(a, b); }},
      {"cross", [](const Expr &a, const Expr &b) { return cross(a, b); }},
      {"min_value", [](const Expr &a, const Expr &b) { return min_value(a, b); }},
      {"max_value", [](const Expr &a, const Expr &b) { return max_value(a, b); }},
      {"diff", [](const Expr &a, const Expr &b) { return diff(a, b); }},
      {"lt", [](const Expr &a, const Expr &b) { return condition("lt", a, b); }},
      {"le", [](const Expr &a, const Expr &b) { return condition("le", a, b); }},
      {"gt", [](const Expr &a, const Expr &b) { return condition("gt", a, b); }},
      {"ge", [](const Expr &a, const Expr &b) { return condition("ge", a, b); }},
      {"eq", [](const Expr &a, const Expr &b) { return condition("eq", a, b); }},
      {"ne", [](const Expr &a, const Expr &b) { return condition("ne", a, b); }},
      {"And", [](const Expr &a, const Expr &b) { return condition("and", a, b); }},
      {"Or", [](const Expr &a, const Expr &b) { return condition("or", a, b); }},
  };
  return m;
}

const char *const kOtherFunctions[] = {"conditional", "as_vector", "as_matrix", "as_tensor", "Identity", "len"};

std::string plural(int n) { return std::to_string(n) + (n == 1 ? " argument" : " arguments"); }

void check_count(const std::string &name, const CallArgs &args, int n, Loc loc)
{
  if (!args.kw_names.empty())
    fail_at(args.kw_loc[0], name + "() got an unexpected keyword argument '" + args.kw_names[0] + "'");
  if (static_cast<int>(args.pos.size()) != n)
    fail_at(loc, name + "() takes " + (n == 0 ? "no arguments" : plural(n)) + ", got " +
                     std::to_string(args.pos.size()));
}

std::string arg_what(const std::string &name, size_t k) { return name + "() argument " + std::to_string(k + 1); }

Expr arg_expr(const std::string &name, const CallArgs &args, size_t k)
{
  return to_expr(args.pos[k], args.pos_loc[k], arg_what(name, k));
}

// Nested lists -> ListTensor rows; entries may be tensors (as_tensor) or not.
Expr tensor_from(Context &ctx, const Value &v, Loc loc, const std::string &name)
{
  if (v.kind != Kind::List) return to_expr(v, loc, name + "() entry");
  if (v.items.empty()) fail_at(loc, name + "() of an empty list");
  std::vector<Expr> rows;
  for (const Value &item : v.items) rows.push_back(tensor_from(ctx, item, loc, name));
  return ctx.build(loc, [&] { return as_vector(rows); });
}

Value list_tensor(Context &ctx, const std::string &name, const CallArgs &args, Loc loc)
{
  // as_tensor(f, (i, j)): UFL's index form binds free indices of f.
  if (args.kw_names.empty() && args.pos.size() == 2) return bind_indices(ctx, name, args, loc);
  check_count(name, args, 1, loc);
  const Value &v = args.pos[0];
  Loc at = args.pos_loc[0];
  int want = name == "as_vector" ? 1 : name == "as_matrix" ? 2 : -1;
  if (v.kind != Kind::List) {
    Expr e = arg_expr(name, args, 0);
    if (want > 0 && rank(e) != want)
      fail_at(at, name + "() of an expression of shape " + shape_string(e->shape) + " (need rank " +
                      std::to_string(want) + ")");
    return Value::of_expr(e);
  }
  Expr e = tensor_from(ctx, v, at, name);
  if (want > 0 && rank(e) != want)
    fail_at(at, name + "() needs " + (want == 1 ? "a list of scalars" : "a list of lists of scalars") +
                    ", got shape " + shape_string(e->shape) + " (use as_tensor for other shapes)");
  return Value::of_expr(e);
}

Value other_function(Context &ctx, const std::string &name, const CallArgs &args, Loc loc)
{
  if (name == "conditional") {
    check_count(name, args, 3, loc);
    Expr c = arg_expr(name, args, 0), t = arg_expr(name, args, 1), f = arg_expr(name, args, 2);
    return Value::of_expr(ctx.build(loc, [&] { return conditional(c, t, f); }));
  }
  if (name == "len") {  // Python's len: of a list, or of a tensor's first axis (I = Identity(len(u)))
    check_count(name, args, 1, loc);
    const Value &a = args.pos[0];
    if (a.kind == Kind::List) return Value::of_int(static_cast<int64_t>(a.items.size()));
    Expr e = arg_expr(name, args, 0);
    if (is_scalar(e)) fail_at(args.pos_loc[0], "len() of a scalar expression");
    return Value::of_int(e->shape[0]);
  }
  if (name == "Identity") {
    check_count(name, args, 1, loc);
    int64_t n = to_int(args.pos[0], args.pos_loc[0], arg_what(name, 0));
    if (n < 1 || n > 3) fail_at(args.pos_loc[0], "Identity(n) needs 1 <= n <= 3, got " + std::to_string(n));
    return Value::of_expr(ctx.build(loc, [&] { return identity(static_cast<int>(n)); }));
  }
  return list_tensor(ctx, name, args, loc);
}

Value expr_function(Context &ctx, const std::string &name, const CallArgs &args, Loc loc)
{
  if (auto it = unary_functions().find(name); it != unary_functions().end()) {
    check_count(name, args, 1, loc);
    Expr a = arg_expr(name, args, 0);
    return Value::of_expr(ctx.build(loc, [&] { return it->second(a, ctx.dim); }));
  }
  if (auto it = binary_functions().find(name); it != binary_functions().end()) {
    check_count(name, args, 2, loc);
    Expr a = arg_expr(name, args, 0), b = arg_expr(name, args, 1);
    return Value::of_expr(ctx.build(loc, [&] { return it->second(a, b); }));
  }
  if (is_math_function(name)) {
    check_count(name, args, 1, loc);
    const Value &a = args.pos[0];
    // abs() is Python's builtin: on a number it stays a number.
    if (name == "abs" && a.kind == Kind::Float) return Value::of_float(std::fabs(a.f));
    if (name == "abs" && a.kind == Kind::Int) return a.i < 0 ? number_negate(a, loc) : a;
    Expr e = arg_expr(name, args, 0);
    return Value::of_expr(ctx.build(loc, [&] { return math_function(name, e); }));
  }
  return other_function(ctx, name, args, loc);
}

std::vector<std::string> expression_function_names()
{
  std::vector<std::string> names;
  for (const auto &kv : unary_functions()) names.push_back(kv.first);
  for (const auto &kv : binary_functions()) names.push_back(kv.first);
  for (const char *n : kOtherFunctions) names.push_back(n);
  for (const char *n : {"sqrt", "exp", "ln", "abs", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh",
                        "tanh", "erf", "sign"})
    names.push_back(n);
  return names;
}

size_t edit_distance(const std::string &a, const std::string &b)
{
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1] ? 1 : 0)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace

void seed_names(Context &ctx, bool form_mode)
{
  for (const std::string &n : expression_function_names()) ctx.env[n] = Value::function(n);
  ctx.env["x"] = Value::of_expr(spatial_coordinate(ctx.dim));
  ctx.env["d"] = Value::of_int(ctx.dim);
  ctx.env["pi"] = Value::of_float(3.14159265358979323846);
  ctx.env["e"] = Value::of_float(2.71828182845904523536);
  if (!form_mode) return;
  for (const char *n : {"derivative", "Constant", "Coefficient", "TestFunction", "TrialFunction", "TestFunctions",
                        "TrialFunctions", "FiniteElement", "VectorElement", "MixedElement", "Mesh", "FunctionSpace", "split",
                        "VectorConstant", "TensorConstant", "SpatialCoordinate", "Index", "indices", "Dx"})
    ctx.env[n] = Value::function(n);
  seed_ufl_names(ctx);
  ctx.env["u"] = Value::of_expr(ctx.builder->trial_function());
  ctx.env["v"] = Value::of_expr(ctx.builder->test_function());
  ctx.env["dx"] = Value::measure(std::nullopt);
  ctx.env["ds"] = Value::measure(std::nullopt, IntegralDomain{IntegralDomain::Type::ExteriorFacet, std::nullopt});
  ctx.env["FacetNormal"] = Value::function("FacetNormal");
}

Value call_value(Context &ctx, const Value &callee, const CallArgs &args, Loc loc)
{
  if (callee.kind == Kind::Measure) return call_measure(callee, args, loc);
  if (callee.kind != Kind::Function) fail_at(loc, "a " + type_name(callee) + " cannot be called");
  if (callee.s == ".dx") return partial_derivative(ctx, callee.items[0], args, loc);
  if (callee.s == ".geometric_dimension" || callee.s == ".topological_dimension") {
    check_count(callee.s.substr(1), args, 0, loc);
    return Value::of_int(cell_dim(callee.items[0].cell));
  }
  if (is_form_function(callee.s)) return call_form_function(ctx, callee.s, args, loc);
  return expr_function(ctx, callee.s, args, loc);
}

bool is_identifier(const std::string &s)
{
  if (s.empty() || s.size() > 64) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    if (!alpha && !(i > 0 && c >= '0' && c <= '9')) return false;
  }
  return true;
}

std::string suggest_name(const Context &ctx, const std::string &name)
{
  if (name.size() > 32) return "";
  std::string best;
  size_t best_d = 3;
  for (const auto &kv : ctx.env) {
    const std::string &c = kv.first;
    if (c.size() > name.size() + 2 || c.size() + 2 < name.size()) continue;
    size_t dist = edit_distance(name, c);
    if (dist < best_d) best_d = dist, best = c;
  }
  // One- and two-letter names are within distance 2 of too much to be a useful hint.
  return (best_d <= 1 || name.size() > 3) ? best : "";
}

}  // namespace femgpu::parse
