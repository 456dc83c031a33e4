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
