// Turns PETSc error codes into C++ exceptions, for fem/ sources that call PETSc.
//
// Takes: a PetscErrorCode and a short description of the call that returned it.
// Returns: nothing; throws std::runtime_error("PETSc error in <what>: <PETSc text>")
// when the code is nonzero.
// Does not: clean up PETSc objects; callers hold them in guards (see PetscGuard) so an
// exception thrown here does not leak them.
// Why a function, not PetscCall: in PETSc 3.18 PetscCall returns the code from the
// enclosing function, which only works in functions returning PetscErrorCode.
#pragma once

#include <petscsys.h>

#include <stdexcept>
#include <string>
#include <type_traits>

namespace femgpu::detail {

// femgpu passes std::vector<double> storage to PETSc as PetscReal arrays.
static_assert(std::is_same<PetscReal, double>::value, "femgpu needs a double-precision PETSc");

inline void check(PetscErrorCode ierr, const char *what)
{
  // PetscErrorCode is an int in 3.18 and an enum from 3.19 on; compare as int for both.
  if (static_cast<int>(ierr) == 0) return;
  const char *text = nullptr;
  (void)PetscErrorMessage(ierr, &text, nullptr);
  throw std::runtime_error(std::string("PETSc error in ") + what + ": " +
                           (text ? text : "unknown error"));
}

// Calls destroy(&obj) at scope exit, so PETSc objects are freed on every path.
template <class T, PetscErrorCode (*Destroy)(T *)>
struct PetscGuard {
  T obj = nullptr;
  PetscGuard() = default;
  PetscGuard(const PetscGuard &) = delete;
  PetscGuard &operator=(const PetscGuard &) = delete;
  ~PetscGuard() { if (obj) (void)Destroy(&obj); }
};

}  // namespace femgpu::detail
