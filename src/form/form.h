// A variational form: integrals over cells (dx) or exterior facets (ds, ds(id)) of
// scalar expressions, plus the tables of
// named coefficients and constants they refer to, and the elements of u and v.
//
// Takes: expressions from expr.h (built by the C++ API or by the parser).
// Returns: an immutable value that src/ir/lower.cpp turns into an ActionIR.
// Does not: check linearity (lowering does, where it sees the scalar program).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "form/expr.h"

namespace femgpu {

enum class CellType { Triangle, Tetrahedron };

int cell_dim(CellType cell);
const char *cell_name(CellType cell);
const char *cell_plural(CellType cell);  // "triangles", "tetrahedra"
CellType cell_from_name(const std::string &name);  // "triangle" | "tetrahedron"; throws FormError

// A continuous Lagrange element P_degree with `components` components (1 = scalar).
struct Element {
  int degree = 1;
  int components = 1;
  bool operator==(const Element &o) const { return degree == o.degree && components == o.components; }
  bool operator!=(const Element &o) const { return !(*this == o); }
};

// Scalar basis functions of P_degree on the simplex of dimension dim (1, 2 or 3):
// k+1, (k+1)(k+2)/2 or (k+1)(k+2)(k+3)/6. Throws std::invalid_argument otherwise.
int lagrange_dimension(int dim, int degree);
// Of those, the ones whose node lies inside the simplex (on no vertex, edge or face):
// lagrange_dimension(dim, degree - dim - 1), none below degree dim + 1. PetscFE's basis
// order (the closure's, the cell first) puts them first.
int lagrange_interior_dimension(int dim, int degree);

// Shape of a function in element `e`: () for scalars, (components) for vectors.
Shape element_shape(const Element &e);
// "P2 vector with 3 components on tetrahedra", "P1 scalar on triangles": for messages.
std::string describe_element(const Element &e, CellType cell);

struct CoefficientInfo {
  std::string name;
  Element element;
  // Made without an element (Coefficient("w")): it lives in the unknown's element, and a
  // form moved to another degree (on_element) moves it too. False for one declared in an
  // element of its own, which stays where it was declared.
  bool of_unknown = false;
};

// An element a form file declared in UFL's own words (FiniteElement, VectorElement,
// MixedElement), with where: femgpu takes the element from the DM (FormSignature), so
// a declared one is a claim that is checked against it (declared_elements.h).
struct DeclaredElement {
  CellType cell = CellType::Triangle;
  int degree = 1;
  int components = 1;                  // 1 for FiniteElement; n for VectorElement
  bool vector = false;                 // VectorElement: value shape (components,)
  std::vector<DeclaredElement> parts;  // a MixedElement's elements; empty otherwise
  std::string text;                    // as written, for messages: VectorElement("Lagrange", triangle, 2)
  int line = 0, col = 0;               // where the file wrote it

  bool is_mixed() const { return !parts.empty(); }
  Shape value_shape() const;  // () scalar, (n,) vector, (sum of the parts' sizes,) mixed
  Element element() const;    // the femgpu element (not for a mixed one)
};

// A function the file made on a declared element: TrialFunction(V), TestFunction(V) or
// Coefficient(V) (slot: its index in Form::coefficients), and where it was made.
struct FunctionDeclaration {
  enum class Role { Test, Trial, Coefficient };
  Role role = Role::Trial;
  int slot = -1;
  DeclaredElement element;
  int line = 0, col = 0;
};

struct ConstantInfo {
  std::string name;
  double default_value = 0.0;
};

// Where an integral is taken: over the cells (dx), or over the exterior facets (ds),
// all of them or those whose boundary label has value `subdomain` (ds(subdomain)).
struct IntegralDomain {
  enum class Type { Cell, ExteriorFacet };
  Type type = Type::Cell;
  std::optional<int> subdomain;  // ExteriorFacet only; none: every exterior facet
  bool operator==(const IntegralDomain &o) const { return type == o.type && subdomain == o.subdomain; }
  bool operator!=(const IntegralDomain &o) const { return !(*this == o); }
  bool operator<(const IntegralDomain &o) const
  {
    return type != o.type ? type < o.type : subdomain < o.subdomain;
  }
};
std::string describe_domain(const IntegralDomain &d);  // "dx", "ds", "ds(3)"

// One integral, `integrand * dx` or `integrand * ds(i)` (optionally with degree=q).
// line:col is where a form file wrote its '*dx' (0: not from a file), so lowering can
// point at it.
struct Integral {
  Expr integrand;
  std::optional<int> quadrature_degree;
  IntegralDomain domain;
  int line = 0, col = 0;
};

// What the form is defined on: the cell, the element shared by u and v, and the
// coordinate element (degree 1 = affine, 2 = curved P2 geometry).
struct FormSignature {
  CellType cell = CellType::Triangle;
  Element element;
  int coordinate_degree = 1;
};

struct Form {
  FormSignature signature;
  std::vector<Integral> integrals;
  std::vector<CoefficientInfo> coefficients;
  std::vector<ConstantInfo> constants;
  std::vector<FunctionDeclaration> declarations;  // only from UFL-style files
  // The form file and its 'a = ...' (or 'F = ...') line:col; empty from the C++ API.
  // Lowering prefixes its errors with them, as the parser does.
  std::string source;
  int line = 0, col = 0;

