// MatZeroEntries on a fem_gpu Mat, as TS calls it before each IJacobian: the matrix is
// zero (MatMult, MatMultAdd and the diagonal give zeros, even after MatScale/MatShift),
// MatConvert is refused (its matrix would be zero, not the form's), and binding a value
// again (a constant, as TS binds its shift) gives the form's operator back, without the
// earlier scale and shift.
#include <petscdmplex.h>

#include "femgpu.h"
#include "lagrange_box.h"
#include "petsc/base/petsc_compat.h"

static const char help[] = "Checks MatZeroEntries on fem_gpu matrices.\n";

namespace {

int failures = 0;

void expect(bool ok, const char *what, double value)
{
  failures += ok ? 0 : 1;
  PetscPrintf(PETSC_COMM_WORLD, "%s: %g %s\n", what, value, ok ? "ok" : "FAIL");
}

PetscErrorCode create(DM dm, PetscReal shift, Mat *A)
{
  PetscFunctionBegin;
  PetscCall(DMCreateMatrix(dm, A));
  PetscCall(MatFEMGPUSetFormFile(*A, FEMGPU_TEST_DATA_DIR "/heat_shift.ufl"));
  PetscCall(MatFEMGPUSetConstant(*A, "shift", shift));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode run()
{
  DM dm;
  Mat A, fresh, converted = nullptr;
  Vec x, y, y_fresh, d;
  PetscRandom rng;
  PetscReal norm, diff;
  PetscFunctionBegin;
  PetscCall(CreateLagrangeBox(PETSC_COMM_WORLD, 2, 4, 1, 2, &dm));
  PetscCall(DMSetMatType(dm, MATFEMGPU));
  PetscCall(create(dm, 3.0, &A));
  PetscCall(create(dm, 7.0, &fresh));
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(VecDuplicate(y, &y_fresh));
  PetscCall(VecDuplicate(y, &d));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rng));
  PetscCall(PetscRandomSetInterval(rng, 0.5, 1.5));  // never zero
  PetscCall(VecSetRandom(x, rng));
  PetscCall(MatMult(A, x, y));  // set up before the zeroing
  PetscCall(MatScale(A, 2.0));
  PetscCall(MatShift(A, 5.0));
  PetscCall(MatZeroEntries(A));
  PetscCall(VecSet(y, NAN));  // poisoned: MatMult must write every entry
  PetscCall(MatMult(A, x, y));
  PetscCall(VecNorm(y, NORM_INFINITY, &norm));
  expect(norm == 0, "MatMult after MatZeroEntries (after MatScale, MatShift)", norm);
  PetscCall(VecSet(y, 1.0));
  PetscCall(MatMultAdd(A, x, y, y));
  PetscCall(VecShift(y, -1.0));
  PetscCall(VecNorm(y, NORM_INFINITY, &norm));
  expect(norm == 0, "MatMultAdd after MatZeroEntries adds nothing", norm);
  PetscCall(VecSet(d, NAN));
  PetscCall(MatGetDiagonal(A, d));
  PetscCall(VecNorm(d, NORM_INFINITY, &norm));
  expect(norm == 0, "MatGetDiagonal after MatZeroEntries", norm);
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, nullptr));
  PetscErrorCode ierr = MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, &converted);
  PetscCall(PetscPopErrorHandler());
  expect(ierr == PETSC_ERR_ARG_WRONGSTATE, "MatConvert after MatZeroEntries is refused (PETSC_ERR_ARG_WRONGSTATE)", (double)ierr);
  // Bound again, as TS binds its shift: the form's operator at the new value, unscaled.
  PetscCall(MatFEMGPUSetConstant(A, "shift", 7.0));
  PetscCall(MatMult(A, x, y));
  PetscCall(MatMult(fresh, x, y_fresh));
  PetscCall(VecNorm(y_fresh, NORM_2, &norm));
  PetscCall(VecAXPY(y, -1.0, y_fresh));
  PetscCall(VecNorm(y, NORM_2, &diff));
  expect(norm > 0 && diff <= 1e-14 * norm, "MatMult once a constant is bound again (relative difference to a new Mat)", diff / norm);
  PetscCall(MatDestroy(&converted));
  PetscCall(PetscRandomDestroy(&rng));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&y_fresh));
  PetscCall(VecDestroy(&d));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&fresh));
  PetscCall(DMDestroy(&dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, nullptr, help));
  PetscCall(MatFEMGPURegister());
  PetscCall(run());
  PetscCall(PetscFinalize());
  return failures == 0 ? 0 : 1;
}
