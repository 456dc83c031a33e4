// The fem_gpu Mat applies the same operator as the AIJ matrix PETSc assembles from
// independent pointwise Jacobians (pointwise_jacobians.cpp), with Dirichlet conditions on
// the x = x_min part of the boundary only, for every degree in -degrees.
//
// For each degree: mesh (FEMGPUCreateMeshFromOptions) -> "left" face label -> optional
// P2 coordinates and interior perturbation -> P_k field with an essential condition on
// "left" -> J = DMPlexSNESComputeJacobianFEM at a smooth linearization point w (local,
// constrained values included; the fem_gpu Mat reads the same local Vec) -> A = fem_gpu
// Mat of the form file -> |A x - J x|_inf / |J x|_inf for random x. Exit code 1 when it
// exceeds -tolerance (or, with -expect_mismatch, when it does not).
// -check picks the operation compared: mult (MatMult), diagonal (MatGetDiagonal),
// transpose (MatMultTranspose; symmetric forms), duplicate (MatMult of a duplicate without
// values of a duplicate with values of A, made before A was ever set up). MatConvert's
// assembled matrix is compared entry by entry in test_convert_vs_aij.
// On curved (P2) cells neither side integrates exactly, so both use femgpu's rule of
// degree -mat_fem_gpu_quadrature_degree; on affine cells PETSc uses its own rule,
// exact for the integrand.
#include <petscdmplex.h>
#include <petscsnes.h>

#include <cmath>
#include <string>

#include "aij_problem.h"
#include "femgpu.h"

static const char help[] = "Compares fem_gpu MatMult (or -check diagonal|transpose|duplicate) with PETSc's assembled Jacobian.\n"
                           "  -form NAME (mass|laplace|helmholtz|elasticity|hyperelasticity) -forms_dir DIR -degrees 1,2,3\n"
                           "  -lmbda L -mu M -coordinate_degree 1|2 -mesh_perturb EPS -tolerance T -expect_mismatch\n";

namespace {

using femgpu_test::Case;

// y = op(M) x for the operation under test.
PetscErrorCode apply_check(const std::string &check, Mat M, Vec x, Vec y)
{
  PetscFunctionBegin;
  if (check == "mult") PetscCall(MatMult(M, x, y));
  else if (check == "diagonal") PetscCall(MatGetDiagonal(M, y));
  else if (check == "transpose") PetscCall(MatMultTranspose(M, x, y));
  else if (check == "duplicate" || check == "duplicate_used") {
    Mat B, C;
    PetscBool fem_gpu;
    if (check == "duplicate_used") PetscCall(MatMult(M, x, y));  // set up: the duplicates share what it lowered
    PetscCall(MatDuplicate(M, MAT_COPY_VALUES, &B));
    PetscCall(PetscObjectTypeCompare((PetscObject)M, MATFEMGPU, &fem_gpu));
    if (fem_gpu) {  // its values are its form: a duplicate without values shares it too
      PetscCall(MatDuplicate(B, MAT_DO_NOT_COPY_VALUES, &C));
      PetscCall(MatDestroy(&B));
      B = C;
    }
    PetscCall(MatMult(B, x, y));
    PetscCall(MatDestroy(&B));
  } else SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "unknown -check %s (mult, diagonal, transpose, duplicate, duplicate_used)", check.c_str());
  PetscFunctionReturn(PETSC_SUCCESS);
}

