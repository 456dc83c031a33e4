// Range checks of options (option_checks.h).
#include "petsc/option_checks.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

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

// One decimal integer, the whole of `text`, that fits in a PetscInt.
bool parse_int(const std::string &text, PetscInt *value)
{
  if (text.empty() || text.find_first_not_of("+-0123456789") != std::string::npos) return false;
  errno = 0;
  char *end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno == ERANGE || *end != '\0' || v < PETSC_MIN_INT || v > PETSC_MAX_INT) return false;
  *value = static_cast<PetscInt>(v);
  return true;
}

std::string range_text(IntRange range) { return std::to_string(range.min) + " to " + std::to_string(range.max); }

}  // namespace

std::string with_range(const char *help, PetscReal min, PetscReal max) { return std::string(help) + " [" + real_range_text(min, max) + "]"; }

bool parse_int_list(const std::string &text, IntRange range, std::vector<PetscInt> *values, std::string *why)
{
  std::vector<PetscInt> parsed;
  std::istringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    PetscInt v;
    if (!parse_int(item, &v)) {
      *why = "'" + item + "' is not an integer (a comma-separated list of integers, " + range_text(range) + ")";
      return false;
    }
    if (v < range.min || v > range.max) {
      *why = "entry " + std::to_string(parsed.size()) + " is " + item + "; each is " + range_text(range);
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
  char text[256];
  PetscBool set;
  PetscInt value;
  PetscFunctionBegin;
  PetscCall(PetscOptionsGetString(src.options, src.prefix, name, text, sizeof(text), &set));
  if (!set) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(parse_int(text, &value), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s %s: not an integer that fits in a PetscInt (it must be %s)",
             name, text, range_text(range).c_str());
  PetscCheck(value >= range.min && value <= range.max, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s is %s; it must be %s", name, text,
             range_text(range).c_str());
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
