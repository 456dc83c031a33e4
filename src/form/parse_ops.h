// Python operators on form-file values: arithmetic, comparison, indexing, '.T'.
//
// Takes: evaluated operands and the operator's position.
// Returns: a new Value following Python/UFL rules: numbers stay numbers; expressions go
// through the builders (their FormError is reported at the operator); `expr*dx` makes
// a form; forms add, subtract, negate and scale by numbers or scalar constants.
// Does not: parse or call functions (parse_builtins.h).
#pragma once

#include <string>
#include <vector>

#include "form/parse_value.h"

namespace femgpu::parse {

Value binary_op(Context &ctx, const std::string &op, const Value &a, const Value &b, Loc loc);  // + - * / **
Value unary_op(Context &ctx, const std::string &op, const Value &a, Loc loc);                   // + -
Value compare_op(Context &ctx, const std::string &op, const Value &a, const Value &b, Loc loc);  // < <= > >= == !=
// a[i], a[i, j]: Python integer indices, negative ones counted from the end.
Value index_op(Context &ctx, const Value &a, const std::vector<Value> &indices, const std::vector<Loc> &locs, Loc loc);
Value attribute_op(Context &ctx, const Value &a, const std::string &name, Loc loc);

}  // namespace femgpu::parse
