// The p-multigrid of a scaled and shifted fem_gpu operator (src/petsc/pmg/pmg_levels.h,
// PMGCopyEdits): after MatScale(A, s) and MatShift(A, t) on the operator, every level
// below it applies s A_level + t I and the assembled coarse matrix equals
// s AIJ(A_P1) + t I, where A_level and A_P1 are the same form's level Mats without edits.
// Checked twice: after the first setup, and after the operator's final assembly (which
// forgets its edits) and another MatScale, so a level keeps no edit of an earlier setup.
// A MatDiagonalScale on the operator (-diagonal_scale) is not carried to the levels
// (PetscInfo says so): the levels still carry its MatScale and MatShift.
// Mesh, backend and the PC's options come from the command line. Exit code 1 when a
// relative difference exceeds -tolerance.
#include <petscksp.h>

#include <string>
#include <utility>
#include <vector>

#include "femgpu.h"
#include "left_constrained_field.h"
#include "petsc/pmg/pmg_levels.h"

static const char help[] = "Checks that fem_gpu_pmg's levels and coarse matrix carry the operator's MatScale and MatShift.\n"
                           "  -degree K -form_file F.ufl -tolerance T -diagonal_scale\n";

namespace {

PetscReal relative(PetscReal difference, PetscReal scale) { return difference / PetscMax(scale, PETSC_SMALL); }

// The same form's Mat on `level_dm`, without edits.
PetscErrorCode unedited_level(Mat fine, DM level_dm, Mat *level)
{
  std::vector<std::pair<std::string, Vec>> coefficients;
  const char *backend;
  PetscFunctionBegin;
  PetscCall(femgpu::PMGCreateLevelMat(fine, level_dm, "fp64", level, &coefficients));
  PetscCheck(coefficients.empty(), PETSC_COMM_WORLD, PETSC_ERR_SUP, "this check takes forms without coefficients in the field's element");
  PetscCall(MatFEMGPUGetBackend(*level, &backend));  // sets it up
  PetscFunctionReturn(PETSC_SUCCESS);
}

// max over the levels between the operator and P1 of |L x - (s R x + t x)| / |s R x + t x|.
PetscErrorCode check_levels(PC pc, Mat fine, PetscScalar s, PetscScalar t, PetscReal *worst)
{
  PetscInt n;
  PetscFunctionBegin;
  *worst = 0;
  PetscCall(PCMGGetLevels(pc, &n));
  for (PetscInt l = 1; l + 1 < n; ++l) {
    KSP smoother;
    Mat L, R;
    DM dm;
    Vec x, y, z;
    PetscReal norm, diff;
    PetscCall(PCMGGetSmoother(pc, l, &smoother));
    PetscCall(KSPGetOperators(smoother, &L, nullptr));
    PetscCall(MatGetDM(L, &dm));
    PetscCall(unedited_level(fine, dm, &R));
    PetscCall(MatCreateVecs(L, &x, &y));
    PetscCall(VecDuplicate(y, &z));
    PetscCall(VecSetRandom(x, nullptr));
    PetscCall(VecSet(y, NAN));  // MatMult must overwrite it
    PetscCall(MatMult(L, x, y));
    PetscCall(MatMult(R, x, z));
    PetscCall(VecAXPBY(z, t, s, x));  // z = s R x + t x
    PetscCall(VecNorm(z, NORM_INFINITY, &norm));
    PetscCall(VecAXPY(y, -1.0, z));
    PetscCall(VecNorm(y, NORM_INFINITY, &diff));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  level %" PetscInt_FMT ": %.3g\n", l, (double)relative(diff, norm)));
    *worst = PetscMax(*worst, relative(diff, norm));
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&y));
    PetscCall(VecDestroy(&z));
    PetscCall(MatDestroy(&R));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// |C - (s AIJ(R) + t I)| / |s AIJ(R) + t I| in the Frobenius norm, C the coarse solver's
// matrix and R the form's P1 level (the PC builds its P1 DM the same way).
PetscErrorCode check_coarse(PC pc, Mat fine, DM fine_dm, PetscScalar s, PetscScalar t, PetscReal *difference)
{
  KSP coarse_ksp;
  Mat C, R, M;
  DM p1;
  MatType type;
  PetscReal norm, diff;
  PetscFunctionBegin;
  PetscCall(PCMGGetCoarseSolve(pc, &coarse_ksp));
  PetscCall(KSPGetOperators(coarse_ksp, nullptr, &C));
  PetscCall(femgpu::PMGCreateLevelDM(fine_dm, 1, &p1));
  PetscCall(unedited_level(fine, p1, &R));
  PetscCall(MatGetType(C, &type));
  PetscCall(MatConvert(R, type, MAT_INITIAL_MATRIX, &M));
  PetscCall(MatScale(M, s));
  PetscCall(MatShift(M, t));
  PetscCall(MatNorm(M, NORM_FROBENIUS, &norm));
  PetscCall(MatAXPY(M, -1.0, C, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatNorm(M, NORM_FROBENIUS, &diff));
  *difference = relative(diff, norm);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  coarse (%s): %.3g\n", type, (double)*difference));
  PetscCall(MatDestroy(&M));
  PetscCall(MatDestroy(&R));
  PetscCall(DMDestroy(&p1));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

int main(int argc, char **argv)
{
  DM dm;
  Mat A;
  KSP ksp;
  PC pc;
  PetscInt degree = 4, components = 1;
  PetscReal tolerance = 1e-12, levels, coarse;
  PetscBool diagonal_scale = PETSC_FALSE;
  char form_file[PETSC_MAX_PATH_LEN] = "";
  bool ok = true;
  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, nullptr, help));
  PetscCall(MatFEMGPURegister());
  MPI_Comm comm = PETSC_COMM_WORLD;
  PetscOptionsBegin(comm, nullptr, "p-multigrid of an edited operator", nullptr);
  PetscCall(PetscOptionsInt("-degree", "the operator's degree", nullptr, degree, &degree, nullptr));
  PetscCall(PetscOptionsInt("-components", "field components (0: the mesh's dimension)", nullptr, components, &components, nullptr));
  PetscCall(PetscOptionsString("-form_file", "form of the operator", nullptr, form_file, form_file, sizeof(form_file), nullptr));
  PetscCall(PetscOptionsReal("-tolerance", "largest relative difference", nullptr, tolerance, &tolerance, nullptr));
  PetscCall(PetscOptionsBool("-diagonal_scale", "also MatDiagonalScale the operator (not carried to the levels)", nullptr, diagonal_scale,
                             &diagonal_scale, nullptr));
  PetscOptionsEnd();
  PetscCall(CreateLeftConstrainedField(comm, degree, &components, &dm));
  PetscCall(DMSetMatType(dm, MATFEMGPU));
  PetscCall(DMCreateMatrix(dm, &A));
  PetscCall(MatFEMGPUSetFormFile(A, form_file));
  PetscCall(MatSetFromOptions(A));
  PetscCall(KSPCreate(comm, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, "fem_gpu_pmg"));
  PetscCall(KSPSetFromOptions(ksp));

  // Round 1: s A + t I (two MatScale calls and a shift between them: one affine edit).
  PetscCall(MatScale(A, 2.0));
  PetscCall(MatShift(A, 0.375));
  PetscCall(MatScale(A, 1.25));
  const PetscScalar s1 = 2.5, t1 = 0.375 * 1.25;
  if (diagonal_scale) {
    Vec d;
    PetscCall(MatCreateVecs(A, &d, nullptr));
    PetscCall(VecSet(d, 1.5));
    PetscCall(MatDiagonalScale(A, d, nullptr));
    PetscCall(VecDestroy(&d));
  }
  PetscCall(KSPSetUp(ksp));
  PetscCall(PetscPrintf(comm, "round 1: %g A + %g I\n", (double)PetscRealPart(s1), (double)PetscRealPart(t1)));
  PetscCall(check_levels(pc, A, s1, t1, &levels));
  PetscCall(check_coarse(pc, A, dm, s1, t1, &coarse));
  ok = ok && levels <= tolerance && coarse <= tolerance;

  // Round 2: the final assembly forgets the edits; then 3 A only.
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatScale(A, 3.0));
  PetscCall(KSPSetOperators(ksp, A, A));  // as SNES does at each Newton step: the PC sets up again
  PetscCall(KSPSetUp(ksp));
  PetscCall(PetscPrintf(comm, "round 2: 3 A\n"));
  PetscCall(check_levels(pc, A, 3.0, 0.0, &levels));
  PetscCall(check_coarse(pc, A, dm, 3.0, 0.0, &coarse));
  ok = ok && levels <= tolerance && coarse <= tolerance;

  PetscCall(PetscPrintf(comm, "%s\n", ok ? "PASS" : "FAIL"));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&dm));
  PetscCall(PetscFinalize());
  return ok ? 0 : 1;
}
