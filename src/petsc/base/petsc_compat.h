// The few PETSc names femgpu uses that differ between PETSc 3.18 (Debian 12) and
// current releases; everything else is common to both.
#pragma once

#include <petscsys.h>
#include <petscversion.h>
#include <petsc/private/petscimpl.h>  // PetscValidHeaderSpecific

#if PETSC_VERSION_LT(3, 19, 0)
  #define PETSC_SUCCESS 0
#endif
#if PETSC_VERSION_LT(3, 20, 0)
  #define PetscAssertPointer(h, arg) PetscValidPointer(h, arg)
#endif

// The options argument of a type's SetFromOptions hook (MatSetFromOptions_FEMGPU, the
// p-multigrid PC's): its type changed in PETSc 3.23 (a pointer to PetscOptionItems
// before, a handle after): use the one this PETSc declares.
namespace femgpu {
template <class F> struct FirstArg;
template <class R, class A0, class A1> struct FirstArg<R (*)(A0, A1)> { using type = A0; };
using OptionItems = FirstArg<decltype(&PetscOptionsHeadBegin)>::type;
}  // namespace femgpu
