// Symmetry of a fem_gpu Mat: detected from its form at setup and reported to PETSc
// (MAT_SYMMETRIC, MatIsSymmetric), MatMultTranspose = MatMult when symmetric and a clear
// error when not, -mat_fem_gpu_symmetric overrides the detection; MatCopy copies the form.
//
// Forms: laplace (symmetric) and the Jacobian of nonlinear_diffusion.ufl,
// (1 + w^2) grad u . grad v + 2 w u grad w . grad v, which is not symmetric where
// grad w != 0 (w = x0 + x1^2 here); P2 on a 3x3 square, Dirichlet-free. With exterior
// facet integrals: a Robin term keeps the Laplacian symmetric, a normal flux term
// (symmetric cells, asymmetric facets) does not.
#include <petscdmplex.h>
#include <petscfe.h>

#include <cstring>
#include <string>
#include <type_traits>

#include "femgpu.h"
#include "lagrange_box.h"
#include "petsc/base/petsc_compat.h"

static const char help[] = "Checks the symmetry of fem_gpu matrices.\n";

namespace {

int failures = 0;

void expect(bool ok, const char *what)
{
  failures += ok ? 0 : 1;
  PetscPrintf(PETSC_COMM_WORLD, "%s: %s\n", what, ok ? "ok" : "FAIL");
}

// The message of the last error: PETSc 3.18 hands it out as char *, later versions as
// const char *.
template <class R, class A, class B, class C> const char *specific_message(R (*message_of)(A, B, C), PetscErrorCode e)
{
  std::remove_pointer_t<C> message = nullptr;
  return message_of(e, nullptr, &message) == PETSC_SUCCESS ? message : nullptr;
}

PetscErrorCode w_expr(PetscInt, PetscReal, const PetscReal x[], PetscInt, PetscScalar *u, void *)
{
  u[0] = x[0] + x[1] * x[1];
  return PETSC_SUCCESS;
}

PetscErrorCode create_dm(DM *dm)
{
  PetscFunctionBegin;
  PetscCall(CreateLagrangeBox(PETSC_COMM_WORLD, 2, 3, 1, 2, dm));
  PetscCall(DMSetMatType(*dm, MATFEMGPU));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A fem_gpu Mat of `form` with options prefix `prefix` (so options can target it).
PetscErrorCode create_mat(DM dm, const char *form, const char *prefix, Vec w, Mat *A)
{
  PetscFunctionBegin;
  PetscCall(DMCreateMatrix(dm, A));
  PetscCall(MatSetOptionsPrefix(*A, prefix));
  const std::string dir = std::strncmp(form, "data/", 5) == 0 ? FEMGPU_TEST_DATA_DIR "/.." : FEMGPU_FORMS_DIR;
  PetscCall(MatFEMGPUSetFormFile(*A, (dir + "/" + form).c_str()));
  if (w) PetscCall(MatFEMGPUSetCoefficient(*A, "w", w));
  PetscCall(MatSetFromOptions(*A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// |A x - B x|_inf / |B x|_inf with `transpose_a`: A^T x instead.
PetscErrorCode difference(Mat A, Mat B, bool transpose_a, Vec x, PetscReal *d)
{
  Vec ya, yb;
  PetscReal nb;
  PetscFunctionBegin;
  PetscCall(VecDuplicate(x, &ya));
  PetscCall(VecDuplicate(x, &yb));
  if (transpose_a) PetscCall(MatMultTranspose(A, x, ya));
  else PetscCall(MatMult(A, x, ya));
  PetscCall(MatMult(B, x, yb));
  PetscCall(VecNorm(yb, NORM_INFINITY, &nb));
  PetscCall(VecAXPY(ya, -1.0, yb));
  PetscCall(VecNorm(ya, NORM_INFINITY, d));
  *d /= nb;
  PetscCall(VecDestroy(&ya));
  PetscCall(VecDestroy(&yb));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode run()
{
  DM dm;
  Mat L, N, D, M;
  Vec w, x, y;
  PetscBool flg, known;
  PetscReal d;
  PetscErrorCode (*funcs[1])(PetscInt, PetscReal, const PetscReal[], PetscInt, PetscScalar *, void *) = {w_expr};
  PetscFunctionBegin;
  PetscCall(create_dm(&dm));
  PetscCall(DMCreateGlobalVector(dm, &w));
  PetscCall(DMProjectFunction(dm, 0.0, funcs, nullptr, INSERT_ALL_VALUES, w));
  PetscCall(VecDuplicate(w, &x));
  PetscCall(VecDuplicate(w, &y));
  PetscCall(VecSetRandom(x, nullptr));

  PetscCall(create_mat(dm, "laplace.ufl", "l_", nullptr, &L));
  PetscCall(MatIsSymmetric(L, 0.0, &flg));
  expect(flg, "laplace: MatIsSymmetric");
  PetscCall(MatIsSymmetricKnown(L, &known, &flg));
  expect(known && flg, "laplace: MAT_SYMMETRIC set at setup");
  PetscCall(difference(L, L, true, x, &d));
  expect(d == 0.0, "laplace: MatMultTranspose = MatMult");

  PetscCall(create_mat(dm, "extra/nonlinear_diffusion.ufl", "n_", w, &N));
  PetscCall(MatIsSymmetric(N, 0.0, &flg));
  expect(!flg, "nonlinear diffusion Jacobian: not symmetric");
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, nullptr));
  PetscErrorCode e = MatMultTranspose(N, x, y);
  PetscCall(PetscPopErrorHandler());
  const char *message = specific_message(PetscErrorMessage, e);
  expect(e == PETSC_ERR_SUP && message && std::strstr(message, "needs a symmetric form"), "nonlinear diffusion: MatMultTranspose errors");

  // Declared symmetric (wrongly, but the user decides): the detection is skipped.
  PetscCall(PetscOptionsSetValue(nullptr, "-d_mat_fem_gpu_symmetric", "true"));
  PetscCall(create_mat(dm, "extra/nonlinear_diffusion.ufl", "d_", w, &D));
  PetscCall(MatIsSymmetric(D, 0.0, &flg));
  expect(flg, "-mat_fem_gpu_symmetric true: MatIsSymmetric");
  PetscCall(difference(D, D, true, x, &d));
  expect(d == 0.0, "-mat_fem_gpu_symmetric true: MatMultTranspose = MatMult");

  // Exterior facets: detected over the cell and the facet operators.
  Mat R, F;
  PetscCall(create_mat(dm, "data/robin.ufl", "r_", nullptr, &R));
  PetscCall(MatIsSymmetric(R, 0.0, &flg));
  expect(flg, "laplace + alpha u v ds: MatIsSymmetric");
  PetscCall(create_mat(dm, "data/laplace_normal_flux.ufl", "f_", nullptr, &F));
  PetscCall(MatIsSymmetric(F, 0.0, &flg));
  expect(!flg, "laplace - grad u . n v ds: not symmetric");
  PetscCall(MatDestroy(&R));
  PetscCall(MatDestroy(&F));

  // MatCopy into a mass matrix makes it the nonlinear Jacobian.
  PetscCall(create_mat(dm, "mass.ufl", "m_", nullptr, &M));
  PetscCall(MatCopy(N, M, SAME_NONZERO_PATTERN));
  PetscCall(difference(M, N, false, x, &d));
  expect(d == 0.0, "MatCopy: the copy applies the same operator");

  PetscCall(MatDestroy(&L));
  PetscCall(MatDestroy(&N));
  PetscCall(MatDestroy(&D));
  PetscCall(MatDestroy(&M));
  PetscCall(VecDestroy(&w));
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
