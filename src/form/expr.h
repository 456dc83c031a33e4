// Symbolic UFL-like expressions: an immutable DAG of tensor-valued nodes.
//
// Takes: nothing but other expressions; builders check shapes as UFL does and throw
// FormError (message only; the parser adds file:line:col).
// Returns: shared, immutable nodes. Lowering (src/ir) turns them into scalar SSA.
// Does not: simplify, differentiate or evaluate; that happens in src/ir/scalarize.cpp.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace femgpu {

// An error in a form: bad shapes, unknown names, unsupported constructs.
struct FormError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

using Shape = std::vector<int>;

enum class Op {
  // terminals
  Argument,           // index = 0 test (v), 1 trial (u)
  Coefficient,        // index into Form::coefficients
  Constant,           // index into Form::constants
  Literal,            // value
  SpatialCoordinate,  // x
  FacetNormal,        // n: the unit outward normal of the facet (ds integrals only)
  Identity,           // I (d x d)
  // arithmetic
  Sum, Product, Division, Power, Negate,
  // tensor algebra
  Inner, Dot, Outer, Transpose, Trace, Determinant, Inverse, Sym, Skew, Dev, Cross,
  Indexed,     // indices: fixed integers, one per leading axis given
  ListTensor,  // as_vector / as_matrix: operands are the rows
  // differential operators (physical coordinates)
  Grad, Div, NablaGrad, NablaDiv, Curl,
  // scalar functions and conditionals
  MathFunction,  // name: sqrt exp ln abs sin cos tan asin acos atan sinh cosh tanh erf sign
  MinValue, MaxValue,
  Condition,     // name: lt le gt ge eq ne and or not; scalar, shape ()
  Conditional,   // operands: condition, true value, false value
  // symbolic differentiation
  Variable,    // index = unique label
  Diff,        // operands: f, variable
  Derivative,  // operands: f, coefficient w, direction du (Gateaux derivative)
};

struct Node;
using Expr = std::shared_ptr<const Node>;

struct Node {
  Op op;
  Shape shape;
  std::vector<Expr> operands;
  double value = 0.0;        // Literal
  int index = 0;             // Argument number, Coefficient/Constant slot, Variable label
  std::string name;          // MathFunction / Condition name, terminal name for printing
  std::vector<int> indices;  // Indexed
};

int rank(const Expr &e);
bool is_scalar(const Expr &e);
std::string shape_string(const Shape &s);
std::string to_string(const Expr &e);  // UFL-like text, for messages and debugging

// Terminals. Shapes come from the form's elements (see form.h).
Expr argument(int number, const Shape &shape, const std::string &name);
Expr coefficient(int slot, const Shape &shape, const std::string &name);
Expr constant(int slot, const std::string &name);
Expr literal(double value);
Expr spatial_coordinate(int dim);
Expr facet_normal(int dim);
Expr identity(int dim);

// Arithmetic with UFL's rules: '*' is scalar scaling, or matrix-vector/matrix-matrix
// product; '/' divides by a scalar; '**' needs a scalar exponent (a tensor squared is
// inner(a, a), as in UFL).
Expr add(const Expr &a, const Expr &b);
Expr sub(const Expr &a, const Expr &b);
Expr mul(const Expr &a, const Expr &b);
Expr divide(const Expr &a, const Expr &b);
Expr power(const Expr &a, const Expr &b);
Expr negate(const Expr &a);

Expr inner(const Expr &a, const Expr &b);
Expr dot(const Expr &a, const Expr &b);
Expr outer(const Expr &a, const Expr &b);
Expr cross(const Expr &a, const Expr &b);
Expr transpose(const Expr &a);
Expr trace(const Expr &a);
Expr determinant(const Expr &a);
Expr inverse(const Expr &a);
Expr sym(const Expr &a);
Expr skew(const Expr &a);
Expr dev(const Expr &a);
Expr indexed(const Expr &a, const std::vector<int> &indices);
Expr as_vector(const std::vector<Expr> &components);
Expr as_matrix(const std::vector<std::vector<Expr>> &rows);

// dim is the geometric dimension: grad appends an axis of that length.
Expr grad(const Expr &a, int dim);
Expr div(const Expr &a, int dim);
Expr nabla_grad(const Expr &a, int dim);
Expr nabla_div(const Expr &a, int dim);
Expr curl(const Expr &a, int dim);

Expr math_function(const std::string &name, const Expr &a);
Expr min_value(const Expr &a, const Expr &b);
Expr max_value(const Expr &a, const Expr &b);
Expr condition(const std::string &name, const Expr &a, const Expr &b);  // lt le gt ge eq ne and or
Expr logical_not(const Expr &a);
Expr conditional(const Expr &cond, const Expr &t, const Expr &f);

Expr variable(const Expr &a);  // a fresh label each call
Expr diff(const Expr &f, const Expr &var);
// Gateaux derivative of f with respect to coefficient w in direction du (same shape as w).
Expr derivative(const Expr &f, const Expr &w, const Expr &du);

bool is_math_function(const std::string &name);

}  // namespace femgpu
