// Coefficients in their own elements, bound through the DM's auxiliary vector: the fem_gpu
// Mat of aux_coefficients.ufl (kappa P1, c DG0, beta a P2 vector) applies the same
// operator as the AIJ matrix PETSc assembles from the equivalent PetscDS, whose pointwise
// Jacobian reads the same auxiliary fields:
//   a(u, v) = kappa grad u . grad v + c u v + (beta . grad u) v
// For each degree in -degrees: mesh -> P_k scalar field, Dirichlet on "left" -> a clone
// with the auxiliary fields (named as the coefficients, PETSc's quadrature copied from
// the field) -> smooth values, DMSetAuxiliaryVec -> J (DMPlexSNESComputeJacobianFEM) and
// A (fem_gpu) -> |A x - J x|_inf / |J x|_inf for random x; exit 1 above -tolerance.
// -single: the one-coefficient form aux_coefficient_single.ufl on an auxiliary DM with one
// field not named after it (the rule "one field, one coefficient"); -unnamed leaves the
// three fields with PETSc's names (P1, P0, P2), which the Mat cannot bind.
// -aux_kappa_degree k gives the kappa field another degree than the form's, which the
// Mat must refuse. -solve: instead
// of MatMult, KSPSolve with A (options prefixed solve_, e.g. -solve_pc_type fem_gpu_pmg,
// whose levels take the coefficients in their own elements as they are) against LU of J.
#include <petscdmplex.h>
#include <petscds.h>
#include <petscsnes.h>

#include <cmath>
#include <string>

#include "femgpu.h"
#include "left_boundary.h"
#include "petsc/base/petsc_compat.h"
#include "solve_both.h"

static const char help[] = "Compares a fem_gpu Mat whose coefficients are auxiliary fields with PETSc's assembled Jacobian.\n"
                           "  -degrees 1,2,3 -single -solve -unnamed -aux_kappa_degree K -tolerance T -data_dir DIR\n";

