// A fem_gpu Mat over a DM with two fields (Taylor-Hood Stokes, stokes_problem.h) applies
// the same operator as the AIJ matrix PETSc assembles from the PetscDS's pointwise
// Jacobians: MatMult and MatGetDiagonal of the whole Mat, of its preconditioning form
// (pressure mass in the (1, 1) block), and MatMult of every block MatCreateSubMatrix gives
// for the fields' index sets (DMCreateFieldIS), on random vectors; again after
// MatFEMGPUSetConstant changed mu, and of a MatDuplicate. Exit code 1 when
// |A x - J x|_inf / |J x|_inf exceeds -tolerance (absolute for a zero block).
// -swapped: the form declares the fields in the other order; -single: a single-field
// form; -convert, -bad_is: operations a multi-field Mat refuses (the bad-input tests).
#include <petscdmplex.h>
#include <petscds.h>
#include <petscsnes.h>

#include <string>

#include "femgpu.h"
#include "stokes_problem.h"
#include "vec_difference.h"

static const char help[] = "Compares a multi-field (Stokes) fem_gpu Mat with PETSc's assembled Jacobian.\n"
                           "  -mu M -tolerance T -swapped -single -convert -bad_is (mesh: FEMGPUCreateMeshFromOptions)\n";

namespace {

// MatMult and MatGetDiagonal (square only) of A against J on a random x.
PetscErrorCode compare_mats(Mat A, Mat J, bool square, PetscRandom rnd, PetscReal *mult, PetscReal *diagonal)
{
  Vec x, y, z;
  PetscFunctionBegin;
  PetscCall(MatCreateVecs(J, &x, &y));
  PetscCall(VecDuplicate(y, &z));
  PetscCall(VecSetRandom(x, rnd));
  PetscCall(MatMult(A, x, y));
  PetscCall(MatMult(J, x, z));
  PetscCall(relative_difference(y, z, mult));
  *diagonal = 0;
  if (square) {
    PetscCall(MatGetDiagonal(A, y));
    PetscCall(MatGetDiagonal(J, z));
    PetscCall(relative_difference(y, z, diagonal));
  }
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&z));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode femgpu_mat(DM dm, const std::string &form, const char *name, PetscReal mu, Mat *A)
{
  PetscFunctionBegin;
  PetscCall(DMSetMatType(dm, MATFEMGPU));
  PetscCall(DMCreateMatrix(dm, A));
  PetscCall(MatFEMGPUSetForm(*A, form.c_str(), name));
  PetscCall(MatFEMGPUSetConstant(*A, "mu", mu));
  PetscCall(MatSetFromOptions(*A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Every block (i, j) of A from MatCreateSubMatrix against J's; the worst error.
PetscErrorCode compare_blocks(DM dm, Mat A, Mat J, PetscRandom rnd, PetscReal *worst)
{
  PetscInt n_fields;
  IS *is;
  PetscFunctionBegin;
  *worst = 0;
  PetscCall(DMCreateFieldIS(dm, &n_fields, nullptr, &is));
  for (PetscInt i = 0; i < n_fields; ++i)
    for (PetscInt j = 0; j < n_fields; ++j) {
      Mat Ab, Jb;
      PetscReal e_mult, e_diag;
      PetscCall(MatCreateSubMatrix(A, is[i], is[j], MAT_INITIAL_MATRIX, &Ab));
      PetscCall(MatCreateSubMatrix(J, is[i], is[j], MAT_INITIAL_MATRIX, &Jb));
      PetscCall(compare_mats(Ab, Jb, i == j, rnd, &e_mult, &e_diag));
      PetscCall(PetscPrintf(PetscObjectComm((PetscObject)A), "block (%" PetscInt_FMT ", %" PetscInt_FMT "): MatMult %.3e%s", i, j, (double)e_mult,
                            i == j ? "" : "\n"));
      if (i == j) PetscCall(PetscPrintf(PetscObjectComm((PetscObject)A), ", MatGetDiagonal %.3e\n", (double)e_diag));
      *worst = PetscMax(*worst, PetscMax(e_mult, e_diag));
      PetscCall(MatDestroy(&Ab));
      PetscCall(MatDestroy(&Jb));
    }
  for (PetscInt i = 0; i < n_fields; ++i) PetscCall(ISDestroy(&is[i]));
  PetscCall(PetscFree(is));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// -convert: MatConvert, which a multi-field Mat does not have; -bad_is: MatCreateSubMatrix
// of an index set that is no field's (the bad-input tests: both must fail with a message).
PetscErrorCode refused_operations(Mat A)
{
  PetscBool convert = PETSC_FALSE, bad_is = PETSC_FALSE;
  Mat B;
  PetscFunctionBegin;
  PetscCall(PetscOptionsGetBool(nullptr, nullptr, "-convert", &convert, nullptr));
  PetscCall(PetscOptionsGetBool(nullptr, nullptr, "-bad_is", &bad_is, nullptr));
  if (convert) PetscCall(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, &B));
  if (bad_is) {
    IS is;
    PetscInt start, end;
    PetscCall(MatGetOwnershipRange(A, &start, &end));
    PetscCall(ISCreateStride(PetscObjectComm((PetscObject)A), PetscMin(end - start, 3), start, 1, &is));
    PetscCall(MatCreateSubMatrix(A, is, is, MAT_INITIAL_MATRIX, &B));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

int main(int argc, char **argv)
{
  PetscReal tolerance = 1e-12, mu = 1.7;
  PetscBool swapped = PETSC_FALSE, single = PETSC_FALSE;
  DM dm;
  Mat J, Jp, A, P;
  Vec x;
  PetscRandom rnd;
  PetscInt dim;
  PetscCall(PetscInitialize(&argc, &argv, nullptr, help));
  PetscCall(MatFEMGPURegister());
  MPI_Comm comm = PETSC_COMM_WORLD;
  PetscCall(PetscOptionsGetReal(nullptr, nullptr, "-tolerance", &tolerance, nullptr));
  PetscCall(PetscOptionsGetReal(nullptr, nullptr, "-mu", &mu, nullptr));
  PetscCall(PetscOptionsGetBool(nullptr, nullptr, "-swapped", &swapped, nullptr));
  PetscCall(PetscOptionsGetBool(nullptr, nullptr, "-single", &single, nullptr));
  PetscCall(stokes::create_dm(comm, mu, &dm));
  PetscCall(DMGetDimension(dm, &dim));
  PetscCall(DMSetMatType(dm, MATAIJ));
  PetscCall(DMCreateMatrix(dm, &J));
  PetscCall(DMCreateMatrix(dm, &Jp));
  PetscCall(DMGetGlobalVector(dm, &x));
  PetscCall(VecSet(x, 0.0));
  PetscCall(DMPlexSNESComputeJacobianFEM(dm, x, J, Jp, nullptr));
  PetscCall(DMRestoreGlobalVector(dm, &x));
  const std::string form = single ? "mu = Constant(\"mu\", 1.0)\na = mu*inner(grad(u), grad(v))*dx\n" : stokes::stokes_form(dim, false, swapped);
  PetscCall(femgpu_mat(dm, form, "stokes(test)", mu, &A));
  PetscCall(femgpu_mat(dm, stokes::stokes_form(dim, true), "stokes_pc(test)", mu, &P));
  PetscCall(refused_operations(A));
  PetscCall(PetscRandomCreate(comm, &rnd));
  PetscReal e[6];
  PetscCall(compare_mats(A, J, true, rnd, &e[0], &e[1]));
  PetscCall(compare_mats(P, Jp, true, rnd, &e[2], &e[3]));
  PetscCall(PetscPrintf(comm, "operator: MatMult %.3e, MatGetDiagonal %.3e; preconditioning form: MatMult %.3e, MatGetDiagonal %.3e\n", (double)e[0],
                        (double)e[1], (double)e[2], (double)e[3]));
  PetscCall(compare_blocks(dm, A, J, rnd, &e[4]));
  PetscCall(compare_blocks(dm, P, Jp, rnd, &e[5]));
  // A constant changed after the blocks were made reaches every block (they hold copies).
  PetscDS ds;
  PetscReal e_changed[2];
  const PetscScalar mu2 = 2 * mu;
  PetscCall(DMGetDS(dm, &ds));
  PetscCall(PetscDSSetConstants(ds, 1, const_cast<PetscScalar *>(&mu2)));
  PetscCall(DMGetGlobalVector(dm, &x));
  PetscCall(VecSet(x, 0.0));
  PetscCall(DMPlexSNESComputeJacobianFEM(dm, x, J, Jp, nullptr));
  PetscCall(DMRestoreGlobalVector(dm, &x));
  PetscCall(MatFEMGPUSetConstant(A, "mu", PetscRealPart(mu2)));
  PetscCall(compare_mats(A, J, true, rnd, &e_changed[0], &e_changed[1]));
  PetscCall(PetscPrintf(comm, "after MatFEMGPUSetConstant(mu = %g): MatMult %.3e, MatGetDiagonal %.3e\n", (double)PetscRealPart(mu2),
                        (double)e_changed[0], (double)e_changed[1]));
  // MatDuplicate: a fem_gpu Mat of the same form and DM, which makes its own blocks.
  Mat D;
  PetscReal e_duplicate[2];
  PetscCall(MatDuplicate(A, MAT_DO_NOT_COPY_VALUES, &D));
  PetscCall(compare_mats(D, J, true, rnd, &e_duplicate[0], &e_duplicate[1]));
  PetscCall(PetscPrintf(comm, "MatDuplicate: MatMult %.3e, MatGetDiagonal %.3e\n", (double)e_duplicate[0], (double)e_duplicate[1]));
  PetscCall(MatDestroy(&D));
  bool ok = e_changed[0] <= tolerance && e_changed[1] <= tolerance && e_duplicate[0] <= tolerance && e_duplicate[1] <= tolerance;
  for (PetscReal v : e) ok = ok && v <= tolerance;
  PetscCall(PetscPrintf(comm, "%s\n", ok ? "stokes matches PETSc" : "MISMATCH"));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&P));
  PetscCall(MatDestroy(&J));
  PetscCall(MatDestroy(&Jp));
  PetscCall(DMDestroy(&dm));
  PetscCall(PetscFinalize());
  return ok ? 0 : 1;
}
