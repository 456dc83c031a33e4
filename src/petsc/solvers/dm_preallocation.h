// DMCreateMatrix of a DM whose matrix type is fem_gpu: no nonzero pattern.
//
// A fem_gpu Mat stores no entries, yet DMPlex's DMCreateMatrix computes the operator's
// nonzero pattern for any type but MATSHELL (DMPlexPreallocateOperator): 25 s on the host
// for 3D P2 with 1.09M unknowns on an H200's machine (records/solvers/side_by_side/),
// thirty times the whole SNESSolve. The SNES options checker (snes_jacobian.cpp) asks the
// DM to skip it (DMSetMatrixPreallocateSkip) when the DM's matrix type is fem_gpu, and
// records that femgpu did; an assembled matrix femgpu makes of the same DM (the Jacobian
// checks: jacobian_compare.h) turns the preallocation back on while it is created.
// Does not: touch a DM whose matrix type is another, or undo a skip the program set.
#pragma once

#include <petscdm.h>

namespace femgpu {

// Skips the preallocation of the DM's matrices when its matrix type is fem_gpu.
PetscErrorCode MatFEMGPUSkipDMPreallocation(DM dm);
// Whether femgpu asked `dm` to skip it (so an assembled matrix must ask it back).
PetscErrorCode MatFEMGPUDMPreallocationSkipped(DM dm, PetscBool *skipped);

}  // namespace femgpu
