// Where PETSc's vectors live: whether this build can run kernels on PETSc's CUDA arrays
// (FEMGPU_DEVICE_VECS: femgpu's CUDA backend and a PETSc with CUDA), whether a Vec is a
// CUDA one, and which CUDA device PETSc's own vectors use.
#pragma once

#include <petscconf.h>
#include <petscvec.h>

#include "petsc/base/petsc_compat.h"

#if defined(FEMGPU_HAVE_CUDA) && defined(PETSC_HAVE_CUDA)
  #include <petscdevice_cuda.h>
  #define FEMGPU_DEVICE_VECS 1
#else
  #define FEMGPU_DEVICE_VECS 0
#endif

namespace femgpu {

// *yes: v is a VECSEQCUDA or VECMPICUDA (false in a build without FEMGPU_DEVICE_VECS).
PetscErrorCode vec_on_cuda(Vec v, PetscBool *yes);

// The CUDA device PETSc's own vectors use (its default context), so that kernels run where
// VECCUDA arrays live; -1 when this PETSc has no CUDA device.
PetscErrorCode petsc_cuda_ordinal(PetscInt *ordinal);

#if FEMGPU_DEVICE_VECS
// Whether PETSc's current device context runs on CUDA's default stream, where femgpu's
// launches (also on it) are ordered with PETSc's vector kernels without a host wait.
PetscErrorCode petsc_on_default_stream(PetscBool *yes);
#endif

}  // namespace femgpu
