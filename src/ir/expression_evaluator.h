// Point evaluation of an expression in x, for interpolating functions onto meshes.
//
// Takes: an expression that depends only on the spatial coordinate x (as
// parse_expression returns it), and the dimension.
// Returns: its value at any point, row-major over the expression's shape (one value for
// a scalar, d for a vector). It is lowered once to the scalar SSA of src/ir (so every
// operator the forms support works here too, grad of x included) and then evaluated.
// Errors: FormError when the expression refers to u, v, a coefficient or a constant.
// Does not: parse text (form/parser.h does) or know about meshes.
#pragma once

#include <vector>

#include "form/expr.h"
#include "ir/program.h"

namespace femgpu {

class ExpressionEvaluator {
 public:
  ExpressionEvaluator(const Expr &expression, int dim);

  const Shape &shape() const { return shape_; }
  int size() const { return static_cast<int>(outputs_.size()); }  // values per point
  // out[0 .. size()) = expression(x), x has dim entries.
  void evaluate(const double *x, double *out) const;

 private:
  Shape shape_;
  Program program_;
  std::vector<int> outputs_;
  std::vector<int> input_component_;  // per program input: the coordinate it reads
};

}  // namespace femgpu
