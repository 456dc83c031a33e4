// Declared elements against the signature: the checks lowering runs first.
#include "form/declared_elements.h"

#include <algorithm>

#include "form/parse_value.h"

namespace femgpu {

namespace {

std::string at(int line, int col) { return std::to_string(line) + ":" + std::to_string(col); }

bool used(const Form &form, const FunctionDeclaration &d)
{
  for (const Integral &i : form.integrals) {
    if (d.role == FunctionDeclaration::Role::Coefficient) {
      std::vector<int> slots = parse::coefficient_slots(i.integrand);
      if (std::find(slots.begin(), slots.end(), d.slot) != slots.end()) return true;
    } else if (parse::contains_argument(i.integrand, d.role == FunctionDeclaration::Role::Test ? 0 : 1)) {
      return true;
    }
  }
  return false;
}

const char *role_name(FunctionDeclaration::Role r)
{
  return r == FunctionDeclaration::Role::Test ? "test function" : "trial function";
}

}  // namespace

std::string element_mismatch(const DeclaredElement &declared, const FormSignature &sig)
{
  const Element want = sig.element;
  std::string dm = describe_element(want, sig.cell);
  if (declared.is_mixed()) return declared.text + " is a mixed element; the field it is read for is " + dm;
  if (declared.cell != sig.cell)
    return declared.text + " is on " + cell_plural(declared.cell) + "; the field it is read for is " + dm;
  if (declared.element() != want)
    return declared.text + " is " + describe_element(declared.element(), declared.cell) + "; the field it is read for is " + dm;
  return "";
}

void check_declared_elements(const Form &form)
{
  using Role = FunctionDeclaration::Role;
  for (const FunctionDeclaration &d : form.declarations) {
    if (!used(form, d)) continue;
    const DeclaredElement &e = d.element;
    const std::string where = location_prefix(form, e.line, e.col);
    if (d.role != Role::Coefficient && e.is_mixed())
      throw FormError(where + "the " + role_name(d.role) + " (made at " + at(d.line, d.col) + ") is on the mixed element " + e.text +
                      ": lowering takes one field; a form on a mixed element is lowered block by block (form/mixed_blocks.h), "
                      "as a fem_gpu Mat over a DM with one field per part does (femgpu-form and single-field Mats refuse it)");
    if (d.role != Role::Coefficient) {
      std::string why = element_mismatch(e, form.signature);
      if (!why.empty())
        throw FormError(where + "the " + role_name(d.role) + "'s element (made at " + at(d.line, d.col) + ") does not match: " + why);
      continue;
    }
    // A coefficient lives in its own element (the kernels evaluate it with its own
    // tables); only a mixed one has no single element to evaluate.
    const CoefficientInfo &c = form.coefficients.at(static_cast<size_t>(d.slot));
    if (e.is_mixed())
      throw FormError(where + "coefficient '" + c.name + "' (made at " + at(d.line, d.col) + ") is on the mixed element " + e.text +
                      ": coefficients on mixed elements are not supported yet (use one Coefficient per part)");
  }
}

}  // namespace femgpu
