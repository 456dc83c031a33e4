// -mat_fem_gpu_check_finite: a form that is infinite for its data (1/c with c = 0, from
// data/inverse_constant.ufl) is an error at the first apply and at the first diagonal,
// PETSC_ERR_FP naming the option; with c = 2 the same Mat is right (1^T A 1 = area / 2)
// and no error; an input that is not finite postpones the check to the next apply with
// finite inputs; without the option the values are the form's, inf included (no error).
// P1 on the unit square: at c = 0 every entry of A 1 is inf or nan (inf times a zero table entry).
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "femgpu.h"
#include "lagrange_box.h"
#include "petsc/base/petsc_compat.h"

static const char help[] = "Checks -mat_fem_gpu_check_finite.\n";

namespace {

int failures = 0;

template <class R, class A, class B, class C> const char *specific_message(R (*message_of)(A, B, C), PetscErrorCode e)
{
  std::remove_pointer_t<C> message = nullptr;
  return message_of(e, nullptr, &message) == PETSC_SUCCESS ? message : nullptr;
}

void expect(bool ok, const char *what)
{
  failures += ok ? 0 : 1;
  PetscPrintf(PETSC_COMM_WORLD, "%s: %s\n", what, ok ? "ok" : "FAIL");
}

// The error is PETSC_ERR_FP and names the option and the operation.
bool is_finite_error(PetscErrorCode e, const char *operation)
{
  const char *message = specific_message(PetscErrorMessage, e);
  return e == PETSC_ERR_FP && message && std::strstr(message, "-mat_fem_gpu_check_finite") && std::strstr(message, operation);
}

// A fem_gpu Mat of 1/c u v with constant c, the option given (prefix "checked_") or not.
PetscErrorCode create(DM dm, PetscReal c, bool checked, Mat *A)
{
  PetscFunctionBegin;
  PetscCall(DMCreateMatrix(dm, A));
  PetscCall(MatSetOptionsPrefix(*A, checked ? "checked_" : "unchecked_"));
  PetscCall(MatFEMGPUSetFormFile(*A, FEMGPU_TEST_DATA_DIR "/inverse_constant.ufl"));
  PetscCall(MatFEMGPUSetConstant(*A, "c", c));
  PetscCall(MatSetFromOptions(*A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode run()
{
  DM dm;
  Mat A;
  Vec x, y;
  PetscScalar sum;
  PetscFunctionBegin;
  PetscCall(CreateLagrangeBox(PETSC_COMM_WORLD, 2, 3, 1, 1, &dm));
  PetscCall(DMSetMatType(dm, MATFEMGPU));
  PetscCall(PetscOptionsSetValue(nullptr, "-checked_mat_fem_gpu_check_finite", "true"));
  PetscCall(DMCreateGlobalVector(dm, &x));
  PetscCall(VecDuplicate(x, &y));
  PetscCall(VecSet(x, 1.0));

  PetscCall(create(dm, 0.0, true, &A));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, nullptr));
  expect(is_finite_error(MatGetDiagonal(A, y), "MatGetDiagonal()"), "c = 0: MatGetDiagonal is an error");
  expect(is_finite_error(MatMult(A, x, y), "first apply"), "c = 0: MatMult is an error");
  PetscCall(PetscPopErrorHandler());
  PetscCall(MatDestroy(&A));

  // A non-finite input: not the form's doing, no error; the next finite one is checked.
  PetscCall(create(dm, 0.0, true, &A));
  PetscCall(VecSetValue(x, 0, std::numeric_limits<PetscReal>::infinity(), INSERT_VALUES));  // PETSC_INFINITY is finite
  PetscCall(VecAssemblyBegin(x));
  PetscCall(VecAssemblyEnd(x));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, nullptr));
  expect(MatMult(A, x, y) == PETSC_SUCCESS, "c = 0, an infinite input: no error");
  PetscCall(VecSet(x, 1.0));
  expect(is_finite_error(MatMult(A, x, y), "first apply"), "c = 0, then a finite input: an error");
  PetscCall(PetscPopErrorHandler());
  PetscCall(MatDestroy(&A));

  PetscCall(create(dm, 2.0, true, &A));
  PetscCall(MatMult(A, x, y));
  PetscCall(VecSum(y, &sum));
  expect(PetscAbsScalar(sum - 0.5) < 1e-13, "c = 2: checked, 1^T A 1 = 1/2");
  PetscCall(MatGetDiagonal(A, y));
  PetscCall(MatDestroy(&A));

  PetscCall(create(dm, 0.0, false, &A));
  PetscCall(MatMult(A, x, y));
  PetscCall(VecSum(y, &sum));
  expect(!std::isfinite(static_cast<double>(PetscRealPart(sum))), "c = 0 without the option: the form's values, not finite");
  PetscCall(MatDestroy(&A));

  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
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
  return failures ? 1 : 0;
}
