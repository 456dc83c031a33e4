// UFL's free-index notation in form files: Index values, A[i, j], implicit summation
// over an index repeated in a product or a subscript, f.dx(i), as_tensor(f, (i, j)).
//
// Takes: evaluated operands (parse_value.h); an Expr value with free indices carries
// them as the leading axes of its expression, one axis per index (Value::free), so
// A[i, j] is A itself with free (i, j) and u[i]*v[i] is the sum of its components.
// Returns: new Values whose expressions are ordinary tensor expressions (ListTensor,
// Indexed, Sum, Product, Grad): summation is expanded while parsing, as UFL's
// expand_indices would, so lowering never sees an index.
// Errors (at the operator or the index): an index used three times in one product or
// subscript, free indices that differ across '+', a free index left in an integrand or
// a function argument (to_expr), extents that disagree (i of length 2 and 3), as_tensor
// with a non-scalar expression, an index that is not free, or the wrong count for
// as_vector/as_matrix, and .dx() with an integer outside 0..d-1.
// Does not: parse; parse_ops.cpp and parse_builtins.cpp call it when an operand has free
// indices or an index is an Index.
#pragma once

#include <string>
#include <vector>

#include "form/parse_builtins.h"

namespace femgpu::parse {

bool has_free_indices(const Value &v);

// a[indices] where an index is an Index or `a` has free indices.
Value index_with_free(Context &ctx, const Value &a, const std::vector<Value> &indices, const std::vector<Loc> &locs, Loc loc);

// a op b (op: + - * /) where an operand has free indices; numbers are literals.
Value free_binary(Context &ctx, const std::string &op, const Value &a, const Value &b, Loc loc);

// -a and a.T on each component of an expression with free indices.
Value free_negate(Context &ctx, const Value &a, Loc loc);
Value free_transpose(Context &ctx, const Value &a, Loc loc);

// f.dx(i, ...): the derivative along x_i of every component (UFL's f.dx, Dx(f, i)).
Value partial_derivative(Context &ctx, const Value &f, const CallArgs &args, Loc loc);

// as_tensor(f, (i, j)), as_vector(f, i), as_matrix(f, (i, j)): binds free indices of
// the scalar f as the axes of a tensor.
Value bind_indices(Context &ctx, const std::string &name, const CallArgs &args, Loc loc);

}  // namespace femgpu::parse
