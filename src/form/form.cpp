// Form terminals, tables of coefficients and constants (the form-level derivative is
// in form_derivative.cpp).
#include "form/form.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

namespace femgpu {

int cell_dim(CellType cell) { return cell == CellType::Triangle ? 2 : 3; }
const char *cell_name(CellType cell) { return cell == CellType::Triangle ? "triangle" : "tetrahedron"; }
const char *cell_plural(CellType cell) { return cell == CellType::Triangle ? "triangles" : "tetrahedra"; }

CellType cell_from_name(const std::string &name)
{
  if (name == "triangle") return CellType::Triangle;
  if (name == "tetrahedron") return CellType::Tetrahedron;
  throw FormError("unsupported cell '" + name + "' (femgpu supports triangle and tetrahedron)");
}

int lagrange_dimension(int dim, int degree)
{
  if (dim < 1 || dim > 3) throw std::invalid_argument("Lagrange element: dim must be 1, 2 or 3, got " + std::to_string(dim));
  if (degree < 0) throw std::invalid_argument("Lagrange element: negative degree " + std::to_string(degree));
  const int k = degree;
  if (dim == 1) return k + 1;
  if (dim == 2) return (k + 1) * (k + 2) / 2;
  return (k + 1) * (k + 2) * (k + 3) / 6;
}

int lagrange_interior_dimension(int dim, int degree)
{
  lagrange_dimension(dim, degree);  // checks dim and degree
  return degree > dim ? lagrange_dimension(dim, degree - dim - 1) : 0;
}

Shape element_shape(const Element &e) { return e.components == 1 ? Shape{} : Shape{e.components}; }

std::string describe_element(const Element &e, CellType cell)
{
  std::string what = e.components == 1 ? " scalar" : " vector with " + std::to_string(e.components) + " components";
  const std::string family = e.degree == 0 ? "DG0" : "P" + std::to_string(e.degree);
  return family + what + " on " + cell_plural(cell);
}

Shape DeclaredElement::value_shape() const
{
  if (!is_mixed()) return vector ? Shape{components} : Shape{};
  int n = 0;
  for (const DeclaredElement &p : parts) {
    Shape s = p.value_shape();
    n += s.empty() ? 1 : s[0];
  }
  return Shape{n};
}

Element DeclaredElement::element() const { return Element{degree, vector ? components : 1}; }

FormBuilder::FormBuilder(const FormSignature &signature) : signature_(signature)
{
  const Element &e = signature.element;
  if (e.degree < 1 || e.degree > 8) throw FormError("element degree must be 1..8, got " + std::to_string(e.degree));
  if (e.components < 1 || e.components > 9)
    throw FormError("element components must be 1..9, got " + std::to_string(e.components));
  if (signature.coordinate_degree != 1 && signature.coordinate_degree != 2)
    throw FormError("coordinate degree must be 1 (affine) or 2, got " + std::to_string(signature.coordinate_degree));
}

Expr FormBuilder::test_function() const { return argument(0, element_shape(signature_.element), "v"); }
Expr FormBuilder::trial_function() const { return argument(1, element_shape(signature_.element), "u"); }
Expr FormBuilder::x() const { return spatial_coordinate(dim()); }
Expr FormBuilder::facet_normal() const { return femgpu::facet_normal(dim()); }
int FormBuilder::dim() const { return cell_dim(signature_.cell); }

Expr FormBuilder::coefficient(const std::string &name, std::optional<Element> element)
{
  Element e = element.value_or(signature_.element);
  for (size_t i = 0; i < coefficients_.size(); ++i) {
    if (coefficients_[i].name != name) continue;
    if (coefficients_[i].element != e) throw FormError("coefficient '" + name + "' declared twice with different elements");
    return femgpu::coefficient(static_cast<int>(i), element_shape(e), name);
  }
  if (e.degree < 0 || e.degree > 8 || e.components < 1 || e.components > 9) throw FormError("coefficient '" + name + "' has an invalid element");
  coefficients_.push_back({name, e, !element.has_value()});
  return femgpu::coefficient(static_cast<int>(coefficients_.size() - 1), element_shape(e), name);
}

Expr FormBuilder::constant(const std::string &name, double default_value)
{
  for (size_t i = 0; i < constants_.size(); ++i) {
    if (constants_[i].name != name) continue;
    if (constants_[i].default_value != default_value)
      throw FormError("constant '" + name + "' declared twice with different default values");
    return femgpu::constant(static_cast<int>(i), name);
  }
  constants_.push_back({name, default_value});
  return femgpu::constant(static_cast<int>(constants_.size() - 1), name);
}

Integral FormBuilder::integral(const Expr &integrand, std::optional<int> degree, const IntegralDomain &domain)
{
  if (!is_scalar(integrand))
    throw FormError("an integrand must be scalar, got shape " + shape_string(integrand->shape) + " (use inner())");
  if (degree && (*degree < 0 || *degree > 60))
    throw FormError("quadrature degree must be 0..60, got " + std::to_string(*degree));
  Integral i;
  i.integrand = integrand;
  i.quadrature_degree = degree;
  i.domain = domain;
  return i;
}

std::string describe_domain(const IntegralDomain &d)
{
  if (d.type == IntegralDomain::Type::Cell) return "dx";
  return d.subdomain ? "ds(" + std::to_string(*d.subdomain) + ")" : "ds";
}

std::string location_prefix(const Form &form, int line, int col)
{
  if (form.source.empty() || line <= 0) return "";
  return form.source + ":" + std::to_string(line) + ":" + std::to_string(col) + ": ";
}

std::vector<IntegralDomain> integral_domains(const Form &form)
{
  std::vector<IntegralDomain> out;
  for (const Integral &i : form.integrals)
    if (std::find(out.begin(), out.end(), i.domain) == out.end()) out.push_back(i.domain);
  std::sort(out.begin(), out.end());
  return out;
}

Form restricted_to(const Form &form, const IntegralDomain &domain)
{
  Form f = form;
  f.integrals.clear();
  for (const Integral &i : form.integrals)
    if (i.domain == domain) f.integrals.push_back(i);
  return f;
}

Form on_element(const Form &form, const FormSignature &to)
{
  const FormSignature &from = form.signature;
  if (to.cell != from.cell || to.element.components != from.element.components)
    throw FormError("on_element: a form read for " + describe_element(from.element, from.cell) + " cannot move to " +
                    describe_element(to.element, to.cell) + " (only the degree may change)");
  Form f = form;
  f.signature = to;
  for (CoefficientInfo &c : f.coefficients)
    if (c.of_unknown) c.element = to.element;
  return f;
}

Form FormBuilder::make_form(const std::vector<Integral> &integrals) const
{
  if (integrals.empty()) throw FormError("a form needs at least one integral");
  Form f;
  f.signature = signature_;
  f.integrals = integrals;
  f.coefficients = coefficients_;
  f.constants = constants_;
  f.declarations = declarations_;
  return f;
}

namespace {

// The expression with every node of argument `number` (0: v, 1: u) replaced by `by`;
// nodes without one are returned as they are (so the rebuilt DAG shares what it can).
Expr replace_arg(const Expr &e, int number, const Expr &by, std::unordered_map<const Node *, Expr> *memo)
{
  if (auto it = memo->find(e.get()); it != memo->end()) return it->second;
  Expr out = e;
  if (e->op == Op::Argument && e->index == number) {
    const char *name = number == 1 ? "u" : "v";
    if (by->shape != e->shape)
      throw FormError(std::string("replacing ") + name + ": the replacement has shape " + shape_string(by->shape) + ", " + name + " has " +
                      shape_string(e->shape));
    out = by;
  } else if (!e->operands.empty()) {
    std::vector<Expr> operands;
    bool changed = false;
    for (const Expr &o : e->operands) {
      operands.push_back(replace_arg(o, number, by, memo));
      changed = changed || operands.back() != o;
    }
    if (changed) {
      auto copy = std::make_shared<Node>(*e);
      copy->operands = std::move(operands);
      out = copy;
    }
  }
  memo->emplace(e.get(), out);
  return out;
}

}  // namespace

std::vector<Integral> replace_trial_function(const std::vector<Integral> &a, const Expr &by) { return replace_argument(a, 1, by); }

std::vector<Integral> replace_argument(const std::vector<Integral> &a, int number, const Expr &by)
{
  std::unordered_map<const Node *, Expr> memo;
  std::vector<Integral> out;
  for (Integral i : a) {
    i.integrand = replace_arg(i.integrand, number, by, &memo);
    out.push_back(i);
  }
  return out;
}

}  // namespace femgpu
