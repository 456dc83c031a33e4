// String options read whole: the one reader of every femgpu option that holds a text
// (a schedule, a plan, a path, a label, a list, an expression).
//
// Takes: where the options live (an OptionSource) and the option's name; in an options
// block (PetscOptionsBegin/End) also its help text and current value, for -help.
// Returns: the option's whole text, or a PETSc error that names the option, its length in
// bytes and the limit, then the text (a long one by its two ends, form/quoted_text.h).
// Why: PETSc's string readers (PetscOptionsString, PetscOptionsGetString) copy into a
// fixed buffer and cut what does not fit without a word: a schedule ending in fp32 ran in
// FP64, a plan's unknown move past the cut was never read, a cut form-file path opened
// another file. PetscOptionsFindPair hands on the text as stored (PETSc 3.18 to current).
// Header-only: the tools that do not link the plugin (femgpu-bench) read theirs with it.
// Does not: parse the text.
#pragma once

#include <petscsys.h>

#include <string>

#include "form/quoted_text.h"
#include "petsc/base/petsc_compat.h"

namespace femgpu {

// Where an object's options live: its database and prefix (to re-read an option's text).
struct OptionSource {
  PetscOptions options = nullptr;
  const char *prefix = nullptr;
};

// The longest text a string option holds: what PETSc's own readers keep (PETSC_MAX_PATH_LEN
// bytes with the terminating NUL), also the longest path the system opens.
constexpr size_t kMaxOptionText = PETSC_MAX_PATH_LEN - 1;

// The whole text of option `name` ("" for an option given without a value); *set says
// whether it is given. Longer than kMaxOptionText: an error naming its length.
inline PetscErrorCode get_text_option(const OptionSource &src, const char *name, std::string *value, PetscBool *set)
{
  const char *text = nullptr;
  PetscFunctionBegin;
  PetscCall(PetscOptionsFindPair(src.options, src.prefix, name, &text, set));
  if (!*set) PetscFunctionReturn(PETSC_SUCCESS);
  const std::string given = text ? text : "";
  PetscCheck(given.size() <= kMaxOptionText, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "%s is %zu bytes long, more than the %zu a string option holds (PETSc's readers cut longer texts); given %s", name, given.size(),
             kMaxOptionText, quoted_excerpt(given).c_str());
  *value = given;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A string option in an options block: -help lists it with *value as its current text;
// the value is read whole (get_text_option), not through PETSc's buffer.
template <class Items>
PetscErrorCode read_text_option(Items PetscOptionsObject, const OptionSource &src, const char *name, const char *help, const char *manual,
                                std::string *value, PetscBool *set)
{
  char shown[PETSC_MAX_PATH_LEN];  // what -help prints, which may be cut; the value is not
  PetscFunctionBegin;
  PetscCall(PetscStrncpy(shown, value->c_str(), sizeof(shown)));
  PetscCall(PetscOptionsString(name, help, manual, shown, shown, sizeof(shown), set));
  if (*set) PetscCall(get_text_option(src, name, value, set));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
