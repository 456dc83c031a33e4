/* A program that knows nothing of femgpu: it is not linked with it and never calls
   MatFEMGPURegister. Run with -dll_append .../libfemgpu.so -dm_mat_type fem_gpu
   -mat_fem_gpu_form_file mass.ufl, it gets a fem_gpu matrix from DMCreateMatrix, and
   1^T M 1 is the area of its unit square. */
#include <petscdmplex.h>
#include <petscfe.h>

static const char help[] = "Uses the fem_gpu Mat type through -dll_append and -dm_mat_type only.\n";

int main(int argc, char **argv)
{
  const PetscInt  cells[6] = {0, 1, 3, 0, 3, 2};
  const PetscReal coords[8] = {0, 0, 1, 0, 0, 1, 1, 1};
  PetscMPIInt     rank;
  DM              dm;
  PetscFE         fe;
  Mat             A;
  MatType         type;
  Vec             x, y;
  PetscScalar     sum;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(DMPlexCreateFromCellListPetsc(PETSC_COMM_WORLD, 2, rank ? 0 : 2, rank ? 0 : 4, 3, PETSC_TRUE, cells, 2, coords, &dm));
  PetscCall(DMSetFromOptions(dm)); /* -dm_mat_type fem_gpu, -dm_refine ... */
  PetscCall(PetscFECreateLagrange(PETSC_COMM_WORLD, 2, 1, PETSC_TRUE, 2, PETSC_DETERMINE, &fe));
  PetscCall(DMAddField(dm, NULL, (PetscObject)fe));
  PetscCall(DMCreateDS(dm));
  PetscCall(DMCreateMatrix(dm, &A));
  PetscCall(MatGetType(A, &type));
  PetscCall(DMCreateGlobalVector(dm, &x));
  PetscCall(VecDuplicate(x, &y));
  PetscCall(VecSet(x, 1.0));
  PetscCall(MatMult(A, x, y));
  PetscCall(VecSum(y, &sum));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Mat type: %s\n1^T A 1 = %.17g\n", type, (double)PetscRealPart(sum)));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFEDestroy(&fe));
  PetscCall(DMDestroy(&dm));
  PetscCall(PetscFinalize());
  return 0;
}
