// Constant folding on the kernel AST, so that generated code says what it computes:
// `i_basis` rather than `(i_basis * 1) + 0`, `i < N` rather than `1 && (i < N)`.
// Builders write index arithmetic uniformly (component c of C, derivative d of a
// table stack) and leave the cases c = 0, C = 1, d = 0 to this pass.
//
// Takes: a Kernel (or one expression with the types of the names it reads).
// Returns: an equal kernel whose expressions are folded. Integer and boolean constants
// fold completely; a real expression folds only where IEEE arithmetic gives the same
// bits: x * 1, 1 * x, x / 1, x - 0; and x + 0, 0 + x, which differ only for x = -0.0
// (-0.0 + 0.0 is +0.0). That difference cannot show here: a signed zero reaches an
// output only through sums and products, where -0.0 and +0.0 compare and add alike, and
// kernels do not divide by a value that can be an exact zero of either sign. A real
// product with 0 is not folded (0 * NaN is NaN, 0 * -x is -0), nor is an identity whose
// folding would change the expression's type (0.0 + i for an integer i).
// Does not: reorder, reassociate or fold two real literals (FP32 kernels would round
// differently from the host), or touch statements beyond their expressions.
#pragma once

#include <map>
#include <string>

#include "kernel/kernel_ast.h"

namespace femgpu::kernel {

// The type of each name an expression may read; a name that is absent has an unknown
// type, and nothing that depends on it is folded. Arrays map to their element type.
using NameTypes = std::map<std::string, Type>;

Ex fold(const Ex &e, const NameTypes &names);

// Every expression of the kernel folded, with the types its sizes (integers), parameters,
// declarations and loop indices give each name in its scope.
Kernel fold_constants(const Kernel &k);

}  // namespace femgpu::kernel
