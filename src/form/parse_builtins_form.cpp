// Form-file functions that need the form: Coefficient, Constant, TestFunction,
// TrialFunction, derivative, and calling the measure dx(...).
#include <algorithm>
#include <set>

#include "form/parse_builtins.h"

namespace femgpu::parse {

namespace {

std::string count_text(int lo, int hi)
{
  std::string n = lo == hi ? std::to_string(lo) : hi == lo + 1 ? std::to_string(lo) + " or " + std::to_string(hi)
                                                               : std::to_string(lo) + " to " + std::to_string(hi);
  return n + (hi == 1 ? " argument" : " arguments");
}

}  // namespace

// Checks counts and keyword names; a keyword may also fill a positional slot
// (Constant("mu", value=0.5)), as in Python.
Keywords check_call(const std::string &name, const CallArgs &args, int lo, int hi,
                    const std::vector<std::string> &keywords, Loc loc)
{
  Keywords kw;
  for (size_t k = 0; k < args.kw_names.size(); ++k) {
    const std::string &n = args.kw_names[k];
    if (std::find(keywords.begin(), keywords.end(), n) == keywords.end())
      fail_at(args.kw_loc[k], name + "() got an unexpected keyword argument '" + n + "'");
    kw.given[n] = {args.kw[k], args.kw_loc[k]};
  }
  int n = static_cast<int>(args.pos.size());
  if (n < lo || n > hi)
    fail_at(loc, name + "() takes " + (hi == 0 ? "no arguments" : count_text(lo, hi)) + ", got " + std::to_string(n));
  return kw;
}

int small_int(const Value &v, Loc loc, const std::string &what, int lo, int hi)
{
  int64_t n = to_int(v, loc, what);
  if (n < lo || n > hi)
    fail_at(loc, what + " must be " + std::to_string(lo) + ".." + std::to_string(hi) + ", got " + std::to_string(n));
  return static_cast<int>(n);
}

namespace {

std::string name_arg(const std::string &fn, const CallArgs &args)
{
  if (args.pos[0].kind != Kind::String)
    fail_at(args.pos_loc[0], fn + "() needs a name string first, e.g. " + fn + "(\"w\"), got " + type_name(args.pos[0]));
  if (!is_identifier(args.pos[0].s))
    fail_at(args.pos_loc[0], fn + "() name '" + args.pos[0].s + "' must be an identifier of at most 64 characters");
  return args.pos[0].s;
}

Value coefficient_call(Context &ctx, const CallArgs &args, Loc loc)
{
  Keywords kw = check_call("Coefficient", args, 1, 1, {"degree", "components"}, loc);
  std::string name = name_arg("Coefficient", args);
  std::optional<Element> element;
  if (kw.get("degree") || kw.get("components")) {
    // Either keyword picks another element: degree defaults to u's, components to 1.
    Element e{ctx.element.degree, 1};
    if (const Value *q = kw.get("degree")) e.degree = small_int(*q, kw.loc("degree"), "degree", 0, 8);  // 0: DG0, piecewise constant
    if (const Value *c = kw.get("components")) e.components = small_int(*c, kw.loc("components"), "components", 1, 9);
    element = e;
  }
  return Value::of_expr(ctx.build(loc, [&] { return ctx.builder->coefficient(name, element); }));
}

Value constant_call(Context &ctx, const CallArgs &args, Loc loc)
{
  Keywords kw = check_call("Constant", args, 1, 2, {"value"}, loc);
  std::string name = name_arg("Constant", args);
  if (args.pos.size() == 2 && kw.get("value")) fail_at(kw.loc("value"), "Constant() got two values");
  const Value *v = args.pos.size() == 2 ? &args.pos[1] : kw.get("value");
  Loc vloc = args.pos.size() == 2 ? args.pos_loc[1] : v ? kw.loc("value") : loc;
  if (v && !v->is_number())
    fail_at(vloc, "Constant() default value must be a number, got " + type_name(*v));
  double value = v ? v->number() : 0.0;
  return Value::of_expr(ctx.build(loc, [&] { return ctx.builder->constant(name, value); }));
}

bool form_contains_argument(const Value &f, int number)
{
  if (f.kind == Kind::Expr) return contains_argument(f.e, number);
  for (const Integral &i : f.form)
    if (contains_argument(i.integrand, number)) return true;
  return false;
}

// UFL's rule: the new argument is numbered after the existing ones (v first, then u).
Expr default_direction(Context &ctx, const Value &f, Loc loc)
{
  bool has_v = form_contains_argument(f, 0), has_u = form_contains_argument(f, 1);
  if (has_v && has_u)
    fail_at(loc, "derivative(F, w) of something that contains both u and v would need a third argument; "
                 "femgpu forms have at most two");
  return has_v ? ctx.builder->trial_function() : ctx.builder->test_function();
}

Value derivative_call(Context &ctx, const CallArgs &args, Loc loc)
{
  check_call("derivative", args, 2, 3, {}, loc);
  const Value &f = args.pos[0];
  if (f.kind != Kind::Form && f.kind != Kind::Expr && !f.is_number())
    fail_at(args.pos_loc[0], "derivative() argument 1 must be a form or an expression, got " + type_name(f));
  Expr w = to_expr(args.pos[1], args.pos_loc[1], "derivative() argument 2");
  if (w->op != Op::Coefficient)
    fail_at(args.pos_loc[1], "derivative() argument 2 must be a Coefficient, got " + type_name(args.pos[1]));
  Expr du = args.pos.size() == 3 ? to_expr(args.pos[2], args.pos_loc[2], "derivative() argument 3")
                                 : default_direction(ctx, f, loc);
  if (f.kind != Kind::Form) {
    Expr e = to_expr(f, loc, "derivative() argument 1");
    return Value::of_expr(ctx.build(loc, [&] { return derivative(e, w, du); }));
  }
  std::vector<Integral> out;
  try {
    out = derivative(f.form, w, du);
  } catch (const FormError &err) {
    fail_at(loc, err.what());
  }
  if (out.empty())
    fail_at(loc, "derivative(): the form does not depend on '" + w->name + "' (no term holds it, or only in a condition or sign()): "
                 "its derivative is zero");
  for (Integral &i : out) i.integrand = ctx.checked(i.integrand, loc);
  return Value::of_form(out);
}

}  // namespace

bool is_form_function(const std::string &name)
{
  static const std::set<std::string> names = {
      "derivative",    "Constant",      "Coefficient",    "TestFunction",   "TrialFunction",     "TestFunctions",
      "TrialFunctions", "FiniteElement", "VectorElement", "MixedElement",   "Mesh",              "FunctionSpace",
      "split",         "VectorConstant", "TensorConstant", "SpatialCoordinate", "Index",          "indices",
      "Dx",            "FacetNormal"};
  return names.count(name) > 0;
}

Value call_form_function(Context &ctx, const std::string &name, const CallArgs &args, Loc loc)
{
  if (!ctx.builder) fail_at(loc, name + "() is not available in an interpolation expression");
  if (is_ufl_call(name, args)) return call_ufl_function(ctx, name, args, loc);
  if (name == "derivative") return derivative_call(ctx, args, loc);
  if (name == "Constant") return constant_call(ctx, args, loc);
  if (name == "Coefficient") return coefficient_call(ctx, args, loc);
  check_call(name, args, 0, 0, {}, loc);
  return Value::of_expr(name == "TestFunction" ? ctx.builder->test_function() : ctx.builder->trial_function());
}

namespace {

// ds(i) or ds(subdomain_id=i): the boundary label's value i (0..2^31-1).
IntegralDomain facet_domain(const Value &measure, const CallArgs &args, const Keywords &kw, Loc loc)
{
  IntegralDomain d = measure.domain;
  const Value *id = args.pos.empty() ? kw.get("subdomain_id") : &args.pos[0];
  if (!id) return d;
  if (!args.pos.empty() && kw.get("subdomain_id")) fail_at(loc, "ds() got the boundary label value twice");
  if (d.subdomain) fail_at(loc, "this ds already has a boundary label value (" + std::to_string(*d.subdomain) + ")");
  Loc at = args.pos.empty() ? kw.loc("subdomain_id") : args.pos_loc[0];
  d.subdomain = small_int(*id, at, "the boundary label value of ds(i)", 0, 2147483647);
  return d;
}

}  // namespace

Value call_measure(const Value &measure, const CallArgs &args, Loc loc)
{
  const bool facet = measure.domain.type == IntegralDomain::Type::ExteriorFacet;
  const char *name = facet ? "ds" : "dx";
  if (!facet && !args.pos.empty()) fail_at(args.pos_loc[0], "dx() takes only keyword arguments (subdomain ids are not supported)");
  Keywords kw = facet ? check_call(name, args, 0, 1, {"degree", "metadata", "subdomain_id"}, loc) : check_call(name, args, 0, 0, {"degree", "metadata"}, loc);
  std::optional<int> degree = measure.degree;
  if (const Value *q = kw.get("degree")) degree = small_int(*q, kw.loc("degree"), "the quadrature degree", 0, 60);
  if (const Value *m = kw.get("metadata")) {
    Loc at = kw.loc("metadata");
    if (m->kind != Kind::Dict) fail_at(at, std::string(name) + "() metadata must be a dict such as {\"quadrature_degree\": 4}");
    for (size_t k = 0; k < m->keys.size(); ++k) {
      if (m->keys[k] != "quadrature_degree")
        fail_at(at, "unsupported metadata key '" + m->keys[k] + "' (only 'quadrature_degree')");
      degree = small_int(m->items[k], at, "the quadrature degree", 0, 60);
    }
  }
  return Value::measure(degree, facet ? facet_domain(measure, args, kw, loc) : measure.domain);
}

}  // namespace femgpu::parse
