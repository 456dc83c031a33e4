// Values of the form-file interpreter, and the context they are evaluated in.
//
// Takes: results of the parser (numbers, UFL expressions, forms, measures, lists ...).
// Returns: Value, a small tagged union with Python's number semantics (ints stay exact
// while arithmetic is pure numbers; mixing with an expression makes a literal), and
// Context, which owns the name table and checks every built expression (depth and size
// limits, so no later recursive pass can overflow the stack).
// Does not: parse text (parser.cpp) or know the builtin functions (parse_builtins.cpp).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "form/form.h"
#include "form/lexer.h"

namespace femgpu::parse {

constexpr int kMaxNesting = 100;         // brackets/unary operators in one expression
constexpr int kMaxExprDepth = 1000;      // depth of a built expression DAG
constexpr int kMaxTensorRank = 6;
constexpr int64_t kMaxTensorSize = 4096;  // components of one tensor-valued expression

// Index: a UFL free index (i = Index(), indices(n)); Element: a declared element;
// Cell: triangle / tetrahedron (or a Mesh of them).
enum class Kind { Int, Float, Expr, Form, Measure, Function, List, String, Dict, Index, Element, Cell };

struct Value {
  Kind kind = Kind::Int;
  int64_t i = 0;
  double f = 0.0;
  Expr e;
  std::vector<Integral> form;
  std::optional<int> degree;       // Measure: dx(degree=q)
  IntegralDomain domain;           // Measure: dx, ds or ds(id)
  std::string s;                   // String text, Function name
  std::vector<Value> items;        // List items, Dict values
  std::vector<std::string> keys;   // Dict keys
  // Expr with free indices (parse_indices.h): the ids of e's leading axes, one per free
  // index, and the indices already summed inside it (for the "three times" check).
  std::vector<int> free, summed;
  std::shared_ptr<const DeclaredElement> element;  // Element
  CellType cell = CellType::Triangle;              // Cell; i = coordinate degree of a Mesh, else 0

  static Value of_int(int64_t v);
  static Value of_float(double v);
  static Value of_expr(Expr v);
  static Value of_form(std::vector<Integral> v);
  static Value measure(std::optional<int> degree, const IntegralDomain &domain = {});
  static Value function(const std::string &name);
  static Value list(std::vector<Value> v);
  static Value string(const std::string &v);
  static Value index(int id);
  static Value of_element(DeclaredElement e);
  static Value of_cell(CellType c, int coordinate_degree = 0);

  bool is_number() const { return kind == Kind::Int || kind == Kind::Float; }
  double number() const { return kind == Kind::Int ? static_cast<double>(i) : f; }
};

// "int", "float", "expression of shape (2,)", "form", "measure", ...
std::string type_name(const Value &v);

class Context {
 public:
  Context(FormBuilder *builder, int dim) : builder(builder), dim(dim) {}

  FormBuilder *builder;  // null for a lone interpolation expression
  int dim;
  Element element;       // the element of u and v
  std::map<std::string, Value> env;
  std::map<std::string, Loc> defined_at;  // where the file assigned each name
  std::map<int, std::string> index_names;  // free index id -> the name it was given
  int next_index = 0;
  // The statement 'name = Call(...)' being evaluated, and where its call starts:
  // Coefficient(V) and Constant(cell) take the name they are assigned to, as UFL files
  // expect (femgpu binds coefficients and constants by name).
  std::string call_target;
  Loc call_target_loc{0, 0};

  // Functions on a mixed element (TrialFunction(W), Coefficient(W)), for split().
  std::map<const Node *, std::shared_ptr<const DeclaredElement>> mixed_functions;

  Value new_index(const std::string &name = "");  // "" until an assignment names it
  std::string index_name(int id) const;

  // Runs a builder; its FormError is reported at `loc`, and the result is checked.
  template <class F>
  Expr build(Loc loc, F &&f)
  {
    Expr e;
    try {
      e = f();
    } catch (const FormError &err) {
      fail_at(loc, err.what());
    }
    return checked(e, loc);
  }
  Expr checked(const Expr &e, Loc loc);

 private:
  int depth_of(const Expr &e);
  std::unordered_map<const Node *, int> depth_;
  std::vector<Expr> keep_;  // keeps registered nodes alive so addresses are not reused
};

// Numbers become literals; anything else that is not an expression is an error
// naming `what` (e.g. "grad() argument 1").
Expr to_expr(const Value &v, Loc loc, const std::string &what);
int64_t to_int(const Value &v, Loc loc, const std::string &what);

// DAG walks with a visited set (shared subexpressions are seen once).
bool contains_argument(const Expr &e, int number);
bool is_constant_expression(const Expr &e);  // only literals, Constants and Identity
std::vector<int> coefficient_slots(const Expr &e);

// Python int/float arithmetic: op is one of + - * / **; overflow and division by zero
// are errors, never UB or inf.
Value number_binary(const std::string &op, const Value &a, const Value &b, Loc loc);
Value number_negate(const Value &a, Loc loc);

}  // namespace femgpu::parse
