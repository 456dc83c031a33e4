// Operators on form-file values, dispatched on the operand kinds.
#include "form/parse_ops.h"

#include "form/parse_builtins.h"
#include "form/parse_indices.h"

namespace femgpu::parse {

namespace {

bool is_exprlike(const Value &v) { return v.kind == Kind::Expr || v.is_number(); }

[[noreturn]] void bad_operands(const std::string &op, const Value &a, const Value &b, Loc loc)
{
  std::string hint;
  if ((a.kind == Kind::Form) != (b.kind == Kind::Form) && (op == "+" || op == "-"))
    hint = " (did you forget '*dx'?)";
  fail_at(loc, "unsupported operand types for '" + op + "': " + type_name(a) + " and " + type_name(b) + hint);
}

Value integrate(const Context &ctx, const Value &integrand, const Value &measure, Loc loc)
{
  if (integrand.kind == Kind::Form) fail_at(loc, "cannot integrate a form again (it already has a measure)");
  if (has_free_indices(integrand)) {
    std::string names;
    for (int id : integrand.free) names += (names.empty() ? "'" : ", '") + ctx.index_name(id) + "'";
    fail_at(loc, "the integrand has free index " + names + ": an index used once is free; repeat it in a product to sum "
                 "over it (u[i]*v[i]) or bind it with as_tensor");
  }
  if (!is_exprlike(integrand)) fail_at(loc, "cannot integrate a " + type_name(integrand));
  Expr e = to_expr(integrand, loc, "an integrand");
  try {
    Integral i = FormBuilder::integral(e, measure.degree, measure.domain);
    i.line = loc.line;
    i.col = loc.col;
    return Value::of_form({i});
  } catch (const FormError &err) {
    fail_at(loc, err.what());
  }
}

Value negate_form(Context &ctx, const Value &f, Loc loc)
{
  std::vector<Integral> out = f.form;
  for (Integral &i : out) i.integrand = ctx.build(loc, [&] { return negate(i.integrand); });
  return Value::of_form(out);
}

Value scale_form(Context &ctx, const Value &scalar, const Value &f, Loc loc)
{
  bool ok = scalar.is_number() ||
            (scalar.kind == Kind::Expr && is_scalar(scalar.e) && is_constant_expression(scalar.e));
  if (!ok)
    fail_at(loc, "a form can only be scaled by a number or a scalar constant expression, got " + type_name(scalar));
  Expr c = to_expr(scalar, loc, "the factor");
  std::vector<Integral> out = f.form;
  for (Integral &i : out) i.integrand = ctx.build(loc, [&] { return mul(c, i.integrand); });
  return Value::of_form(out);
}

Value form_binary(Context &ctx, const std::string &op, const Value &a, const Value &b, Loc loc)
{
  bool both = a.kind == Kind::Form && b.kind == Kind::Form;
  if (both && (op == "+" || op == "-")) {
    std::vector<Integral> out = a.form;
    Value rhs = op == "-" ? negate_form(ctx, b, loc) : b;
    out.insert(out.end(), rhs.form.begin(), rhs.form.end());
    return Value::of_form(out);
  }
  if (op == "*" && !both) return a.kind == Kind::Form ? scale_form(ctx, b, a, loc) : scale_form(ctx, a, b, loc);
  bad_operands(op, a, b, loc);
}

Expr expr_binary(const std::string &op, const Expr &a, const Expr &b)
{
  if (op == "+") return add(a, b);
  if (op == "-") return sub(a, b);
  if (op == "*") return mul(a, b);
  if (op == "/") return divide(a, b);
  return power(a, b);
}

}  // namespace

Value binary_op(Context &ctx, const std::string &op, const Value &a, const Value &b, Loc loc)
{
  if (a.is_number() && b.is_number()) return number_binary(op, a, b, loc);
  if (op == "*" && b.kind == Kind::Measure && a.kind != Kind::Measure) return integrate(ctx, a, b, loc);
  if (op == "*" && a.kind == Kind::Measure && b.kind != Kind::Measure) return integrate(ctx, b, a, loc);
  if (a.kind == Kind::Form || b.kind == Kind::Form) return form_binary(ctx, op, a, b, loc);
  if (op == "*" && a.kind == Kind::Element && b.kind == Kind::Element) return mixed_product(a, b, loc);
  if (!is_exprlike(a) || !is_exprlike(b)) bad_operands(op, a, b, loc);
  if (has_free_indices(a) || has_free_indices(b)) return free_binary(ctx, op, a, b, loc);
  Expr ea = to_expr(a, loc, "operand"), eb = to_expr(b, loc, "operand");
  return Value::of_expr(ctx.build(loc, [&] { return expr_binary(op, ea, eb); }));
}

Value unary_op(Context &ctx, const std::string &op, const Value &a, Loc loc)
{
  if (a.kind != Kind::Form && !is_exprlike(a))
    fail_at(loc, "bad operand type for unary '" + op + "': " + type_name(a));
  if (op == "+") return a;
  if (a.is_number()) return number_negate(a, loc);
  if (a.kind == Kind::Form) return negate_form(ctx, a, loc);
  if (has_free_indices(a)) return free_negate(ctx, a, loc);
  return Value::of_expr(ctx.build(loc, [&] { return negate(a.e); }));
}

Value compare_op(Context &ctx, const std::string &op, const Value &a, const Value &b, Loc loc)
{
  static const std::map<std::string, std::string> names = {{"<", "lt"},  {"<=", "le"}, {">", "gt"},
                                                           {">=", "ge"}, {"==", "eq"}, {"!=", "ne"}};
  Expr ea = to_expr(a, loc, "the left operand of '" + op + "'");
  Expr eb = to_expr(b, loc, "the right operand of '" + op + "'");
  return Value::of_expr(ctx.build(loc, [&] { return condition(names.at(op), ea, eb); }));
}

namespace {

int64_t normalized_index(const Value &iv, int64_t length, Loc loc, const std::string &what)
{
  if (iv.kind == Kind::Expr)
    fail_at(loc, "an index must be a Python integer or a free index such as i, got " + type_name(iv));
  int64_t i = to_int(iv, loc, "an index");
  int64_t n = i < 0 ? i + length : i;
  if (n < 0 || n >= length)
    fail_at(loc, "index " + std::to_string(i) + " out of range for " + what + " (length " + std::to_string(length) + ")");
  return n;
}

}  // namespace

Value index_op(Context &ctx, const Value &a, const std::vector<Value> &indices, const std::vector<Loc> &locs, Loc loc)
{
  if (a.kind == Kind::List) {
    if (indices.size() != 1) fail_at(loc, "a list takes one index, got " + std::to_string(indices.size()));
    int64_t n = static_cast<int64_t>(a.items.size());
    return a.items[static_cast<size_t>(normalized_index(indices[0], n, locs[0], "a list"))];
  }
  if (a.kind != Kind::Expr) fail_at(loc, "cannot index a " + type_name(a));
  bool free_index = has_free_indices(a);
  for (const Value &iv : indices) free_index = free_index || iv.kind == Kind::Index;
  if (free_index) return index_with_free(ctx, a, indices, locs, loc);
  const Shape &s = a.e->shape;
  if (indices.size() > s.size())
    fail_at(loc, "too many indices (" + std::to_string(indices.size()) + ") for an expression of shape " +
                     shape_string(s));
  std::vector<int> idx;
  for (size_t k = 0; k < indices.size(); ++k)
    idx.push_back(static_cast<int>(
        normalized_index(indices[k], s[k], locs[k], "axis " + std::to_string(k) + " of shape " + shape_string(s))));
  return Value::of_expr(ctx.build(loc, [&] { return indexed(a.e, idx); }));
}

// A method bound to its object: called by call_value (parse_builtins.cpp).
Value bound_method(const std::string &name, const Value &self)
{
  Value m = Value::function("." + name);
  m.items = {self};
  return m;
}

Value attribute_op(Context &ctx, const Value &a, const std::string &name, Loc loc)
{
  if (name == "dx" && a.kind == Kind::Expr) return bound_method(name, a);
  if ((name == "geometric_dimension" || name == "topological_dimension") && a.kind == Kind::Cell) return bound_method(name, a);
  if (name != "T")
    fail_at(loc, "unknown attribute '." + name + "' of a " + type_name(a) + " (supported: '.T', the transpose, and '.dx(i)')");
  if (a.kind != Kind::Expr) fail_at(loc, "'.T' needs a matrix expression, got " + type_name(a));
  if (has_free_indices(a)) return free_transpose(ctx, a, loc);
  return Value::of_expr(ctx.build(loc, [&] { return transpose(a.e); }));
}

}  // namespace femgpu::parse
