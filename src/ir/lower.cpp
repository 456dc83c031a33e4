// Form -> ActionIR: scalarize the integrand, split it into e_j per test term by
// differentiating with respect to v, check linearity, estimate the quadrature degree,
// then compact the pointwise program and group its evaluations.
#include "ir/lower.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>

#include "form/declared_elements.h"
#include "ir/analysis.h"
#include "ir/derivative.h"
#include "ir/pointwise_marks.h"
#include "ir/scalarize.h"

namespace femgpu {

namespace {

// A linearity error that lower_form traced to one integral (its index in the form).
struct IntegralError : FormError {
  IntegralError(size_t which, const std::string &what) : FormError(what), integral(which) {}
  size_t integral;
};

void check_linear(Dependence d, const char *what, bool must_contain)
{
  switch (d) {
    case Dependence::Linear: return;
    case Dependence::Zero:
    case Dependence::Independent:
      if (must_contain) throw FormError(std::string("the form does not contain the ") + what);
      return;
    case Dependence::Affine:
      throw FormError(std::string("a term of the form does not contain the ") + what +
                      (must_contain ? "" : " (a bilinear form needs every term linear in it)"));
    case Dependence::Nonlinear: throw FormError(std::string("the form is not linear in the ") + what);
  }
}

// Copies the nodes reachable from `roots` into a fresh program (Idents become their
// operand: diff() is done), returning the new ids of the roots.
std::vector<int> compact(const Program &src, const std::vector<int> &roots, Program &dst)
{
  int top = *std::max_element(roots.begin(), roots.end());
  std::vector<char> live(static_cast<size_t>(top + 1), 0);
  for (int r : roots) live[static_cast<size_t>(r)] = 1;
  for (int id = top; id >= 0; --id) {
    if (!live[static_cast<size_t>(id)]) continue;
    const SNode &n = src.node(id);
    for (int o : {n.a, n.b, n.c})
      if (o >= 0) live[static_cast<size_t>(o)] = 1;
  }
  std::vector<int> map(static_cast<size_t>(top + 1), -1);
  for (int id = 0; id <= top; ++id) {
    if (!live[static_cast<size_t>(id)]) continue;
    const SNode &n = src.node(id);
    auto m = [&](int o) { return map[static_cast<size_t>(o)]; };
    int r;
    switch (n.op) {
      case SOp::Const: r = dst.constant(n.value); break;
      case SOp::Input: r = dst.input(src.inputs()[static_cast<size_t>(n.input)]); break;
      case SOp::Ident: r = m(n.a); break;
      case SOp::Add: r = dst.add(m(n.a), m(n.b)); break;
      case SOp::Mul: r = dst.mul(m(n.a), m(n.b)); break;
      case SOp::Div: r = dst.div(m(n.a), m(n.b)); break;
      case SOp::Pow: r = dst.pow(m(n.a), m(n.b)); break;
      case SOp::Neg: r = dst.neg(m(n.a)); break;
      case SOp::Select: r = dst.select(m(n.a), m(n.b), m(n.c)); break;
      default: r = n.b >= 0 ? dst.binary(n.op, m(n.a), m(n.b)) : dst.unary(n.op, m(n.a));
    }
    map[static_cast<size_t>(id)] = r;
  }
  std::vector<int> out;
  for (int r : roots) out.push_back(map[static_cast<size_t>(r)]);
  return out;
}

Element element_of(const Form &form, int function)
{
  if (function == kCoordinates) return Element{form.signature.coordinate_degree, form.dim()};
  if (function == kTestFunction || function == kTrialFunction) return form.signature.element;
  return form.coefficients.at(static_cast<size_t>(function - 2)).element;
}

// Groups the program's evaluations by (element, map): u and coefficients in u's
// element share a loop; the coordinate field is its own group.
void build_groups(const Form &form, ActionIR &ir)
{
  const Program &p = ir.pointwise.program;
  std::vector<int> order(p.inputs().size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::sort(order.begin(), order.end(), [&](int a, int b) { return p.inputs()[static_cast<size_t>(a)] < p.inputs()[static_cast<size_t>(b)]; });
  ir.pointwise.input_group.assign(p.inputs().size(), -1);
  ir.pointwise.input_term.assign(p.inputs().size(), -1);
  for (int i : order) {
    const InputRef &in = p.inputs()[static_cast<size_t>(i)];
    if (in.kind != InputKind::Eval) continue;
    bool coords = in.function == kCoordinates;
    Element e = element_of(form, in.function);
    auto g = std::find_if(ir.groups.begin(), ir.groups.end(),
                          [&](const EvalGroup &x) { return x.coordinates == coords && x.element == e; });
    if (g == ir.groups.end()) {
      EvalGroup ng;
      ng.element = e;
      ng.coordinates = coords;
      ng.n_basis = lagrange_dimension(form.dim(), e.degree);
      ir.groups.push_back(ng);
      g = ir.groups.end() - 1;
    }
    if (std::find(g->functions.begin(), g->functions.end(), in.function) == g->functions.end())
      g->functions.push_back(in.function);
    auto dit = std::find(g->derivatives.begin(), g->derivatives.end(), in.alpha);
    if (dit == g->derivatives.end()) dit = g->derivatives.insert(g->derivatives.end(), in.alpha);
    g->terms.push_back(EvalTerm{in.function, in.component, static_cast<int>(dit - g->derivatives.begin())});
    ir.pointwise.input_group[static_cast<size_t>(i)] = static_cast<int>(g - ir.groups.begin());
    ir.pointwise.input_term[static_cast<size_t>(i)] = static_cast<int>(g->terms.size()) - 1;
  }
}

}  // namespace

int ActionIR::group_of_function(int function) const
{
  for (size_t g = 0; g < groups.size(); ++g)
    for (int f : groups[g].functions)
      if (f == function) return static_cast<int>(g);
  return -1;
}

std::vector<bool> constants_read(const ActionIR &ir)
{
  std::vector<bool> read(ir.constants.size(), false);
  const Program &p = ir.pointwise.program;
  for (const SNode &n : p.nodes()) {
    if (n.op != SOp::Input) continue;
    const InputRef &in = p.inputs()[static_cast<size_t>(n.input)];
    if (in.kind == InputKind::Constant && in.slot >= 0 && static_cast<size_t>(in.slot) < read.size()) read[static_cast<size_t>(in.slot)] = true;
  }
  return read;
}

namespace {

// Runs `check` on the whole integrand; if it fails, on each integral alone, so that the
// error names the first integral that fails by itself (a sum of linear terms is linear).
template <class Check>
void check_integrals(Check &&check, int integrand, const std::vector<int> &integral_ids)
{
  try {
    check(integrand);
  } catch (const FormError &e) {
    for (size_t k = 0; k < integral_ids.size(); ++k) {
      try {
        check(integral_ids[k]);
      } catch (const FormError &) {
        throw IntegralError(k, e.what());
      }
    }
    throw;
  }
}

// The form's integrals scalarized into one program: the sum of their integrands, each
// integral's own node (for errors traced to it) and the largest dx(degree=...).
struct Integrand {
  int sum = 0;
  std::vector<int> integrals;
  std::optional<int> explicit_degree;
};

Integrand scalarize_integrals(const Form &form, Program &p, Scalarizer &scalarize)
{
  Integrand in;
  in.sum = p.zero();
  for (size_t k = 0; k < form.integrals.size(); ++k) {
    const Integral &i = form.integrals[k];
    try {
      in.integrals.push_back(scalarize(i.integrand).ids.at(0));
    } catch (const IntegralError &) {
      throw;
    } catch (const FormError &e) {
      throw IntegralError(k, e.what());
    }
    in.sum = p.add(in.sum, in.integrals.back());
    if (i.quadrature_degree) in.explicit_degree = std::max(in.explicit_degree.value_or(0), *i.quadrature_degree);
  }
  return in;
}

bool is_test(const InputRef &in) { return in.kind == InputKind::Eval && in.function == kTestFunction; }
bool is_trial(const InputRef &in) { return in.kind == InputKind::Eval && in.function == kTrialFunction; }

// Every term linear in v; for a bilinear form linear in u, for a residual free of u.
void check_linearity(const Program &p, const Integrand &in, int rank)
{
  check_integrals([&](int id) { check_linear(dependence(p, id, is_test)[static_cast<size_t>(id)], "test function v", true); }, in.sum,
                  in.integrals);
  check_integrals(
      [&](int id) {
        Dependence trial = dependence(p, id, is_trial)[static_cast<size_t>(id)];
        if (rank == 2) check_linear(trial, "trial function u", true);
        else if (trial != Dependence::Zero && trial != Dependence::Independent)
          throw FormError("a residual (rank-1 form) must not contain the trial function u");
      },
      in.sum, in.integrals);
}

// The test terms the integrand contains and their values e_j = d(integrand)/d(term):
// exact because the integrand is linear in v.
struct TestSplit {
  std::vector<InputRef> terms;
  std::vector<int> values;  // e_j, node ids in the same program
};

TestSplit split_by_test_terms(Program &p, int integrand)
{
  std::set<InputRef> test_inputs;
  for (const InputRef &in : p.inputs())
    if (is_test(in)) test_inputs.insert(in);
  TestSplit split;
  for (const InputRef &t : test_inputs) {
    int tid = p.input(t);
    ForwardDerivative D(p, [&](int node) -> std::optional<int> {
      const SNode &n = p.node(node);
      if (n.op != SOp::Input || !is_test(p.inputs()[static_cast<size_t>(n.input)])) return std::nullopt;
      return p.constant(node == tid ? 1.0 : 0.0);
    });
    int e = D(integrand);
    if (p.is_const(e, 0.0)) continue;
    if (order(t.alpha) > 2) throw FormError("derivatives of v of order 3 and higher are not supported");
    split.values.push_back(e);
    split.terms.push_back(t);
  }
  return split;
}

// The quadrature degree of e_j times the test terms, estimated as UFL estimates it.
long long estimated_degree(const Form &form, const Program &p, const Geometry &geo, const TestSplit &split)
{
  const int dim = form.dim(), kv = form.signature.element.degree, kg = form.signature.coordinate_degree;
  const bool affine = kg == 1;
  auto input_degree = [&](const InputRef &in) -> long long {
    if (in.kind != InputKind::Eval) return 0;
    if (in.function == kCoordinates) return order(in.alpha) ? kg - 1 : kg;
    int k = element_of(form, in.function).degree;
    return affine ? std::max(k - order(in.alpha), 0) : k;
  };
  std::map<int, long long> fixed;
  for (int k : geo.K) fixed[k] = 0;
  fixed[geo.detJ] = affine ? 0 : dim * (kg - 1);
  long long degree = 0;
  for (size_t j = 0; j < split.terms.size(); ++j) {
    int root = split.values[j];
    long long dj = estimate_degrees(p, root, input_degree, fixed)[static_cast<size_t>(root)];
    long long dv = affine ? std::max(kv - order(split.terms[j].alpha), 0) : kv;
    degree = std::max(degree, dj + dv);
  }
  return affine ? degree : degree + dim * (kg - 1);
}

// The option's degree, else the form's dx(degree=...), else the estimate; checked
// against the limit.
void set_quadrature_degree(ActionIR &ir, const LowerOptions &options, std::optional<int> explicit_degree, long long estimate)
{
  ir.quadrature_degree_estimated = !(options.quadrature_degree || explicit_degree);
  long long q = options.quadrature_degree ? *options.quadrature_degree : explicit_degree ? *explicit_degree : estimate;
  if (q > options.max_quadrature_degree)
    throw FormError("the quadrature degree " + std::to_string(q) + " is above the limit " +
                    std::to_string(options.max_quadrature_degree) + " (set it with dx(degree=...))");
  ir.quadrature_degree = static_cast<int>(std::max(q, 1LL));
}

// The test terms' derivatives (each once) and the terms as (component, derivative).
void set_test_terms(ActionIR &ir, const std::vector<InputRef> &terms)
{
  for (const InputRef &t : terms) {
    auto it = std::find(ir.test_derivatives.begin(), ir.test_derivatives.end(), t.alpha);
    if (it == ir.test_derivatives.end()) it = ir.test_derivatives.insert(ir.test_derivatives.end(), t.alpha);
    ir.test_terms.push_back(TestTerm{t.component, static_cast<int>(it - ir.test_derivatives.begin())});
  }
}

ActionIR lower(const Form &form, const LowerOptions &options)
{
  const int dim = form.dim();
  const bool affine = form.signature.coordinate_degree == 1;
  Program p;
  Geometry geo = build_geometry(p, dim, affine, options.facet);
  Scalarizer scalarize(p, geo);
  const Integrand integrand = scalarize_integrals(form, p, scalarize);
  check_linearity(p, integrand, options.rank);
  const TestSplit split = split_by_test_terms(p, integrand.sum);
  if (split.terms.empty()) throw FormError("the form is identically zero");

  ActionIR ir;
  set_quadrature_degree(ir, options, integrand.explicit_degree, estimated_degree(form, p, geo, split));
  // Scale by the quadrature weight and |det J|, then keep only what the outputs need.
  InputRef weight;
  weight.kind = InputKind::Weight;
  int scale = p.mul(p.input(weight), p.unary(SOp::Abs, geo.detJ));
  if (geo.facet >= 0) scale = p.mul(scale, geo.surface);  // ds = |det J| |K^T n_f| dS_ref
  std::vector<int> roots;
  for (int e : split.values) roots.push_back(p.mul(e, scale));
  ir.pointwise.outputs = compact(p, roots, ir.pointwise.program);

  ir.signature = form.signature;
  ir.dim = dim;
  ir.rank = options.rank;
  ir.affine = affine;
  ir.domain = options.domain;
  ir.facet = options.facet;
  ir.coefficients = form.coefficients;
  ir.constants = form.constants;
  ir.n_test_basis = lagrange_dimension(dim, form.signature.element.degree);
  set_test_terms(ir, split.terms);
  build_groups(form, ir);
  mark_varying(ir.pointwise);
  mark_recomputed(ir.pointwise);
  return ir;
}

}  // namespace

bool is_zero_form(const Form &form)
{
  for (const IntegralDomain &d : integral_domains(form)) {
    const Form part = restricted_to(form, d);
    try {
      Program p;
      const bool facet = d.type == IntegralDomain::Type::ExteriorFacet;
      Geometry geo = build_geometry(p, form.dim(), form.signature.coordinate_degree == 1, facet ? 0 : -1);
      Scalarizer scalarize(p, geo);
      const Integrand integrand = scalarize_integrals(part, p, scalarize);
      if (!split_by_test_terms(p, integrand.sum).terms.empty()) return false;
    } catch (const IntegralError &e) {  // located at its integral, as lower_form does
      const Integral &i = part.integrals[e.integral];
      const std::string at = location_prefix(form, i.line, i.col);
      throw FormError((at.empty() ? location_prefix(form, form.line, form.col) : at) + e.what());
    } catch (const FormError &e) {
      throw FormError(location_prefix(form, form.line, form.col) + e.what());
    }
  }
  return true;
}

ActionIR lower_form(const Form &full_form, const LowerOptions &options)
{
  check_declared_elements(full_form);  // located at the declaration itself, not at 'a = ...'
  const bool on_facet = options.domain.type == IntegralDomain::Type::ExteriorFacet;
  if (on_facet != (options.facet >= 0) || options.facet > full_form.dim())
    throw std::invalid_argument("lower_form: facet " + std::to_string(options.facet) + " for the domain " + describe_domain(options.domain));
  const Form form = restricted_to(full_form, options.domain);
  if (form.integrals.empty())
    throw FormError(location_prefix(form, form.line, form.col) + "the form has no " + describe_domain(options.domain) + " integrals");
  try {
    return lower(form, options);
  } catch (const IntegralError &e) {
    const Integral &i = form.integrals[e.integral];
    std::string at = location_prefix(form, i.line, i.col);
    throw FormError((at.empty() ? location_prefix(form, form.line, form.col) : at) + e.what());
  } catch (const FormError &e) {
    throw FormError(location_prefix(form, form.line, form.col) + e.what());
  }
}

}  // namespace femgpu
