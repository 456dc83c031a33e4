// Range checks of options (option_checks.h).
#include "petsc/base/option_checks.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "form/quoted_text.h"

namespace femgpu {

std::string with_range(const char *help, IntRange range)
{
  return std::string(help) + " [" + std::to_string(range.min) + " to " + std::to_string(range.max) + "]";
}

namespace {

std::string real_range_text(PetscReal min, PetscReal max)
{
  std::ostringstream os;  // PETSc's %g prints "nan." and "0."
  os << min << " to " << max;
  return os.str();
}

enum class IntText { Fits, TooLarge, NotAnInteger };

// Whether `text` is one decimal integer ([+-]digits, all of it) that fits in a PetscInt
// (then *value is it); an integer beyond a PetscInt is TooLarge, not "not an integer".
IntText parse_int(const std::string &text, PetscInt *value)
{
  const size_t digits = text.find_first_not_of("+-") == 1 ? 1 : 0;
  if (text.size() == digits || text.find_first_not_of("0123456789", digits) != std::string::npos) return IntText::NotAnInteger;
  errno = 0;
  char *end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno == ERANGE || v < PETSC_MIN_INT || v > PETSC_MAX_INT) return IntText::TooLarge;
  *value = static_cast<PetscInt>(v);
  return IntText::Fits;
}

std::string range_text(IntRange range) { return std::to_string(range.min) + " to " + std::to_string(range.max); }

}  // namespace

std::string with_range(const char *help, PetscReal min, PetscReal max) { return std::string(help) + " [" + real_range_text(min, max) + "]"; }

bool parse_int_list(const std::string &text, IntRange range, std::vector<PetscInt> *values, std::string *why)
{
  std::vector<PetscInt> parsed;
  std::istringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    PetscInt v = 0;
    const IntText read = parse_int(item, &v);
    if (read == IntText::NotAnInteger) {
      *why = "'" + excerpt(item) + "' is not an integer (a comma-separated list of integers, " + range_text(range) + ")";
      return false;
    }
    if (read == IntText::TooLarge || v < range.min || v > range.max) {
      *why = "entry " + std::to_string(parsed.size()) + " is " + excerpt(item) + ", out of range: each is " + range_text(range);
      return false;
    }
    parsed.push_back(v);
  }
  if (parsed.empty()) {
    *why = "the list is empty";
    return false;
  }
  *values = parsed;
  return true;
}

std::string int_list_text(const std::vector<PetscInt> &values)
{
  std::string text;
  for (PetscInt v : values) text += (text.empty() ? "" : ",") + std::to_string(v);
  return text;
}

PetscErrorCode check_int_option(const OptionSource &src, const char *name, IntRange range)
{
  std::string text;
  PetscBool set;
  PetscInt value = 0;
  PetscFunctionBegin;
  PetscCall(get_text_option(src, name, &text, &set));
  if (!set) PetscFunctionReturn(PETSC_SUCCESS);
  const IntText read = parse_int(text, &value);
  PetscCheck(read != IntText::NotAnInteger, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "%s: not a decimal integer (it must be %s); given %s", name,
             range_text(range).c_str(), quoted_excerpt(text).c_str());
  // PETSc's reader wraps an integer beyond a PetscInt (4294967328 to 32): checked on the text.
  PetscCheck(read == IntText::Fits && value >= range.min && value <= range.max, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "%s is %s, out of range: it must be %s", name, excerpt(text).c_str(), range_text(range).c_str());
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode check_int_list(const char *name, const std::string &text, IntRange range, std::vector<PetscInt> *values)
{
  std::string why;
  PetscFunctionBegin;
  PetscCheck(parse_int_list(text, range, values, &why), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s: %s; given %s", name, why.c_str(),
             quoted_excerpt(text).c_str());
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode check_real_option(const char *name, PetscReal value, PetscReal min, PetscReal max)
{
  std::ostringstream given;
  given << value;
  PetscFunctionBegin;
  PetscCheck(std::isfinite(static_cast<double>(value)), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s is %s; it must be a finite number", name,
             given.str().c_str());
  PetscCheck(value >= min && value <= max, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s is %s; it must be %s", name, given.str().c_str(),
             real_range_text(min, max).c_str());
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
