// Misuse of the fem_gpu Mat through the C API is a PETSc error with the right code, and
// the Mat works once the misuse is corrected: a coefficient Vec of the wrong size, a
// missing coefficient, an unknown or non-finite constant, a Mat that is not fem_gpu, a Vec
// without a DM for a coefficient in its own element; and FEMGPUCreateBoxMesh with NULL
// (default) and bad arguments.
#include <petscdmplex.h>
#include <petscfe.h>

#include <cmath>
#include <string>

#include "femgpu.h"
#include "lagrange_box.h"
#include "petsc/base/petsc_compat.h"

static const char help[] = "Checks the error codes of misused fem_gpu matrices.\n";

namespace {

int failures = 0;

void expect(PetscErrorCode got, PetscErrorCode want, const char *what)
{
  const bool ok = got == want;
  failures += ok ? 0 : 1;
  PetscPrintf(PETSC_COMM_WORLD, "%s: error %d (expected %d) %s\n", what, (int)got, (int)want, ok ? "ok" : "FAIL");
}

// The log stage PETSc is in: an error inside femgpu's setup must leave its stage popped
// ("femgpu setup" is pushed for the setup's duration), or later work is logged there.
PetscErrorCode current_stage(PetscLogStage *stage)
{
  PetscFunctionBegin;
#if PETSC_VERSION_LT(3, 20, 0)
  PetscStageLog log;
  PetscCall(PetscLogGetStageLog(&log));
  PetscCall(PetscStageLogGetCurrent(log, stage));
#else
  PetscLogState state;
  PetscCall(PetscLogGetState(&state));
  *stage = 0;
  if (state) PetscCall(PetscLogStateGetCurrentStage(state, stage));
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A P1 vector field on a 2x2 square and the hyperelasticity Jacobian (needs coefficient w).
PetscErrorCode create(DM *dm, Mat *A)
{
  PetscFunctionBegin;
  PetscCall(CreateLagrangeBox(PETSC_COMM_WORLD, 2, 2, 2, 1, dm));
  PetscCall(DMSetMatType(*dm, MATFEMGPU));
  PetscCall(DMCreateMatrix(*dm, A));
  PetscCall(MatFEMGPUSetFormFile(*A, FEMGPU_FORMS_DIR "/hyperelasticity.ufl"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode run()
{
  DM dm;
  Mat A, aij;
  Vec x, y, wrong, w;
  PetscFunctionBegin;
  PetscCall(create(&dm, &A));
  PetscCall(DMCreateGlobalVector(dm, &x));
  PetscCall(VecDuplicate(x, &y));
  PetscCall(VecSet(x, 1.0));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, nullptr));
  expect(MatMult(A, x, y), PETSC_ERR_ARG_WRONGSTATE, "MatMult without the coefficient w");
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 7, &wrong));
  PetscCall(MatFEMGPUSetCoefficient(A, "w", wrong));
  expect(MatMult(A, x, y), PETSC_ERR_ARG_SIZ, "coefficient Vec of size 7");
  PetscCall(MatFEMGPUSetConstant(A, "no_such_constant", 1.0));
  PetscCall(DMCreateGlobalVector(dm, &w));
  PetscCall(VecSet(w, 0.0));
  PetscCall(MatFEMGPUSetCoefficient(A, "w", w));
  expect(MatMult(A, x, y), PETSC_ERR_ARG_WRONG, "an unknown constant");
  expect(MatFEMGPUSetConstant(A, "mu", HUGE_VAL), PETSC_ERR_ARG_OUTOFRANGE, "an infinite constant");
  expect(MatFEMGPUSetConstant(A, "mu", std::nan("")), PETSC_ERR_ARG_OUTOFRANGE, "a NaN constant");
  PetscCall(MatCreate(PETSC_COMM_WORLD, &aij));
  expect(MatFEMGPUSetConstant(aij, "mu", 1.0), PETSC_ERR_ARG_WRONG, "MatFEMGPUSetConstant on a Mat of another type");
  PetscCall(PetscPopErrorHandler());
  PetscCall(MatDestroy(&aij));
  PetscCall(MatDestroy(&A));
  // Corrected: a fresh Mat with the right coefficient applies (a rigid translation x = 1
  // has no strain, so A x = 0 at w = 0).
  PetscCall(DMSetMatType(dm, MATFEMGPU));
  PetscCall(DMCreateMatrix(dm, &A));
  PetscCall(MatFEMGPUSetFormFile(A, FEMGPU_FORMS_DIR "/hyperelasticity.ufl"));
  PetscCall(MatFEMGPUSetCoefficient(A, "w", w));
  PetscCall(MatMult(A, x, y));
  PetscReal norm;
  PetscCall(VecNorm(y, NORM_INFINITY, &norm));
  failures += norm < 1e-13 ? 0 : 1;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "corrected Mat: |A 1| = %g %s\n", (double)norm, norm < 1e-13 ? "ok" : "FAIL"));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&w));
  PetscCall(VecDestroy(&wrong));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A P1 coefficient on a P2 field needs a Vec of a DM with the P1 element: a plain Vec of
