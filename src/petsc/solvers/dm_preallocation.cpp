// The fem_gpu DM's preallocation skip (dm_preallocation.h), and femgpu's record of it.
#include "petsc/solvers/dm_preallocation.h"

#include "femgpu.h"
#include "petsc/base/composed_object.h"

namespace femgpu {

namespace {
constexpr const char *kSkipKey = "femgpu_preallocation_skipped";
}  // namespace

PetscErrorCode MatFEMGPUSkipDMPreallocation(DM dm)
{
  MatType type;
  PetscBool ours;
  PetscFunctionBegin;
  PetscCall(DMGetMatType(dm, &type));
  PetscCall(PetscStrcmp(type, MATFEMGPU, &ours));
  if (!ours) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMSetMatrixPreallocateSkip(dm, PETSC_TRUE));
  PetscCall(compose_owned((PetscObject)dm, kSkipKey, new int(1)));
  PetscCall(PetscInfo(dm, "fem_gpu: DMCreateMatrix computes no nonzero pattern (a fem_gpu Mat stores no entries)\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatFEMGPUDMPreallocationSkipped(DM dm, PetscBool *skipped)
{
  int *mark = nullptr;
  PetscFunctionBegin;
  PetscCall(query_owned((PetscObject)dm, kSkipKey, &mark));
  *skipped = mark ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
