// A bilinear form on a mixed element (TrialFunctions(W), TestFunctions(W)) split into
// its blocks: block (i, j) is the part of a(u, v) that pairs field i of v with field j
// of u, as a form on single-field elements that lowering already takes.
//
// Takes: a Form whose test and trial functions were made on the same MixedElement
// (form.declarations), of Lagrange parts (scalar or vector).
// Returns: mixed_fields: the parts' elements (empty for a form that is not mixed);
// mixed_block(form, i, j): the form with v replaced by (0, .., v_i, .., 0) and u by
// (0, .., u_j, .., 0). A diagonal block (i == i) is an ordinary bilinear form on E_i. An
// off-diagonal block is written as a residual (rank 1) on test element E_i whose trial
// part is a Coefficient in E_j (named by block_trial_coefficient): its "residual" with
// that coefficient bound to x_j is the block's action A_ij x_j, so it runs on the
// kernels that evaluate coefficients in their own element (every schedule and backend).
// The blocks' signatures keep the form's cell and coordinate degree.
// fields_mismatch: "" when the form's fields are the DM's (count, components, degree),
// else a message naming both.
// Does not: decide which blocks are zero (lowering's is_zero_form does) or check
// linearity in u (the diagonal blocks are lowered as bilinear forms, which checks
// them; an off-diagonal block's linearity in its trial coefficient is not checked).
#pragma once

#include <string>
#include <vector>

#include "form/form.h"

namespace femgpu {

std::vector<Element> mixed_fields(const Form &form);

std::string block_trial_coefficient(const Form &form, int trial_field);

Form mixed_block(const Form &form, int test_field, int trial_field);

std::string fields_mismatch(const Form &form, const std::vector<Element> &dm_fields);

// "[P2 vector with 2 components on triangles, P1 scalar on triangles]": for messages.
std::string describe_fields(const std::vector<Element> &fields, CellType cell);

}  // namespace femgpu
