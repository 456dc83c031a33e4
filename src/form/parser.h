// Public entry points of the UFL-syntax parser.
//
// Takes: the text of a form file in a Python-like UFL subset (see parse_grammar.h for
// the grammar, share/femgpu/forms/ for examples) and the FormSignature to build on.
// Returns: the bilinear form `a` and, if the file defines it, the residual `F`. When
// only F is given, a = derivative(F, w, u) for the one Coefficient w in u's element;
// where F also holds w's time derivative w_t (time_dependent.h), TS's IJacobian
// a = derivative(F, w, u) + shift * derivative(F, w_t, u) (Constant "shift", declared or not).
// A linear problem may be given as `a` and a right-hand side `L(v)`: then
// F(w; v) = a(w, v) - L(v), for a new Coefficient w (named "w", or "w_1", ... when the
// file already has a w). A file with `L` alone has F = -L(v) and no `a` (an empty form:
// has_bilinear() is false); defining both `F` and `L` is an error. A file whose `a` is
// derivative(L, w, du) (FFC's nonlinear demos) has the residual F = L instead; and
// beside `a` or `L`, an `F` that is not a form is an ordinary variable (the deformation
// gradient of those demos).
// Errors: every failure is a FormError "<source>:<line>:<col>: <what>". Input is
// bounded (1 MiB, 100000 tokens, 100 nesting levels, expression depth 1000), so no
// input can crash, hang or overflow the stack.
// Does not: check linearity or lower anything (src/ir does).
#pragma once

#include <optional>
#include <string>

#include "form/form.h"

namespace femgpu {

struct ParsedForms {
  Form a;                  // no integrals when the file defines only L
  std::optional<Form> F;
  std::optional<Form> L;   // the right-hand side, as written
  bool has_bilinear() const { return !a.integrals.empty(); }
};

ParsedForms parse_form_text(const std::string &text, const std::string &source_name, const FormSignature &sig);
// The path is the source name in messages; the file is read by read_form_file
// (form_file.h), so an unreadable, unbounded or non-UTF-8 file is a FormError too.
ParsedForms parse_form_file(const std::string &path, const FormSignature &sig);

// One expression in x (and d, pi, e, numbers, and the expression functions) for
// interpolation, e.g. "x[0]**2*x[1] + 1" or "as_vector([x[1], -x[0]])"; dim is 2 or 3.
Expr parse_expression(const std::string &text, const std::string &source_name, int dim);

}  // namespace femgpu
