// A fem_gpu Mat with exterior facet integrals applies the same operator as the AIJ matrix
// PETSc assembles from a PetscDS: the Laplacian plus alpha u v on the boundary faces of
// the label values -values (all of "Face Sets" by default), PETSc's part as a natural
// boundary condition's boundary Jacobian (DMAddBoundary, PetscWeakFormSetIndexBdJacobian),
// femgpu's from a form with ds(i) for each value. MatMult and MatGetDiagonal are compared
// for every degree in -degrees; exit code 1 when |A x - J x|_inf / |J x|_inf (or the
// diagonals') exceeds -tolerance. The boundary term is checked to change J at all.
#include <petscdmplex.h>
#include <petscds.h>
#include <petscksp.h>
#include <petscsnes.h>

#include <string>
#include <vector>

#include "femgpu.h"
#include "petsc/base/petsc_compat.h"
#include "solve_both.h"
#include "vec_difference.h"

static const char help[] = "Compares fem_gpu MatMult, MatGetDiagonal and MatConvert of a Robin form with PETSc's assembled Jacobian.\n"
                           "  -degrees 1,2,3 -values 1,2,3,4 -alpha A -tolerance T -solve -solve_tolerance T -marker (mesh: FEMGPUCreateMeshFromOptions)\n";

namespace {

void g3_identity(PetscInt dim, PetscInt, PetscInt, const PetscInt[], const PetscInt[], const PetscScalar[], const PetscScalar[], const PetscScalar[],
                 const PetscInt[], const PetscInt[], const PetscScalar[], const PetscScalar[], const PetscScalar[], PetscReal, PetscReal,
                 const PetscReal[], PetscInt, const PetscScalar[], PetscScalar g3[])
{
  for (PetscInt d = 0; d < dim; ++d) g3[d * dim + d] = 1.0;
}

void g0_alpha(PetscInt, PetscInt, PetscInt, const PetscInt[], const PetscInt[], const PetscScalar[], const PetscScalar[], const PetscScalar[],
              const PetscInt[], const PetscInt[], const PetscScalar[], const PetscScalar[], const PetscScalar[], PetscReal, PetscReal, const PetscReal[],
              const PetscReal[], PetscInt n_constants, const PetscScalar constants[], PetscScalar g0[])
{
  g0[0] = n_constants > 0 ? constants[0] : 1.0;
}

// The DM with a P_k field, the Laplacian's Jacobian and, unless `plain`, the boundary term.
// -marker: "Face Sets" removed, "marker" = 1 on the boundary faces (PETSc's own marking).
PetscErrorCode use_marker_label(DM dm)
{
  DMLabel marker;
  PetscFunctionBegin;
  PetscCall(DMRemoveLabel(dm, "Face Sets", nullptr));
  PetscCall(DMCreateLabel(dm, "marker"));
  PetscCall(DMGetLabel(dm, "marker", &marker));
  PetscCall(DMPlexMarkBoundaryFaces(dm, 1, marker));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode create_problem(MPI_Comm comm, PetscInt k, const std::vector<PetscInt> &values, PetscScalar alpha, bool plain, bool marker, DM *dm)
{
  PetscFE fe;
  PetscDS ds;
  DMLabel label;
  PetscInt dim, bd;
  PetscWeakForm wf;
  PetscFunctionBegin;
  PetscCall(FEMGPUCreateMeshFromOptions(comm, dm));
  if (marker) PetscCall(use_marker_label(*dm));
  PetscCall(DMGetDimension(*dm, &dim));
  PetscCall(PetscFECreateLagrange(comm, dim, 1, PETSC_TRUE, k, PETSC_DETERMINE, &fe));
  PetscCall(DMSetField(*dm, 0, nullptr, (PetscObject)fe));
  PetscCall(PetscFEDestroy(&fe));
  PetscCall(DMCreateDS(*dm));
  PetscCall(DMGetDS(*dm, &ds));
  PetscCall(PetscDSSetJacobian(ds, 0, 0, nullptr, nullptr, nullptr, g3_identity));
  PetscCall(PetscDSSetConstants(ds, 1, &alpha));
  if (plain) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMGetLabel(*dm, marker ? "marker" : "Face Sets", &label));
  PetscCall(DMAddBoundary(*dm, DM_BC_NATURAL, "robin", label, static_cast<PetscInt>(values.size()), values.data(), 0, 0, nullptr, nullptr, nullptr,
                          nullptr, &bd));
  PetscCall(PetscDSGetBoundary(ds, bd, &wf, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr));
  for (PetscInt v : values) PetscCall(PetscWeakFormSetIndexBdJacobian(wf, label, v, 0, 0, 0, 0, g0_alpha, 0, nullptr, 0, nullptr, 0, nullptr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// PETSc's assembled Jacobian of the problem.
PetscErrorCode assemble(DM dm, Mat *J)
{
  Vec x;
  PetscFunctionBegin;
  PetscCall(DMSetMatType(dm, MATAIJ));
  PetscCall(DMCreateMatrix(dm, J));
  PetscCall(DMGetGlobalVector(dm, &x));
  PetscCall(VecSet(x, 0.0));
  PetscCall(DMPlexSNESComputeJacobianFEM(dm, x, *J, *J, nullptr));
  PetscCall(DMRestoreGlobalVector(dm, &x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The form: the Laplacian plus alpha u v ds(i) for each value.
std::string robin_form(const std::vector<PetscInt> &values)
{
  std::string text = "alpha = Constant(\"alpha\", 1.0)\na = inner(grad(u), grad(v))*dx";
  for (PetscInt v : values) text += " + alpha*u*v*ds(" + std::to_string(v) + ")";
  return text + "\n";
}

// |C - J|_inf / |J|_inf for C = MatConvert(A, aij).
PetscErrorCode convert_difference(Mat A, Mat J, PetscReal *error)
{
  Mat C;
  PetscReal nd, nj;
  PetscFunctionBegin;
  PetscCall(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, &C));
  PetscCall(MatNorm(J, NORM_INFINITY, &nj));
  PetscCall(MatAXPY(C, -1.0, J, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatNorm(C, NORM_INFINITY, &nd));
  *error = nd / nj;
  PetscCall(MatDestroy(&C));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// |A^-1 b - J^-1 b|_inf / |J^-1 b|_inf: A by the KSP of the options prefixed solve_, J by LU.
PetscErrorCode solve_difference(Mat A, Mat J, Vec b, PetscReal *error)
{
  Vec y, z;
  PetscFunctionBegin;
  PetscCall(VecDuplicate(b, &y));
  PetscCall(VecDuplicate(b, &z));
  PetscCall(solve_both(A, J, b, y, z));
  PetscCall(relative_difference(y, z, error));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&z));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The errors of MatMult, MatGetDiagonal and MatConvert, how much the boundary term
// changes J x, and with `solve` the solutions' difference (else 0).
PetscErrorCode compare(MPI_Comm comm, PetscInt k, const std::vector<PetscInt> &values, PetscReal alpha, bool solve, bool marker, PetscReal errors[5])
{
  DM dm, plain_dm;
  Mat J, P, A;
  Vec x, y, z;
  PetscRandom rnd;
  PetscFunctionBegin;
  PetscCall(create_problem(comm, k, values, alpha, false, marker, &dm));
  PetscCall(create_problem(comm, k, values, alpha, true, marker, &plain_dm));
  PetscCall(assemble(dm, &J));
  PetscCall(assemble(plain_dm, &P));
  PetscCall(DMSetMatType(dm, MATFEMGPU));
  PetscCall(DMCreateMatrix(dm, &A));
  PetscCall(MatFEMGPUSetForm(A, robin_form(values).c_str(), "robin(test)"));
  PetscCall(MatFEMGPUSetConstant(A, "alpha", alpha));
  PetscCall(MatSetFromOptions(A));
  PetscCall(DMCreateGlobalVector(dm, &x));
  PetscCall(VecDuplicate(x, &y));
  PetscCall(VecDuplicate(x, &z));
  PetscCall(PetscRandomCreate(comm, &rnd));
  PetscCall(VecSetRandom(x, rnd));
  PetscCall(MatMult(A, x, y));
  PetscCall(MatMult(J, x, z));
  PetscCall(relative_difference(y, z, &errors[0]));
  PetscCall(MatGetDiagonal(A, y));
  PetscCall(MatGetDiagonal(J, z));
  PetscCall(relative_difference(y, z, &errors[1]));
  PetscCall(MatMult(J, x, y));
  PetscCall(MatMult(P, x, z));
  PetscCall(relative_difference(y, z, &errors[2]));
  PetscCall(convert_difference(A, J, &errors[3]));
  errors[4] = 0;
  if (solve) PetscCall(solve_difference(A, J, x, &errors[4]));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&z));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&J));
  PetscCall(MatDestroy(&P));
  PetscCall(DMDestroy(&dm));
  PetscCall(DMDestroy(&plain_dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

int main(int argc, char **argv)
{
  PetscInt degrees[8] = {1, 2, 3}, n_degrees = 8, vals[8] = {1, 2, 3, 4}, n_values = 8;
  PetscReal tolerance = 1e-11, alpha = 2.5, solve_tolerance = 1e-9;
  PetscBool values_set, degrees_set, solve = PETSC_FALSE, marker = PETSC_FALSE;
  PetscCall(PetscInitialize(&argc, &argv, nullptr, help));
  PetscCall(MatFEMGPURegister());
  MPI_Comm comm = PETSC_COMM_WORLD;
  PetscCall(PetscOptionsGetIntArray(nullptr, nullptr, "-degrees", degrees, &n_degrees, &degrees_set));
  if (!degrees_set) n_degrees = 3;
  PetscCall(PetscOptionsGetIntArray(nullptr, nullptr, "-values", vals, &n_values, &values_set));
  if (!values_set) n_values = 4;
  PetscCall(PetscOptionsGetReal(nullptr, nullptr, "-tolerance", &tolerance, nullptr));
  PetscCall(PetscOptionsGetReal(nullptr, nullptr, "-alpha", &alpha, nullptr));
  PetscCall(PetscOptionsGetBool(nullptr, nullptr, "-solve", &solve, nullptr));
  PetscCall(PetscOptionsGetBool(nullptr, nullptr, "-marker", &marker, nullptr));
  PetscCall(PetscOptionsGetReal(nullptr, nullptr, "-solve_tolerance", &solve_tolerance, nullptr));
  const std::vector<PetscInt> values(vals, vals + n_values);
  bool ok = n_degrees > 0 && n_values > 0;
  for (PetscInt i = 0; i < n_degrees; ++i) {
    PetscReal e[5] = {0, 0, 0, 0, 0};
    PetscCall(compare(comm, degrees[i], values, alpha, solve, marker, e));
    PetscCall(PetscPrintf(comm, "P%" PetscInt_FMT ": MatMult %.3e, MatGetDiagonal %.3e, MatConvert %.3e (the boundary term changes J x by %.3e)\n",
                          degrees[i], (double)e[0], (double)e[1], (double)e[3], (double)e[2]));
    if (solve) PetscCall(PetscPrintf(comm, "P%" PetscInt_FMT ": KSPSolve with A against LU of J: %.3e\n", degrees[i], (double)e[4]));
    ok = ok && e[0] <= tolerance && e[1] <= tolerance && e[3] <= tolerance && e[2] > 1e-3 && e[4] <= solve_tolerance;
  }
  PetscCall(PetscPrintf(comm, "%s\n", ok ? "robin matches PETSc" : "MISMATCH"));
  PetscCall(PetscFinalize());
  return ok ? 0 : 1;
}