// |A x - J x|_inf / |J x|_inf for one case.
PetscErrorCode compare(MPI_Comm comm, const Case &c, PetscReal *error, PetscInt *size)
{
  DM dm;
  Mat J, A;
  Vec w, x, yJ, yA;
  PetscReal nJ;
  PetscFunctionBegin;
  PetscCall(femgpu_test::create_problem(comm, c, &dm));
  PetscCall(DMCreateLocalVector(dm, &w));
  PetscCall(femgpu_test::project_linearization_point(dm, 1.0, w));
  PetscCall(DMSetMatType(dm, MATAIJ));
  PetscCall(DMCreateMatrix(dm, &J));
  PetscCall(DMPlexSNESComputeJacobianFEM(dm, w, J, J, nullptr));
  PetscCall(femgpu_test::create_fem_gpu(dm, c, w, &A));
  PetscCall(DMCreateGlobalVector(dm, &x));
  PetscCall(VecGetSize(x, size));
  PetscCall(VecDuplicate(x, &yJ));
  PetscCall(VecDuplicate(x, &yA));
  PetscCall(VecSetRandom(x, nullptr));
  PetscCall(VecShift(x, 0.5));  // every entry non-zero
  PetscCall(VecSet(yA, NAN));   // the operation must overwrite all of it
  PetscCall(apply_check(c.check, J, x, yJ));
  PetscCall(apply_check(c.check, A, x, yA));
  PetscCall(VecNorm(yJ, NORM_INFINITY, &nJ));
  PetscCall(VecAXPY(yA, -1.0, yJ));
  PetscCall(VecNorm(yA, NORM_INFINITY, error));
  *error = nJ > 0 ? *error / nJ : *error;
  if (!(*error == *error)) *error = PETSC_INFINITY;  // NaN: an entry was not written
  PetscCall(VecDestroy(&w));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&yJ));
  PetscCall(VecDestroy(&yA));
  PetscCall(MatDestroy(&J));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode run(MPI_Comm comm, int *failures)
{
  char form[64] = "laplace", dir[PETSC_MAX_PATH_LEN] = FEMGPU_FORMS_DIR, check[32] = "mult";
  PetscInt degrees[8] = {1, 2, 3}, n_degrees = 8;
  PetscReal tolerance = 1e-12;
  PetscBool expect_mismatch = PETSC_FALSE, set;
  Case c;
  PetscFunctionBegin;
  PetscOptionsBegin(comm, "", "Mat vs AIJ options", "");
  PetscCall(PetscOptionsString("-form", "Shipped form name", "", form, form, sizeof(form), nullptr));
  PetscCall(PetscOptionsString("-check", "Operation compared: mult, diagonal, transpose, duplicate", "", check, check, sizeof(check), nullptr));
  PetscCall(PetscOptionsString("-forms_dir", "Folder of the form files", "", dir, dir, sizeof(dir), nullptr));
  PetscCall(PetscOptionsIntArray("-degrees", "Lagrange degrees to test", "", degrees, &n_degrees, &set));
  if (!set) n_degrees = 3;
  PetscCall(PetscOptionsReal("-lmbda", "Lame lambda (both sides)", "", c.lmbda, &c.lmbda, nullptr));
  PetscCall(PetscOptionsReal("-mu", "Lame mu (both sides)", "", c.mu, &c.mu, nullptr));
  PetscCall(PetscOptionsInt("-coordinate_degree", "Coordinate degree", "", c.coordinate_degree, &c.coordinate_degree, nullptr));
  PetscCall(PetscOptionsReal("-mesh_perturb", "Interior node perturbation", "", c.perturb, &c.perturb, nullptr));
  PetscCall(PetscOptionsInt("-mat_fem_gpu_quadrature_degree", "Shared rule degree on curved cells", "", c.quadrature_degree, &c.quadrature_degree, nullptr));
  PetscCall(PetscOptionsReal("-tolerance", "Relative tolerance", "", tolerance, &tolerance, nullptr));
  PetscCall(PetscOptionsBool("-expect_mismatch", "Pass only if the operators differ", "", expect_mismatch, &expect_mismatch, nullptr));
  PetscOptionsEnd();
  PetscCheck(c.coordinate_degree == 1 || c.quadrature_degree > 0, comm, PETSC_ERR_USER_INPUT, "curved cells need -mat_fem_gpu_quadrature_degree");
  c.form = form;
  c.forms_dir = dir;
  c.check = check;
  for (PetscInt i = 0; i < n_degrees; ++i) {
    PetscReal error;
    PetscInt size;
    c.degree = degrees[i];
    PetscCall(compare(comm, c, &error, &size));
    const bool ok = expect_mismatch ? error > 1e3 * tolerance : error <= tolerance;
    *failures += ok ? 0 : 1;
    PetscCall(PetscPrintf(comm, "%s P%" PetscInt_FMT " (%" PetscInt_FMT " free DOFs): %s: |A - J|/|J| = %.3e  %s\n", form, c.degree, size, check, (double)error,
                          ok ? "ok" : (expect_mismatch ? "FAIL (expected a mismatch)" : "FAIL")));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

int main(int argc, char **argv)
{
  int failures = 0;
  PetscCall(PetscInitialize(&argc, &argv, nullptr, help));
  PetscCall(MatFEMGPURegister());
  PetscCall(run(PETSC_COMM_WORLD, &failures));
  PetscCall(PetscFinalize());
  return failures ? 1 : 0;
}