namespace {

struct Options {
  std::string data_dir = FEMGPU_TEST_DATA_DIR;
  PetscInt degree = 1, kappa_degree = 1;
  PetscBool single = PETSC_FALSE, solve = PETSC_FALSE, unnamed = PETSC_FALSE;
};

PetscErrorCode zero(PetscInt, PetscReal, const PetscReal[], PetscInt Nc, PetscScalar *u, void *)
{
  for (PetscInt c = 0; c < Nc; ++c) u[c] = 0.0;
  return PETSC_SUCCESS;
}

// Smooth, positive, different per field (ctx points to its index) and component.
PetscErrorCode smooth(PetscInt dim, PetscReal, const PetscReal x[], PetscInt Nc, PetscScalar *u, void *ctx)
{
  const PetscInt f = *static_cast<PetscInt *>(ctx);
  for (PetscInt c = 0; c < Nc; ++c) {
    u[c] = 1.0 + 0.1 * (f + c);
    for (PetscInt d = 0; d < dim; ++d) u[c] += 0.3 * std::sin(1.1 * (f + 1) * x[d] + 0.5 * (c + d));
  }
  return PETSC_SUCCESS;
}

// The auxiliary fields are a[aOff[0]] kappa, a[aOff[1]] c, a[aOff[2] + d] beta (or kappa alone).
void g0(PetscInt, PetscInt, PetscInt, const PetscInt[], const PetscInt[], const PetscScalar[], const PetscScalar[], const PetscScalar[],
        const PetscInt[], const PetscInt[], const PetscScalar a[], const PetscScalar[], const PetscScalar[], PetscReal, PetscReal,
        const PetscReal[], PetscInt, const PetscScalar[], PetscScalar g[])
{
  g[0] = a[1];
}

void g1(PetscInt dim, PetscInt, PetscInt, const PetscInt[], const PetscInt[], const PetscScalar[], const PetscScalar[], const PetscScalar[],
        const PetscInt[], const PetscInt[], const PetscScalar a[], const PetscScalar[], const PetscScalar[], PetscReal, PetscReal,
        const PetscReal[], PetscInt, const PetscScalar[], PetscScalar g[])
{
  for (PetscInt d = 0; d < dim; ++d) g[d] = a[2 + d];
}

void g3(PetscInt dim, PetscInt, PetscInt, const PetscInt[], const PetscInt[], const PetscScalar[], const PetscScalar[], const PetscScalar[],
        const PetscInt[], const PetscInt[], const PetscScalar a[], const PetscScalar[], const PetscScalar[], PetscReal, PetscReal,
        const PetscReal[], PetscInt, const PetscScalar[], PetscScalar g[])
{
  for (PetscInt d = 0; d < dim; ++d) g[d * dim + d] = a[0];
}

// The mesh, its P_k field with Dirichlet on "left", and the PetscDS Jacobian.
PetscErrorCode create_problem(MPI_Comm comm, const Options &o, DM *dm, PetscFE *fe)
{
  PetscInt dim, left = 1;
  DMLabel label;
  PetscDS ds;
  PetscFunctionBegin;
  PetscCall(FEMGPUCreateMeshFromOptions(comm, dm));
  PetscCall(MarkLeftBoundary(*dm));
  PetscCall(DMGetDimension(*dm, &dim));
  // Stroud order k + 1 is exact to 2k + 3: beta (P2) grad u v has degree 2k + 1.
  PetscCall(PetscFECreateLagrange(comm, dim, 1, PETSC_TRUE, o.degree, o.degree + 1, fe));
  PetscCall(DMAddField(*dm, nullptr, (PetscObject)*fe));
  PetscCall(DMCreateDS(*dm));
  PetscCall(DMGetLabel(*dm, "left", &label));
  PetscCall(DMAddBoundary(*dm, DM_BC_ESSENTIAL, "left", label, 1, &left, 0, 0, nullptr, (void (*)(void))zero, nullptr, nullptr, nullptr));
  PetscCall(DMGetDS(*dm, &ds));
  if (o.single) PetscCall(PetscDSSetJacobian(ds, 0, 0, nullptr, nullptr, nullptr, g3));
  else PetscCall(PetscDSSetJacobian(ds, 0, 0, g0, g1, nullptr, g3));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The auxiliary DM (kappa, c, beta; or one unnamed field) with smooth values, set as dm's
// auxiliary vector (local, as PETSc wants it).
PetscErrorCode set_auxiliary(const Options &o, DM dm, PetscFE fe)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)dm);
  const char *names[] = {"kappa", "c", "beta"};
  PetscInt dim, indices[3] = {0, 1, 2};
  DM adm;
  Vec g, l;
  PetscFunctionBegin;
  PetscCall(DMGetDimension(dm, &dim));
  PetscCall(DMClone(dm, &adm));
  const PetscInt nf = o.single ? 1 : 3, degrees[3] = {o.kappa_degree, 0, 2}, components[3] = {1, 1, dim};
  for (PetscInt f = 0; f < nf; ++f) {
    PetscFE afe;
    PetscCall(PetscFECreateLagrange(comm, dim, components[f], PETSC_TRUE, degrees[f], PETSC_DETERMINE, &afe));
    PetscCall(PetscFECopyQuadrature(fe, afe));  // PETSc evaluates aux fields at the field's points
    if (!o.single && !o.unnamed) PetscCall(PetscObjectSetName((PetscObject)afe, names[f]));
    PetscCall(DMSetField(adm, f, nullptr, (PetscObject)afe));
    PetscCall(PetscFEDestroy(&afe));
  }
  PetscCall(DMCreateDS(adm));
  PetscErrorCode (*funcs[3])(PetscInt, PetscReal, const PetscReal[], PetscInt, PetscScalar *, void *) = {smooth, smooth, smooth};
  void *ctxs[3] = {&indices[0], &indices[1], &indices[2]};
  PetscCall(DMCreateGlobalVector(adm, &g));
  PetscCall(DMProjectFunction(adm, 0.0, funcs, ctxs, INSERT_ALL_VALUES, g));
  PetscCall(DMCreateLocalVector(adm, &l));
  PetscCall(DMGlobalToLocal(adm, g, INSERT_VALUES, l));
  PetscCall(DMSetAuxiliaryVec(dm, nullptr, 0, 0, l));
  PetscCall(VecDestroy(&l));
  PetscCall(VecDestroy(&g));
  PetscCall(DMDestroy(&adm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode compare(MPI_Comm comm, const Options &o, PetscReal *error, PetscInt *size)
{
  DM dm;
  PetscFE fe;
  Mat J, A;
  Vec w, x, yJ, yA;
  PetscReal nJ;
  PetscFunctionBegin;
  PetscCall(create_problem(comm, o, &dm, &fe));
  PetscCall(set_auxiliary(o, dm, fe));
  PetscCall(PetscFEDestroy(&fe));
  PetscCall(DMCreateLocalVector(dm, &w));
  PetscCall(VecSet(w, 0.0));
  PetscCall(DMSetMatType(dm, MATAIJ));
  PetscCall(DMCreateMatrix(dm, &J));
  PetscCall(DMPlexSNESComputeJacobianFEM(dm, w, J, J, nullptr));
  PetscCall(DMSetMatType(dm, MATFEMGPU));
  PetscCall(DMCreateMatrix(dm, &A));
  const std::string file = o.data_dir + (o.single ? "/aux_coefficient_single.ufl" : "/aux_coefficients.ufl");
  PetscCall(MatFEMGPUSetFormFile(A, file.c_str()));
  PetscCall(DMCreateGlobalVector(dm, &x));
  PetscCall(VecGetSize(x, size));
  PetscCall(VecDuplicate(x, &yJ));
  PetscCall(VecDuplicate(x, &yA));
  PetscCall(VecSetRandom(x, nullptr));
  PetscCall(VecShift(x, 0.5));
  if (o.solve) PetscCall(solve_both(A, J, x, yA, yJ));
  else {
    PetscCall(MatMult(J, x, yJ));
    PetscCall(MatMult(A, x, yA));
  }
  PetscCall(VecNorm(yJ, NORM_INFINITY, &nJ));
  PetscCall(VecAXPY(yA, -1.0, yJ));
  PetscCall(VecNorm(yA, NORM_INFINITY, error));
  *error = nJ > 0 ? *error / nJ : *error;
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
  PetscInt degrees[8] = {1, 2, 3}, n_degrees = 8;
  PetscReal tolerance = 1e-12;
  char dir[PETSC_MAX_PATH_LEN] = FEMGPU_TEST_DATA_DIR;
  PetscBool set;
  Options o;
  PetscFunctionBegin;
  PetscOptionsBegin(comm, "", "auxiliary coefficients vs AIJ options", "");
  PetscCall(PetscOptionsIntArray("-degrees", "Lagrange degrees of the field", "", degrees, &n_degrees, &set));
  if (!set) n_degrees = 3;
  PetscCall(PetscOptionsBool("-solve", "Compare KSPSolve with A (-solve_ options) with LU of J", "", o.solve, &o.solve, nullptr));
  PetscCall(PetscOptionsBool("-unnamed", "Leave the auxiliary fields unnamed (the Mat cannot bind them)", "", o.unnamed, &o.unnamed, nullptr));
  PetscCall(PetscOptionsBool("-single", "One coefficient, one unnamed auxiliary field", "", o.single, &o.single, nullptr));
  PetscCall(PetscOptionsInt("-aux_kappa_degree", "Degree of the auxiliary kappa field (the form's: 1)", "", o.kappa_degree, &o.kappa_degree, nullptr));
  PetscCall(PetscOptionsString("-data_dir", "Folder of the form files", "", dir, dir, sizeof(dir), nullptr));
  PetscCall(PetscOptionsReal("-tolerance", "Relative tolerance", "", tolerance, &tolerance, nullptr));
  PetscOptionsEnd();
  o.data_dir = dir;
  for (PetscInt i = 0; i < n_degrees; ++i) {
    PetscReal error;
    PetscInt size;
    o.degree = degrees[i];
    PetscCall(compare(comm, o, &error, &size));
    const bool ok = error <= tolerance;
    *failures += ok ? 0 : 1;
    PetscCall(PetscPrintf(comm, "%s P%" PetscInt_FMT " (%" PetscInt_FMT " free DOFs): |A - J|/|J| = %.3e  %s\n", o.single ? "kappa" : "kappa, c, beta",
                          o.degree, size, (double)error, ok ? "ok" : "FAIL"));
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
