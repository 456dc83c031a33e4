// A step of the p-multigrid's setup that falls back to the host after a device failure
// (pmg_coarse.cpp for the coarse level, pc_femgpu_pmg.cpp for the levels above it).
//
// Takes: the PC, a name for PetscInfo ("the coarse level"), and the step: what builds and
// sets up that part on the device.
// Does: runs the step under an error handler that records the first error raised in it.
// A device failure (PETSc's CUDA or cuSPARSE errors, device memory, femgpu's kernels and
// their compiles: PETSC_ERR_GPU, PETSC_ERR_GPU_RESOURCE, PETSC_ERR_MEM, PETSC_ERR_LIB) on
// any rank sets *failed on every rank, with a PetscInfo line naming the error; the caller
// then builds that part again on the host. Any other error is raised again with its code
// and message (PETSC_ERR_LIB on the ranks where it did not happen). -log_view's counts of
// the events the failure interrupted are not balanced.
// Does not: catch a failure on one rank inside a collective call the others wait in (a
// hang PETSc's own error handling has too).
#pragma once

#include <petscpc.h>

#include <functional>

#include "petsc/base/petsc_compat.h"

namespace femgpu {

PetscErrorCode PMGTryOnDevice(PC pc, const char *what, const std::function<PetscErrorCode()> &step, bool *failed);

}  // namespace femgpu