  int dim() const { return cell_dim(signature.cell); }
};

// "<source>:<line>:<col>: " for a form read from a file (errors located at line:col of
// it), "" for one from the C++ API or without a line.
std::string location_prefix(const Form &form, int line, int col);

// The domains the form integrates over, each once, cells first.
std::vector<IntegralDomain> integral_domains(const Form &form);
// The form with only its integrals over `domain` (possibly none).
Form restricted_to(const Form &form, const IntegralDomain &domain);
// The form read for another element of the same shape (a p-multigrid level's degree):
// u, v and the coefficients made without an element take `to`'s element, the rest stays;
// the same form as reading its text for `to` gives, without reading it again.
// Throws FormError when `to` has another cell or number of components.
Form on_element(const Form &form, const FormSignature &to);

// Builds a form's terminals with the right shapes and keeps the coefficient and
// constant tables. Used by the C++ API and the parser alike.
class FormBuilder {
 public:
  explicit FormBuilder(const FormSignature &signature);

  Expr test_function() const;   // v
  Expr trial_function() const;  // u
  Expr x() const;
  Expr facet_normal() const;  // n, the unit outward normal (ds integrals only)
  int dim() const;
  // Coefficient in `element` (default: the element of u); the same name twice returns
  // the same coefficient when the element agrees, and throws FormError otherwise.
  Expr coefficient(const std::string &name, std::optional<Element> element = std::nullopt);
  Expr constant(const std::string &name, double default_value);
  // Records a function made on a declared element, for lowering's checks.
  void declare(const FunctionDeclaration &d) { declarations_.push_back(d); }
  const FormSignature &signature() const { return signature_; }

  // integrand * dx (or over `domain`); the integrand must be scalar.
  static Integral integral(const Expr &integrand, std::optional<int> degree = std::nullopt, const IntegralDomain &domain = {});

  Form make_form(const std::vector<Integral> &integrals) const;
  const std::vector<CoefficientInfo> &coefficients() const { return coefficients_; }

 private:
  FormSignature signature_;
  std::vector<CoefficientInfo> coefficients_;
  std::vector<ConstantInfo> constants_;
  std::vector<FunctionDeclaration> declarations_;
};

// Gateaux derivative of F in w along du, integral by integral: derivative(F, w, du) of
// every integral that depends on w (depends_on below). The others (a load f*v*dx, a flux
// g*v*ds(1), a step in w) have derivative zero and are left out, so a domain whose terms
// are all free of w is not in the result: it has no Jacobian terms, and a ds(i) part
// without v is no operator. A kept integral gets the largest dx(degree=...) /
// ds(degree=...) of its domain in F, so its rule stays the residual's. Empty when no
// integral of F depends on w (the callers say so: the Jacobian would be zero).
std::vector<Integral> derivative(const std::vector<Integral> &F, const Expr &w, const Expr &du);

// Whether the Gateaux derivative of f in the Coefficient w can be non-zero: whether w
// reaches f along a path the derivative follows. Not through a condition (lt, eq, And ...:
// a step, whose derivative is zero wherever it is defined), sign(), or the coefficient
// slot of an inner derivative(g, w, du). False: derivative(f, w, du) is identically zero.
bool depends_on(const Expr &f, const Expr &w);

// Every integral with the trial function u replaced by `by` (of u's shape): a(u, v)
// becomes a(w, v), the action of a bilinear form on a coefficient. Shared subexpressions
// stay shared; `variable` labels are kept, so diff() still finds its variable.
std::vector<Integral> replace_trial_function(const std::vector<Integral> &a, const Expr &by);
// The same for argument `number` (0: the test function v, 1: the trial function u).
std::vector<Integral> replace_argument(const std::vector<Integral> &a, int number, const Expr &by);

}  // namespace femgpu
