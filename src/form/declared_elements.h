// Elements a UFL-style form file declared, checked against the element femgpu lowers
// the form for (FormSignature: the DM's field).
//
// Takes: a DeclaredElement and a signature, or a whole Form with its declarations.
// Returns: element_mismatch: "" when a declared FiniteElement/VectorElement is the
// signature's element, else what differs (cell, degree, value shape), naming both.
// check_declared_elements throws FormError "<source>:<line>:<col>: <what>" located at the
// declaration, for what lowering cannot take yet: a trial or test function on another
// element than the signature's or on a mixed element (mixed_blocks.h splits such a form into single-field blocks first), and a
// coefficient on a mixed element. A coefficient on another (non-mixed) element is fine:
// it is evaluated in its own element.
// Does not: parse (parse_ufl_elements.cpp makes the declarations).
#pragma once

#include <string>

#include "form/form.h"

namespace femgpu {

std::string element_mismatch(const DeclaredElement &declared, const FormSignature &sig);

void check_declared_elements(const Form &form);

}  // namespace femgpu
