// A C++ object owned by a PETSc object: PetscObjectCompose of a PetscContainer that
// releases it when the owner drops it (the owner is destroyed, or another object is
// composed under the same key).
//
// Takes: the owner, a key, a new-allocated object and how to release it (default: delete).
// Returns: query_owned gives the object composed under a key, or null.
// Why one place: the container's destroy hook changed signature in PETSc 3.23 (the
// pointer before, its address after); femgpu builds against 3.18 and current releases.
#pragma once

#include <petscsys.h>

#include "petsc/base/petsc_compat.h"

namespace femgpu {

namespace composed_detail {

template <class T> PetscErrorCode release(void *p)
{
  delete static_cast<T *>(p);
  return PETSC_SUCCESS;
}

#if !PETSC_VERSION_LT(3, 23, 0)
template <PetscErrorCode (*Release)(void *)> PetscErrorCode release_at(void *p)
{
  void **at = static_cast<void **>(p);
  const PetscErrorCode e = Release(*at);
  *at = nullptr;
  return e;
}
#endif

}  // namespace composed_detail

template <class T, PetscErrorCode (*Release)(void *) = composed_detail::release<T>>
PetscErrorCode compose_owned(PetscObject owner, const char *key, T *value)
{
  PetscContainer c;
  PetscFunctionBegin;
  PetscCall(PetscContainerCreate(PetscObjectComm(owner), &c));
  PetscCall(PetscContainerSetPointer(c, value));
#if PETSC_VERSION_LT(3, 23, 0)
  PetscCall(PetscContainerSetUserDestroy(c, Release));
#else
  PetscCall(PetscContainerSetCtxDestroy(c, reinterpret_cast<PetscCtxDestroyFn *>(composed_detail::release_at<Release>)));
#endif
  PetscCall(PetscObjectCompose(owner, key, (PetscObject)c));
  PetscCall(PetscContainerDestroy(&c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <class T> PetscErrorCode query_owned(PetscObject owner, const char *key, T **value)
{
  PetscContainer c = nullptr;
  PetscFunctionBegin;
  *value = nullptr;
  PetscCall(PetscObjectQuery(owner, key, (PetscObject *)&c));
  if (c) PetscCall(PetscContainerGetPointer(c, (void **)value));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