// the right length is refused (its layout is unknown); one of a P1 clone of the mesh works.
PetscErrorCode check_own_element_coefficient()
{
  DM dm, kdm;
  Mat A;
  Vec x, y, plain, k;
  PetscFE fe;
  PetscFunctionBegin;
  PetscCall(CreateLagrangeBox(PETSC_COMM_WORLD, 2, 2, 1, 2, &dm));
  PetscCall(DMSetMatType(dm, MATFEMGPU));
  PetscCall(DMCreateMatrix(dm, &A));
  PetscCall(MatFEMGPUSetFormFile(A, FEMGPU_TEST_DATA_DIR "/coefficient_p1_mass.ufl"));
  PetscCall(DMCreateGlobalVector(dm, &x));
  PetscCall(VecDuplicate(x, &y));
  PetscCall(VecSet(x, 1.0));
  PetscCall(DMClone(dm, &kdm));
  PetscCall(PetscFECreateLagrange(PETSC_COMM_WORLD, 2, 1, PETSC_TRUE, 1, PETSC_DETERMINE, &fe));
  PetscCall(DMSetField(kdm, 0, nullptr, (PetscObject)fe));
  PetscCall(PetscFEDestroy(&fe));
  PetscCall(DMCreateDS(kdm));
  PetscCall(DMCreateGlobalVector(kdm, &k));
  PetscCall(VecSet(k, 2.0));
  PetscCall(VecDuplicate(k, &plain));  // a duplicate keeps the DM: make one without
  PetscCall(VecDestroy(&plain));
  PetscInt n;
  PetscCall(VecGetLocalSize(k, &n));
  PetscCall(VecCreateMPI(PETSC_COMM_WORLD, n, PETSC_DETERMINE, &plain));
  PetscCall(VecSet(plain, 2.0));
  PetscCall(MatFEMGPUSetCoefficient(A, "k", plain));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, nullptr));
  expect(MatMult(A, x, y), PETSC_ERR_ARG_WRONG, "a Vec without a DM for a P1 coefficient on a P2 field");
  PetscCall(PetscPopErrorHandler());
  PetscCall(MatFEMGPUSetCoefficient(A, "k", k));
  PetscCall(MatMult(A, x, y));
  PetscScalar sum;  // the integral of k u v with u = v = 1: 2 over the unit square
  PetscCall(VecSum(y, &sum));
  const bool ok = std::abs(PetscRealPart(sum) - 2.0) < 1e-13;
  failures += ok ? 0 : 1;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "P1 coefficient of a P1 DM: sum(A 1) = %g %s\n", (double)PetscRealPart(sum), ok ? "ok" : "FAIL"));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&plain));
  PetscCall(VecDestroy(&k));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&kdm));
  PetscCall(DMDestroy(&dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// NULL faces and bounds are PETSc's defaults (the unit box); an empty box is an error.
PetscErrorCode check_box_mesh()
{
  DM dm;
  PetscReal lo[3], hi[3];
  PetscInt n_cells, c_start, c_end;
  const PetscInt faces[2] = {3, 2};
  const PetscReal lower[2] = {0, 1}, upper[2] = {1, 1};
  PetscFunctionBegin;
  for (PetscInt dim = 2; dim <= 3; ++dim) {
    PetscCall(FEMGPUCreateBoxMesh(PETSC_COMM_WORLD, dim, nullptr, nullptr, nullptr, &dm));
    PetscCall(DMGetBoundingBox(dm, lo, hi));
    PetscCall(DMPlexGetHeightStratum(dm, 0, &c_start, &c_end));
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &(n_cells = c_end - c_start), 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
    bool ok = n_cells == (dim == 2 ? 8 : 6);
    for (PetscInt d = 0; d < dim; ++d) ok = ok && lo[d] == 0 && hi[d] == 1;
    failures += ok ? 0 : 1;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FEMGPUCreateBoxMesh(dim %d, NULL, NULL, NULL): %d cells, unit box %s\n", (int)dim, (int)n_cells, ok ? "ok" : "FAIL"));
    PetscCall(DMDestroy(&dm));
  }
  PetscCall(FEMGPUCreateBoxMesh(PETSC_COMM_WORLD, 2, faces, nullptr, upper, &dm));  // lower NULL: from 0
  PetscCall(DMDestroy(&dm));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, nullptr));
  expect(FEMGPUCreateBoxMesh(PETSC_COMM_WORLD, 2, faces, lower, upper, &dm), PETSC_ERR_ARG_OUTOFRANGE, "a box of height 0");
  expect(FEMGPUCreateBoxMesh(PETSC_COMM_WORLD, 4, faces, nullptr, nullptr, &dm), PETSC_ERR_ARG_OUTOFRANGE, "a 4D box");
  PetscCall(PetscPopErrorHandler());
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

int main(int argc, char **argv)
{
  PetscLogStage before, after;
  PetscCall(PetscInitialize(&argc, &argv, nullptr, help));
  PetscCall(MatFEMGPURegister());
  PetscCall(current_stage(&before));
  PetscCall(run());
  PetscCall(check_own_element_coefficient());
  PetscCall(check_box_mesh());
  PetscCall(current_stage(&after));
  failures += before == after ? 0 : 1;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "log stage after the errors: %d (before: %d) %s\n", (int)after, (int)before, before == after ? "ok" : "FAIL"));
  PetscCall(PetscFinalize());
  return failures ? 1 : 0;
}
