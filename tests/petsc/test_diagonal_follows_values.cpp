// A fem_gpu Mat keeps its diagonal while its values stay (mat_femgpu_solver.cpp,
// operator_values_key.h), so the diagonal must follow every change of them: after a
// constant changes (MatFEMGPUSetConstant), a coefficient's values change in place, and
// MatScale/MatShift, MatGetDiagonal equals the diagonal of the assembled operator
// (MatConvert to AIJ, which assembles without the diagonal); asked twice with nothing
// changed, it gives the same Vec again. Mesh and backend come from the options.
// Exit code 1 when a relative difference exceeds 1e-12.
#include <petscdmplex.h>
#include <petscfe.h>

#include <string>

#include "femgpu.h"
#include "petsc/base/petsc_compat.h"  // PETSC_SUCCESS on PETSc 3.18

static const char help[] = "Checks that a fem_gpu Mat's kept diagonal follows its constants, coefficients and edits.\n";

namespace {

constexpr const char *kForm = "from ufl import *\n\nc = Constant(\"c\", 1.0)\nw = Coefficient(\"w\")\n"
                              "a = c*(1 + w*w)*u*v*dx + inner(grad(u), grad(v))*dx\n";

// max |MatGetDiagonal(A) - diag(AIJ(A))| / max |diag(AIJ(A))|
PetscErrorCode difference(Mat A, const char *when, PetscReal *worst)
{
  Mat M;
  Vec d, e;
  PetscReal norm, diff;
  PetscFunctionBegin;
  PetscCall(MatCreateVecs(A, &d, &e));
  PetscCall(VecSet(d, NAN));
  PetscCall(MatGetDiagonal(A, d));
  PetscCall(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, &M));
  PetscCall(MatGetDiagonal(M, e));
  PetscCall(VecNorm(e, NORM_INFINITY, &norm));
  PetscCall(VecAXPY(d, -1.0, e));
  PetscCall(VecNorm(d, NORM_INFINITY, &diff));
  diff /= PetscMax(norm, PETSC_SMALL);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %.3g\n", when, (double)diff));
  *worst = PetscMax(*worst, diff);
  PetscCall(MatDestroy(&M));
  PetscCall(VecDestroy(&d));
  PetscCall(VecDestroy(&e));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

int main(int argc, char **argv)
{
  DM dm;
  PetscFE fe;
  Mat A;
  Vec w;
  PetscInt dim;
  PetscReal worst = 0;
  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, nullptr, help));
  PetscCall(MatFEMGPURegister());
  PetscCall(FEMGPUCreateMeshFromOptions(PETSC_COMM_WORLD, &dm));
  PetscCall(DMGetDimension(dm, &dim));
  PetscCall(PetscFECreateLagrange(PETSC_COMM_WORLD, dim, 1, PETSC_TRUE, 2, PETSC_DETERMINE, &fe));
  PetscCall(DMAddField(dm, nullptr, (PetscObject)fe));
  PetscCall(PetscFEDestroy(&fe));
  PetscCall(DMCreateDS(dm));
  PetscCall(DMSetMatType(dm, MATFEMGPU));
  PetscCall(DMCreateMatrix(dm, &A));
  PetscCall(MatFEMGPUSetForm(A, kForm, "diagonal_follows_values.ufl"));
  PetscCall(MatSetFromOptions(A));
  PetscCall(DMCreateGlobalVector(dm, &w));
  PetscCall(VecSetRandom(w, nullptr));
  PetscCall(MatFEMGPUSetCoefficient(A, "w", w));
  PetscCall(difference(A, "first", &worst));
  PetscCall(difference(A, "again, nothing changed", &worst));
  PetscCall(MatFEMGPUSetConstant(A, "c", 2.5));
  PetscCall(difference(A, "after c = 2.5", &worst));
  PetscCall(VecScale(w, 3.0));
  PetscCall(difference(A, "after w *= 3 in place", &worst));
  PetscCall(MatScale(A, 0.5));
  PetscCall(MatShift(A, 4.0));
  PetscCall(difference(A, "after MatScale and MatShift", &worst));
  const bool ok = worst <= 1e-12;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s\n", ok ? "PASS" : "FAIL"));
  PetscCall(VecDestroy(&w));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&dm));
  PetscCall(PetscFinalize());
  return ok ? 0 : 1;
}
