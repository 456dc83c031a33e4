// parse_form_text / parse_form_file / parse_expression: run the grammar, then pick
// out `a`, `F` and `L` and check them, and turn every error into "<source>:L:C: what".
#include "form/parser.h"

#include <algorithm>

#include "form/form_file.h"
#include "form/parse_builtins.h"
#include "form/parse_grammar.h"
#include "form/quoted_text.h"
#include "form/time_dependent.h"

namespace femgpu {

namespace {

using parse::Context;
using parse::Kind;
using parse::Value;

[[noreturn]] void located(const std::string &source, Loc loc, const std::string &what)
{
  throw FormError(source + ":" + loc_string(loc) + ": " + what);
}

bool any_integrand_contains(const std::vector<Integral> &f, int number)
{
  for (const Integral &i : f)
    if (parse::contains_argument(i.integrand, number)) return true;
  return false;
}

// The value the file assigned to `name`, which must be a form.
std::vector<Integral> defined_form(const Context &ctx, const std::string &name)
{
  const Value &v = ctx.env.at(name);
  Loc at = ctx.defined_at.at(name);
  if (v.kind != Kind::Form)
    fail_at(at, "'" + name + "' must be a form (an integral such as u*v*dx), got " + parse::type_name(v) +
                    (v.kind == Kind::Expr ? " (did you forget '*dx'?)" : ""));
  return v.form;
}

void check_residual(const Context &ctx, const std::vector<Integral> &F, const std::string &name = "F")
{
  Loc at = ctx.defined_at.at(name);
  if (!any_integrand_contains(F, 0)) fail_at(at, "'" + name + "' must be linear in the test function v, but it does not contain v");
  if (any_integrand_contains(F, 1))
    fail_at(at, "'" + name + "' must not contain the trial function u (a residual depends on a Coefficient; "
                "for a linear problem define 'a')");
}

// Whether a = derivative(L, w, du), integral by integral: FFC's nonlinear demos name the
// residual L and its Jacobian a. Then L is the residual F(w; v), not a right-hand side
// (which would make the residual a(w, v) - L(v), another operator). The derivative keeps
// L's integrals in order but leaves out those free of w (a load has none).
bool is_derivative_of(const std::vector<Integral> &a, const std::vector<Integral> &L)
{
  size_t next = 0;  // the first integral of L that a[k] may come from
  for (const Integral &ak : a) {
    if (ak.integrand->op != Op::Derivative) return false;
    while (next < L.size() && L[next].integrand != ak.integrand->operands[0]) ++next;
    if (next++ == L.size()) return false;
  }
  return !a.empty();
}

void check_bilinear(const Context &ctx, const std::vector<Integral> &a)
{
  if (!any_integrand_contains(a, 0) || !any_integrand_contains(a, 1))
    fail_at(ctx.defined_at.at("a"), "'a' must be bilinear: it needs both the trial function u and the test function v");
}

// TS's shift: the file's Constant "shift" where it declares one, else a new one (0).
Expr time_shift(Context &ctx, const std::vector<Integral> &F)
{
  for (const ConstantInfo &c : ctx.builder->make_form(F).constants)
    if (c.name == kTimeShiftName) return ctx.builder->constant(c.name, c.default_value);
  return ctx.builder->constant(kTimeShiftName, 0.0);
}

// F's coefficients in the element of u, split into the unknown(s) and the time
// derivatives of another coefficient (w_t of w: time_dependent.h).
void unknowns_of(Context &ctx, const std::vector<Integral> &F, std::vector<CoefficientInfo> *unknowns, std::vector<CoefficientInfo> *rates)
{
  Form table = ctx.builder->make_form(F);
  std::vector<int> slots;
  for (const Integral &i : F)
    for (int s : parse::coefficient_slots(i.integrand))
      if (table.coefficients[s].element == ctx.element && std::find(slots.begin(), slots.end(), s) == slots.end()) slots.push_back(s);
  for (int s : slots) {
    const CoefficientInfo &c = table.coefficients[s];
    (is_time_derivative(c.name, table.coefficients, ctx.element) ? rates : unknowns)->push_back(c);
  }
}

std::string names_of(const std::vector<CoefficientInfo> &list)
{
  std::string names;
  for (const CoefficientInfo &c : list) names += (names.empty() ? "" : ", ") + c.name;
  return names;
}

// a = derivative(F, w, u) for the one Coefficient w of F in the element of u; where F
// also holds w's time derivative w_t (a TS residual F(t, w, w_t)), TS's IJacobian
// derivative(F, w, u) + shift * derivative(F, w_t, u).
std::vector<Integral> implied_jacobian(Context &ctx, const std::vector<Integral> &F)
{
  Loc at = ctx.defined_at.at("F");
  std::vector<CoefficientInfo> unknowns, rates;
  unknowns_of(ctx, F, &unknowns, &rates);
  if (unknowns.empty() && rates.empty())
    fail_at(at, "'a' is not defined and cannot be derived: 'F' has no Coefficient in the element of u; define 'a'");
  if (unknowns.size() > 1)
    fail_at(at, "'a' is not defined and cannot be derived: 'F' has several Coefficients in the element of u (" + names_of(unknowns) +
                    "); define 'a' = derivative(F, w, u) for the unknown w");
  if (rates.size() > 1 || (rates.size() == 1 && !unknowns.empty() && time_derivative_of(rates[0].name) != unknowns[0].name))
    fail_at(at, "'a' is not defined and cannot be derived: 'F' holds the time derivatives " + names_of(rates) + " beside the unknown " +
                    (unknowns.empty() ? time_derivative_of(rates[0].name) : unknowns[0].name) +
                    " (a residual F(t, w, w_t) has one unknown w and its time derivative w_t); define 'a'");
  const std::string w_name = unknowns.empty() ? time_derivative_of(rates[0].name) : unknowns[0].name;
  Expr w = ctx.builder->coefficient(w_name), du = ctx.builder->trial_function();
  std::vector<Integral> a = rates.empty() ? derivative(F, w, du)
                                          : time_dependent_jacobian(F, w, ctx.builder->coefficient(rates[0].name), time_shift(ctx, F), du);
  if (a.empty())
    fail_at(at, "the residual F does not depend on " + w_name + ": its Jacobian is zero (every term of F is free of " + w_name +
                    ", or holds it only in a condition or sign(), whose derivative is zero), so Newton's method has nothing to solve; "
                    "write the equation for " + w_name + " into F");
  return a;
}

// make_form, remembering where `name` was defined: lowering's errors point there.
Form located_form(const Context &ctx, const std::vector<Integral> &integrals, const std::string &name)
{
  Form f = ctx.builder->make_form(integrals);
  Loc at = ctx.defined_at.at(name);
  f.line = at.line;
  f.col = at.col;
  return f;
}

// L(v): linear in v, free of u (a right-hand side).
void check_right_hand_side(const Context &ctx, const std::vector<Integral> &L)
{
  Loc at = ctx.defined_at.at("L");
  if (!any_integrand_contains(L, 0)) fail_at(at, "'L' must be linear in the test function v, but it does not contain v");
  if (any_integrand_contains(L, 1)) fail_at(at, "'L' must not contain the trial function u (a right-hand side is a form in v alone)");
}

// The unknown of F = a(w, v) - L(v): a Coefficient "w" in u's element, or "w_1", "w_2",
// ... when the file already names a coefficient w (a may use it, e.g. a Picard iterate).
Expr unknown_coefficient(Context &ctx)
{
  const std::vector<CoefficientInfo> &declared = ctx.builder->coefficients();
  for (int k = 0;; ++k) {
    const std::string name = k ? "w_" + std::to_string(k) : "w";
    bool taken = false;
    for (const CoefficientInfo &c : declared) taken = taken || c.name == name;
    if (!taken) return ctx.builder->coefficient(name);  // in u's element (of_unknown)
  }
}

// F(w; v) = a(w, v) - L(v) (or -L(v) without 'a'): a linear problem written as a residual.
std::vector<Integral> residual_of_linear_problem(Context &ctx, const std::vector<Integral> *a, const std::vector<Integral> &L)
{
  std::vector<Integral> F;
  if (a) F = replace_trial_function(*a, unknown_coefficient(ctx));
  for (Integral i : L) {
    i.integrand = negate(i.integrand);
    F.push_back(i);
  }
  return F;
}

ParsedForms finish(Context &ctx, Loc end, bool empty)
{
  const bool has_a = ctx.defined_at.count("a") > 0, has_L = ctx.defined_at.count("L") > 0;
  // Beside 'a' or 'L', an 'F' that is not a form is an ordinary name (FFC's demos call
  // the deformation gradient F).
  const bool has_F = ctx.defined_at.count("F") > 0 && (ctx.env.at("F").kind == Kind::Form || (!has_a && !has_L));
  if (empty)
    fail_at(end, "the form file is empty (nothing but blanks and comments): it defines no form; "
                 "assign the bilinear form to 'a' or the residual to 'F'");
  if (!has_a && !has_F && !has_L)
    fail_at(end, "form file defines neither 'a' nor 'F' nor 'L' (assign the bilinear form to 'a', the residual to 'F', "
                 "or a right-hand side to 'L')");
  if (has_F && has_L)
    fail_at(ctx.defined_at.at("L"), "'L' and 'F' are both defined: define the residual 'F', or 'a' and 'L' (the residual is then "
                                    "a(w, v) - L(v)), not both");
  std::optional<std::vector<Integral>> F, a, L;
  if (has_a) {
    a = defined_form(ctx, "a");
    check_bilinear(ctx, *a);
  }
  if (has_L) L = defined_form(ctx, "L");
  if (a && L && !has_F && is_derivative_of(*a, *L)) {
    check_residual(ctx, *L, "L");
    ParsedForms out;
    out.a = located_form(ctx, *a, "a");
    out.F = located_form(ctx, *L, "L");
    return out;
  }
  if (has_L) check_right_hand_side(ctx, *L);
  if (has_F) {
    F = defined_form(ctx, "F");
    check_residual(ctx, *F);
  }
  ParsedForms out;
  // F's form before a's: its constants are then the file's, not the shift a TS Jacobian adds.
  if (F) out.F = located_form(ctx, *F, "F");
  if (has_a || has_F) out.a = located_form(ctx, a ? *a : implied_jacobian(ctx, *F), has_a ? "a" : "F");
  if (has_L) out.L = located_form(ctx, *L, "L");
  if (has_L) F = residual_of_linear_problem(ctx, a ? &*a : nullptr, *L);
  if (has_L) out.F = located_form(ctx, *F, "L");
  return out;
}

ParsedForms run_form(const std::string &text, const FormSignature &sig)
{
  std::vector<Token> tokens = tokenize(text);
  std::optional<FormBuilder> builder;
  try {
    builder.emplace(sig);
  } catch (const FormError &e) {
    fail_at({1, 1}, std::string("invalid form signature: ") + e.what());
  }
  Context ctx(&*builder, builder->dim());
  ctx.element = sig.element;
  parse::seed_names(ctx, true);
  parse::Grammar(tokens, ctx).file();
  try {
    return finish(ctx, tokens.back().loc, tokens.size() == 1);  // only End: no statement at all
  } catch (const FormError &e) {
    fail_at(tokens.back().loc, e.what());
  }
}

}  // namespace

ParsedForms parse_form_text(const std::string &text, const std::string &source_name, const FormSignature &sig)
{
  ParsedForms out;
  try {
    out = run_form(text, sig);
  } catch (const ParseFailure &f) {
    located(source_name, f.loc, f.what());
  }
  out.a.source = source_name;
  if (out.F) out.F->source = source_name;
  if (out.L) out.L->source = source_name;
  return out;
}

ParsedForms parse_form_file(const std::string &path, const FormSignature &sig)
{
  return parse_form_text(read_form_file(path), excerpt(path), sig);  // a long path by its two ends in messages
}

Expr parse_expression(const std::string &text, const std::string &source_name, int dim)
{
  try {
    if (dim != 2 && dim != 3) fail_at({1, 1}, "the dimension must be 2 or 3, got " + std::to_string(dim));
    std::vector<Token> tokens = tokenize(text, true);
    Context ctx(nullptr, dim);
    parse::seed_names(ctx, false);
    Loc start = tokens.front().loc;
    Value v = parse::Grammar(tokens, ctx).single_expression();
    return parse::to_expr(v, start, "an interpolation expression");
  } catch (const ParseFailure &f) {
    located(source_name, f.loc, f.what());
  }
}

}  // namespace femgpu
