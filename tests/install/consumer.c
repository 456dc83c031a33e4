/* A program built against an installed, moved femgpu tree (with pkg-config and with
   CMake's find_package(femgpu)): it links libfemgpu, registers the type itself and takes
   the form from the options (-mat_fem_gpu_form_file .../share/femgpu/forms/mass.ufl).
   1^T M 1 is the area of its box [0,1] x [0,2], 2, in every degree. */
#include <femgpu.h>
#include <petscfe.h>

static const char help[] = "Applies a fem_gpu mass matrix from an installed femgpu.\n";

int main(int argc, char **argv)
{
  const PetscInt  faces[2] = {3, 5};
  const PetscReal upper[2] = {1, 2};
  DM              dm;
  PetscFE         fe;
  Mat             A;
  Vec             x, y;
  PetscScalar     sum;
  const char     *backend;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(MatFEMGPURegister());
  PetscCall(FEMGPUCreateBoxMesh(PETSC_COMM_WORLD, 2, faces, NULL, upper, &dm));
  PetscCall(PetscFECreateLagrange(PETSC_COMM_WORLD, 2, 1, PETSC_TRUE, 2, PETSC_DETERMINE, &fe));
  PetscCall(DMAddField(dm, NULL, (PetscObject)fe));
  PetscCall(DMCreateDS(dm));
  PetscCall(DMSetMatType(dm, MATFEMGPU));
  PetscCall(DMSetMatrixPreallocateSkip(dm, PETSC_TRUE)); /* a fem_gpu Mat stores no entries */
  PetscCall(DMCreateMatrix(dm, &A));
  PetscCall(DMCreateGlobalVector(dm, &x));
  PetscCall(VecDuplicate(x, &y));
  PetscCall(VecSet(x, 1.0));
  PetscCall(MatMult(A, x, y));
  PetscCall(VecSum(y, &sum));
  PetscCall(MatFEMGPUGetBackend(A, &backend));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "backend: %s\n1^T A 1 = %.17g\n", backend, (double)PetscRealPart(sum)));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFEDestroy(&fe));
  PetscCall(DMDestroy(&dm));
  PetscCall(PetscFinalize());
  return 0;
}
