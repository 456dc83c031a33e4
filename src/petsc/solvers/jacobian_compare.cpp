// Takes: a fem_gpu Mat and an assembled Mat of the same sizes. Returns the worst relative
// difference of their products over 3 random vectors in [-1, 1]. Does not decide what is
// too large: the callers hold the tolerance and say what was compared.
#include "petsc/solvers/jacobian_compare.h"

#include "petsc/base/petsc_compat.h"
#include "petsc/solvers/dm_preallocation.h"

#include <string>

namespace femgpu {

PetscErrorCode MatFEMGPUCreateAIJOfDM(DM dm, Mat *assembled)
{
  MatType type;
  PetscFunctionBegin;
  PetscCall(DMGetMatType(dm, &type));
  const std::string own_type = type;
  PetscBool skipped;
  PetscCall(MatFEMGPUDMPreallocationSkipped(dm, &skipped));
  PetscCall(DMSetMatType(dm, MATAIJ));
  if (skipped) PetscCall(DMSetMatrixPreallocateSkip(dm, PETSC_FALSE));  // an AIJ to fill: its pattern
  PetscCall(DMCreateMatrix(dm, assembled));
  if (skipped) PetscCall(DMSetMatrixPreallocateSkip(dm, PETSC_TRUE));
  PetscCall(DMSetMatType(dm, own_type.c_str()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatFEMGPUCompareWithAssembled(Mat J, Mat assembled, PetscReal *worst)
{
  Vec x, y, y_assembled;
  PetscRandom rng;
  PetscFunctionBegin;
  *worst = 0;
  PetscCall(MatCreateVecs(assembled, &x, &y_assembled));
  PetscCall(VecDuplicate(y_assembled, &y));
  PetscCall(PetscRandomCreate(PetscObjectComm((PetscObject)J), &rng));
  PetscCall(PetscRandomSetInterval(rng, -1, 1));
  for (int k = 0; k < 3; ++k) {
    PetscReal diff, norm;
    PetscCall(VecSetRandom(x, rng));
    PetscCall(MatMult(J, x, y));
    PetscCall(MatMult(assembled, x, y_assembled));
    PetscCall(VecNorm(y_assembled, NORM_2, &norm));
    PetscCall(VecAXPY(y, -1.0, y_assembled));
    PetscCall(VecNorm(y, NORM_2, &diff));
    *worst = PetscMax(*worst, diff / PetscMax(norm, PETSC_SMALL));
  }
  PetscCall(PetscRandomDestroy(&rng));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&y_assembled));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
