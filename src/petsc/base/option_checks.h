// Options read with their range checked where they are declared.
//
// Takes: an options block (PetscOptionsBegin/End) and, per option, its name, help text,
// range and the value to update. Returns: the value, or a PETSc error that names the
// option and the reason first, then the text given (a long one by its two ends,
// form/quoted_text.h) and the range it must be in.
// Why: PETSc's readers take "99999999999" for a 32-bit PetscInt by wrapping it (to 32
// for 4294967328), and "nan" or "inf" for a real; options such as a candidate count of -1
// or a negative tile size were then taken as "unset" or ran almost forever. Texts are
// read whole (text_option.h), never through PETSc's fixed buffers.
// Does not: know what an option means beyond its range; cross-option checks (a tile that
// does not fit the form) stay with the schedule's validation.
#pragma once

#include <petscsys.h>

#include "petsc/base/petsc_compat.h"
#include "petsc/base/text_option.h"

#include <string>
#include <vector>

namespace femgpu {

struct IntRange {
  PetscInt min, max;
};

std::string with_range(const char *help, IntRange range);
std::string with_range(const char *help, PetscReal min, PetscReal max);

// Parses "a,b,c" (decimal integers in range); false with *why when it cannot.
bool parse_int_list(const std::string &text, IntRange range, std::vector<PetscInt> *values, std::string *why);
std::string int_list_text(const std::vector<PetscInt> &values);

// The option's text, as given, is one integer in range (an error naming it otherwise).
PetscErrorCode check_int_option(const OptionSource &src, const char *name, IntRange range);
PetscErrorCode check_real_option(const char *name, PetscReal value, PetscReal min, PetscReal max);
// `text` read into *values by parse_int_list (an error naming the option otherwise).
PetscErrorCode check_int_list(const char *name, const std::string &text, IntRange range, std::vector<PetscInt> *values);

template <class Items>
PetscErrorCode read_int_option(Items PetscOptionsObject, const OptionSource &src, const char *name, const char *help, IntRange range,
                               PetscInt *value, PetscBool *set)
{
  const std::string text = with_range(help, range);
  PetscFunctionBegin;
  PetscCall(PetscOptionsInt(name, text.c_str(), "", *value, value, set));
  if (*set) PetscCall(check_int_option(src, name, range));
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <class Items>
PetscErrorCode read_real_option(Items PetscOptionsObject, const char *name, const char *help, PetscReal min, PetscReal max, PetscReal *value,
                                PetscBool *set)
{
  const std::string text = with_range(help, min, max);
  PetscFunctionBegin;
  PetscCall(PetscOptionsReal(name, text.c_str(), "", *value, value, set));
  if (*set) PetscCall(check_real_option(name, *value, min, max));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A comma-separated list; -help shows the current one.
template <class Items>
PetscErrorCode read_int_list_option(Items PetscOptionsObject, const OptionSource &src, const char *name, const char *help, IntRange range,
                                    std::vector<PetscInt> *values, PetscBool *set)
{
  const std::string text = with_range(help, range);
  std::string given = int_list_text(*values);
  PetscFunctionBegin;
  PetscCall(read_text_option(PetscOptionsObject, src, name, text.c_str(), "", &given, set));
  if (*set) PetscCall(check_int_list(name, given, range, values));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
