// Blocks of a form on a mixed element: substitute one field of v and of u, zero the rest.
#include "form/mixed_blocks.h"

#include <algorithm>

namespace femgpu {

namespace {

using Role = FunctionDeclaration::Role;

const DeclaredElement *mixed_declaration(const Form &form, Role role)
{
  for (const FunctionDeclaration &d : form.declarations)
    if (d.role == role && d.element.is_mixed()) return &d.element;
  return nullptr;
}

int part_size(const Element &e) { return e.components; }

// "<source>:<line>:<col>: " of the form's 'a = ...' for a file's form, "" otherwise.
std::string located(const Form &form) { return location_prefix(form, form.line, form.col); }

// (0, .., f, .., 0) of the mixed value shape: f's components at field `field`'s offset.
Expr embedded(const Expr &f, const std::vector<Element> &fields, int field)
{
  std::vector<Expr> comps;
  for (int k = 0; k < static_cast<int>(fields.size()); ++k) {
    const int n = part_size(fields[static_cast<size_t>(k)]);
    for (int c = 0; c < n; ++c) {
      if (k != field) comps.push_back(literal(0.0));
      else comps.push_back(f->shape.empty() ? f : indexed(f, {c}));
    }
  }
  return as_vector(comps);
}

}  // namespace

std::vector<Element> mixed_fields(const Form &form)
{
  const DeclaredElement *test = mixed_declaration(form, Role::Test), *trial = mixed_declaration(form, Role::Trial);
  if (!test && !trial) return {};
  if (!test || !trial || test->text != trial->text)
    throw FormError(located(form) + "a mixed form needs its test and trial functions on the same mixed element; the test function is on " +
                    (test ? test->text : std::string("a single field")) + ", the trial function on " +
                    (trial ? trial->text : std::string("a single field")));
  std::vector<Element> fields;
  for (const DeclaredElement &p : test->parts) {
    if (p.is_mixed()) throw FormError(located(form) + "a mixed element inside a mixed element (" + test->text + ") is not supported");
    if (p.degree < 1)
      throw FormError(located(form) + "the mixed element " + test->text + " has a DG0 part: fields of a fem_gpu Mat are continuous Lagrange");
    fields.push_back(p.element());
  }
  return fields;
}

std::string block_trial_coefficient(const Form &form, int trial_field)
{
  std::string name = "u_" + std::to_string(trial_field);
  auto taken = [&](const std::string &n) {
    return std::any_of(form.coefficients.begin(), form.coefficients.end(), [&](const CoefficientInfo &c) { return c.name == n; });
  };
  while (taken(name)) name += "_";
  return name;
}

Form mixed_block(const Form &form, int test_field, int trial_field)
{
  const std::vector<Element> fields = mixed_fields(form);
  if (test_field < 0 || trial_field < 0 || test_field >= static_cast<int>(fields.size()) || trial_field >= static_cast<int>(fields.size()))
    throw FormError(located(form) + "mixed_block: no block (" + std::to_string(test_field) + ", " + std::to_string(trial_field) + ") in a form with " +
                    std::to_string(fields.size()) + " fields");
  const Element &ei = fields[static_cast<size_t>(test_field)], &ej = fields[static_cast<size_t>(trial_field)];
  Form block = form;
  block.signature.element = ei;
  block.declarations.clear();  // the mixed u and v are gone; coefficients keep their claims
  for (const FunctionDeclaration &d : form.declarations)
    if (d.role == Role::Coefficient) block.declarations.push_back(d);
  Expr u;
  if (test_field == trial_field) {
    u = argument(1, element_shape(ej), "u");
  } else {
    const std::string name = block_trial_coefficient(form, trial_field);
    u = coefficient(static_cast<int>(block.coefficients.size()), element_shape(ej), name);
    block.coefficients.push_back(CoefficientInfo{name, ej});
  }
  block.integrals = replace_argument(form.integrals, 0, embedded(argument(0, element_shape(ei), "v"), fields, test_field));
  block.integrals = replace_argument(block.integrals, 1, embedded(u, fields, trial_field));
  return block;
}

std::string describe_fields(const std::vector<Element> &fields, CellType cell)
{
  std::string s = "[";
  for (size_t k = 0; k < fields.size(); ++k) s += (k ? ", " : "") + describe_element(fields[k], cell);
  return s + "]";
}

std::string fields_mismatch(const Form &form, const std::vector<Element> &dm_fields)
{
  const std::vector<Element> mine = mixed_fields(form);
  const DeclaredElement *w = mixed_declaration(form, Role::Test);
  const std::string theirs = "the DM has " + std::to_string(dm_fields.size()) + " field" + (dm_fields.size() == 1 ? "" : "s") + " " +
                             describe_fields(dm_fields, form.signature.cell);
  if (mine.empty()) return "the form is not on a mixed element (its u and v are on one field), but " + theirs;
  if (mine == dm_fields) return "";
  return "the form's mixed element " + w->text + " has " + std::to_string(mine.size()) + " fields " +
         describe_fields(mine, form.signature.cell) + ", but " + theirs;
}

}  // namespace femgpu
