// femgpu's residual kernel (-dm_fem_gpu_form_file) computes the residual PETSc computes
// (DMPlexSNESComputeResidualFEM) from independent pointwise functions written here from
// each form file's header, for every degree in -degrees: residuals F, linear problems
// given as a and L (F = a(w, v) - L(v)), and right-hand sides L alone (F = -L(v), kernels
// with no trial function and one coefficient or none).
//
// For each degree: mesh (FEMGPUCreateMeshFromOptions) -> "left" faces with an essential
// condition of non-zero values (so boundary values must reach the kernel) -> P_k field ->
// PetscDS residual (f0, f1 below) -> SNES with DMPlexSetSNESLocalFEM -> F_petsc =
// SNESComputeFunction at a random x -> -dm_fem_gpu_form_file FILE, SNESSetFromOptions
// (femgpu replaces the residual) -> F_femgpu at the same x -> |F_femgpu - F_petsc|_inf /
// |F_petsc|_inf, which must be at most -tolerance (exit code 1 otherwise). Both use exact
// quadrature for the polynomial integrands. Constants go to both sides: the PetscDS's
// and -mat_fem_gpu_constant_*.
//
// -solve (forms with pointwise Jacobians: linear_problem, neumann_problem): Newton's
// method from zero twice, PETSc alone (its residual, its Jacobian assembled as AIJ from
// pointwise Jacobians) and femgpu alone (-dm_fem_gpu_form_file with the fem_gpu
// Jacobian, derivative(F, w, u) of the file); the same Newton iterations and solutions
// within -solve_tolerance (|u_femgpu - u_petsc|_inf / |u_petsc|_inf, default 1e-9).
#include <petscdmplex.h>
#include <petscds.h>
#include <petscfe.h>
#include <petscsnes.h>

#include <cmath>
#include <string>
#include <vector>

#include "femgpu.h"
#include "left_boundary.h"
#include "petsc/base/petsc_compat.h"

static const char help[] = "Compares femgpu's residual kernel with PETSc's DMPlexSNESComputeResidualFEM.\n"
                           "  -form hyperelasticity|nonlinear_diffusion|linear_problem|rhs_coefficient|rhs_constant|elasticity_load -forms_dir DIR\n"
                           "  -form_file FILE (another file with -form's physics) -degrees 1,2,3 -tolerance T\n"
                           "  -solve -solve_tolerance T: also solve with both and compare (linear_problem, neumann_problem)\n";

namespace {

#define POINTWISE_ARGS                                                                                                             \
  PetscInt dim, PetscInt, PetscInt, const PetscInt[], const PetscInt[], const PetscScalar u[], const PetscScalar[],              \
      const PetscScalar u_x[], const PetscInt[], const PetscInt[], const PetscScalar[], const PetscScalar[], const PetscScalar[], \
      PetscReal, const PetscReal x[], PetscInt, const PetscScalar constants[]

// St. Venant-Kirchhoff (hyperelasticity.ufl): P = (I + grad w) S, S = lmbda tr(E) I + 2 mu E,
// E = ((I + grad w)^T (I + grad w) - I) / 2; F = (P, grad v) - (B e_0, v).
// constants = {lmbda, mu, B}.
void f0_hyperelastic(POINTWISE_ARGS, PetscScalar f0[])
{
  (void)u, (void)u_x, (void)x;
  for (PetscInt c = 0; c < dim; ++c) f0[c] = c == 0 ? -constants[2] : 0.0;
}

void f1_hyperelastic(POINTWISE_ARGS, PetscScalar f1[])
{
  (void)u, (void)x;
  PetscScalar Fd[3][3], E[3][3], S[3][3], trE = 0;
  for (PetscInt i = 0; i < dim; ++i)
    for (PetscInt j = 0; j < dim; ++j) Fd[i][j] = (i == j ? 1.0 : 0.0) + u_x[i * dim + j];
  for (PetscInt i = 0; i < dim; ++i)
    for (PetscInt j = 0; j < dim; ++j) {
      E[i][j] = -(i == j ? 0.5 : 0.0);
      for (PetscInt k = 0; k < dim; ++k) E[i][j] += 0.5 * Fd[k][i] * Fd[k][j];
    }
  for (PetscInt i = 0; i < dim; ++i) trE += E[i][i];
  for (PetscInt i = 0; i < dim; ++i)
    for (PetscInt j = 0; j < dim; ++j) S[i][j] = (i == j ? constants[0] * trE : 0.0) + 2.0 * constants[1] * E[i][j];
  for (PetscInt i = 0; i < dim; ++i)
    for (PetscInt j = 0; j < dim; ++j) {
      f1[i * dim + j] = 0;
      for (PetscInt k = 0; k < dim; ++k) f1[i * dim + j] += Fd[i][k] * S[k][j];
    }
}

// nonlinear_diffusion.ufl: F = ((1 + w^2) grad w, grad v) - (f, v); constants = {f}.
void f0_nonlinear_diffusion(POINTWISE_ARGS, PetscScalar f0[])
{
  (void)dim, (void)u, (void)u_x, (void)x;
  f0[0] = -constants[0];
}

void f1_nonlinear_diffusion(POINTWISE_ARGS, PetscScalar f1[])
{
  (void)constants, (void)x;
  for (PetscInt d = 0; d < dim; ++d) f1[d] = (1.0 + u[0] * u[0]) * u_x[d];
}

// linear_problem.ufl: F = a(w, v) - L(v) = (k grad w, grad v) + (c w, v) - (1 + x0^2 x1, v);
// constants = {k, c}.
void f0_linear_problem(POINTWISE_ARGS, PetscScalar f0[])
{
  (void)dim, (void)u_x;
  f0[0] = constants[1] * u[0] - (1.0 + x[0] * x[0] * x[1]);
}

void f1_linear_problem(POINTWISE_ARGS, PetscScalar f1[])
{
  (void)u, (void)x;
  for (PetscInt d = 0; d < dim; ++d) f1[d] = constants[0] * u_x[d];
}

// neumann_problem.ufl: linear_problem's cell terms, -(1 + x0 x1, v) on the faces of
// "Face Sets" value 2 and (w^2, v) on those of value 3.
void f0_neumann_given(PetscInt, PetscInt, PetscInt, const PetscInt[], const PetscInt[], const PetscScalar[], const PetscScalar[], const PetscScalar[],
                      const PetscInt[], const PetscInt[], const PetscScalar[], const PetscScalar[], const PetscScalar[], PetscReal, const PetscReal x[],
                      const PetscReal[], PetscInt, const PetscScalar[], PetscScalar f0[])
{
  f0[0] = -(1.0 + x[0] * x[1]);
}

void f0_neumann_nonlinear(PetscInt, PetscInt, PetscInt, const PetscInt[], const PetscInt[], const PetscScalar u[], const PetscScalar[],
                          const PetscScalar[], const PetscInt[], const PetscInt[], const PetscScalar[], const PetscScalar[], const PetscScalar[], PetscReal,
                          const PetscReal[], const PetscReal[], PetscInt, const PetscScalar[], PetscScalar f0[])
{
  f0[0] = u[0] * u[0];
}

// Their Jacobians: (k grad du, grad v) + (c du, v) in the cells, (2 w du, v) on value 3.
void g0_linear_problem(PetscInt, PetscInt, PetscInt, const PetscInt[], const PetscInt[], const PetscScalar[], const PetscScalar[], const PetscScalar[],
                       const PetscInt[], const PetscInt[], const PetscScalar[], const PetscScalar[], const PetscScalar[], PetscReal, PetscReal,
                       const PetscReal[], PetscInt, const PetscScalar constants[], PetscScalar g0[])
{
  g0[0] = constants[1];
}

void g3_linear_problem(PetscInt dim, PetscInt, PetscInt, const PetscInt[], const PetscInt[], const PetscScalar[], const PetscScalar[], const PetscScalar[],
                       const PetscInt[], const PetscInt[], const PetscScalar[], const PetscScalar[], const PetscScalar[], PetscReal, PetscReal,
                       const PetscReal[], PetscInt, const PetscScalar constants[], PetscScalar g3[])
{
  for (PetscInt d = 0; d < dim; ++d) g3[d * dim + d] = constants[0];
}

void g0_neumann_nonlinear(PetscInt, PetscInt, PetscInt, const PetscInt[], const PetscInt[], const PetscScalar u[], const PetscScalar[],
                          const PetscScalar[], const PetscInt[], const PetscInt[], const PetscScalar[], const PetscScalar[], const PetscScalar[], PetscReal,
                          PetscReal, const PetscReal[], const PetscReal[], PetscInt, const PetscScalar[], PetscScalar g0[])
{
  g0[0] = 2.0 * u[0];
}

// rhs_coefficient.ufl: F(g; v) = -L = -(s (1 + g^2) x0, v) - (x1 grad g, grad v); constants = {s}.
void f0_rhs_coefficient(POINTWISE_ARGS, PetscScalar f0[])
{
  (void)dim, (void)u_x;
  f0[0] = -constants[0] * (1.0 + u[0] * u[0]) * x[0];
}

void f1_rhs_coefficient(POINTWISE_ARGS, PetscScalar f1[])
{
  (void)u, (void)constants;
  for (PetscInt d = 0; d < dim; ++d) f1[d] = -x[1] * u_x[d];
}

// rhs_constant.ufl: F(v) = -(s, v); constants = {s}.
void f0_rhs_constant(POINTWISE_ARGS, PetscScalar f0[])
{
  (void)dim, (void)u, (void)u_x, (void)x;
  f0[0] = -constants[0];
}

// elasticity_load.ufl: F = (sigma(w), eps(v)) - (f, v), f_i = x_i x_0; constants = {lmbda, mu}.
void f0_elasticity_load(POINTWISE_ARGS, PetscScalar f0[])
{
  (void)u, (void)u_x, (void)constants;
  for (PetscInt c = 0; c < dim; ++c) f0[c] = -x[c] * x[0];
}

void f1_elasticity_load(POINTWISE_ARGS, PetscScalar f1[])
{
  (void)u, (void)x;
  PetscScalar trace = 0;
  for (PetscInt d = 0; d < dim; ++d) trace += u_x[d * dim + d];
  for (PetscInt i = 0; i < dim; ++i)
    for (PetscInt j = 0; j < dim; ++j)
      f1[i * dim + j] = (i == j ? constants[0] * trace : 0.0) + constants[1] * (u_x[i * dim + j] + u_x[j * dim + i]);
}

// Non-zero, different in every component: the values the boundary must carry.
PetscErrorCode boundary_values(PetscInt dim, PetscReal, const PetscReal x[], PetscInt Nc, PetscScalar *u, void *)
{
  for (PetscInt c = 0; c < Nc; ++c) {
    u[c] = 0.05 * (c + 1);
    for (PetscInt d = 0; d < dim; ++d) u[c] += 0.1 * std::sin(1.3 * (c + 1) * x[d] + 0.7 * d);
  }
  return PETSC_SUCCESS;
}

struct Case {
  std::string form, forms_dir, file;  // file: FORMS_DIR/FORM.ufl unless -form_file says otherwise
  PetscInt degree = 1;
  PetscReal tolerance = 1e-12;
  PetscReal solve_tolerance = 1e-9;  // both Newton's methods stop at a relative residual of 1e-12
};

using Pointwise = void (*)(POINTWISE_ARGS, PetscScalar[]);
using PointwiseJacobian = decltype(&g0_linear_problem);
using BoundaryJacobian = decltype(&g0_neumann_nonlinear);

// PETSc's boundary pointwise signature (PetscBdPointFunc, renamed PetscBdPointFn in 3.24).
using BoundaryPointwise = decltype(&f0_neumann_given);

// Each form file's pointwise residual, its field and the PetscDS constants (the form's
// defaults unless an option gives the form the same value).
struct Physics {
  const char *form;
  bool vector;
  std::vector<PetscScalar> constants;
  Pointwise f0, f1;
  BoundaryPointwise given_flux = nullptr, nonlinear_flux = nullptr;  // on "Face Sets" 2 and 3 (neumann_problem)
  PointwiseJacobian g0 = nullptr, g3 = nullptr;  // -solve
  BoundaryJacobian nonlinear_flux_g0 = nullptr;
};

const Physics kPhysics[] = {
    {"hyperelasticity", true, {0.7, 0.5, 0.1}, f0_hyperelastic, f1_hyperelastic},  // lmbda, mu, B
    {"nonlinear_diffusion", false, {1.0}, f0_nonlinear_diffusion, f1_nonlinear_diffusion},
    {"linear_problem", false, {1.5, 0.5}, f0_linear_problem, f1_linear_problem, nullptr, nullptr, g0_linear_problem, g3_linear_problem},
    {"neumann_problem", false, {1.5, 0.5}, f0_linear_problem, f1_linear_problem, f0_neumann_given, f0_neumann_nonlinear, g0_linear_problem,
     g3_linear_problem, g0_neumann_nonlinear},
    {"rhs_coefficient", false, {2.0}, f0_rhs_coefficient, f1_rhs_coefficient},
    {"rhs_constant", false, {3.0}, f0_rhs_constant, nullptr},
    {"elasticity_load", true, {0.7, 1.3}, f0_elasticity_load, f1_elasticity_load},
};

PetscErrorCode find_physics(const std::string &form, const Physics **physics)
{
  PetscFunctionBegin;
  *physics = nullptr;
  for (const Physics &p : kPhysics)
    if (form == p.form) *physics = &p;
  PetscCheck(*physics, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-form %s: no pointwise residual for this form", form.c_str());
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Natural conditions: the boundary residuals of `physics` on "Face Sets" values 2 and 3.
PetscErrorCode add_fluxes(DM dm, PetscDS ds, const Physics &physics)
{
  DMLabel label;
  PetscWeakForm wf;
  PetscInt bd;
  const PetscInt values[2] = {2, 3};
  PetscFunctionBegin;
  PetscCall(DMGetLabel(dm, "Face Sets", &label));
  PetscCall(DMAddBoundary(dm, DM_BC_NATURAL, "fluxes", label, 2, values, 0, 0, nullptr, nullptr, nullptr, nullptr, &bd));
  PetscCall(PetscDSGetBoundary(ds, bd, &wf, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr));
  PetscCall(PetscWeakFormSetIndexBdResidual(wf, label, values[0], 0, 0, 0, physics.given_flux, 0, nullptr));
  PetscCall(PetscWeakFormSetIndexBdResidual(wf, label, values[1], 0, 0, 0, physics.nonlinear_flux, 0, nullptr));
  if (physics.nonlinear_flux_g0)
    PetscCall(PetscWeakFormSetIndexBdJacobian(wf, label, values[1], 0, 0, 0, 0, physics.nonlinear_flux_g0, 0, nullptr, 0, nullptr, 0, nullptr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode create_problem(MPI_Comm comm, const Case &c, DM *dm)
{
  PetscInt dim, left = 1;
  PetscFE fe;
  DMLabel label;
  PetscDS ds;
  const Physics *physics;
  PetscFunctionBegin;
  PetscCall(find_physics(c.form, &physics));
  PetscCall(FEMGPUCreateMeshFromOptions(comm, dm));
  PetscCall(MarkLeftBoundary(*dm));
  PetscCall(DMGetDimension(*dm, &dim));
  // Stroud rules of order 2k are exact to degree 4k + 1: every integrand is of degree 4k - 2 at most.
  PetscCall(PetscFECreateLagrange(comm, dim, physics->vector ? dim : 1, PETSC_TRUE, c.degree, 2 * c.degree, &fe));
  PetscCall(DMAddField(*dm, nullptr, (PetscObject)fe));
  PetscCall(PetscFEDestroy(&fe));
  PetscCall(DMCreateDS(*dm));
  PetscCall(DMGetLabel(*dm, "left", &label));
  PetscCall(DMAddBoundary(*dm, DM_BC_ESSENTIAL, "left", label, 1, &left, 0, 0, nullptr, (void (*)(void))boundary_values, nullptr, nullptr, nullptr));
  PetscCall(DMGetDS(*dm, &ds));
  PetscCall(PetscDSSetConstants(ds, static_cast<PetscInt>(physics->constants.size()), const_cast<PetscScalar *>(physics->constants.data())));
  PetscCall(PetscDSSetResidual(ds, 0, physics->f0, physics->f1));
  if (physics->g0) PetscCall(PetscDSSetJacobian(ds, 0, 0, physics->g0, nullptr, nullptr, physics->g3));
  if (physics->given_flux) PetscCall(add_fluxes(*dm, ds, *physics));
  if (c.form == "hyperelasticity") PetscCall(PetscOptionsSetValue(nullptr, "-mat_fem_gpu_constant_lmbda", "0.7"));  // the file's is 1
  PetscFunctionReturn(PETSC_SUCCESS);
}

// |F_femgpu - F_petsc|_inf / |F_petsc|_inf at a random x.
PetscErrorCode compare(MPI_Comm comm, const Case &c, PetscReal *error, PetscInt *size)
{
  DM dm;
  SNES snes;
  Vec x, f_petsc, f_femgpu;
  PetscReal norm;
  PetscFunctionBegin;
  PetscCall(create_problem(comm, c, &dm));
  PetscCall(SNESCreate(comm, &snes));
  PetscCall(SNESSetDM(snes, dm));
#if PETSC_VERSION_LT(3, 21, 0)
  PetscCall(DMPlexSetSNESLocalFEM(dm, nullptr, nullptr, nullptr));
#else
  PetscCall(DMPlexSetSNESLocalFEM(dm, PETSC_FALSE, nullptr));
#endif
  PetscCall(DMCreateGlobalVector(dm, &x));
  PetscCall(VecGetSize(x, size));
  PetscCall(VecDuplicate(x, &f_petsc));
  PetscCall(VecDuplicate(x, &f_femgpu));
  PetscCall(VecSetRandom(x, nullptr));
  PetscCall(VecScale(x, 0.2));  // a moderate displacement: the hyperelastic stress stays O(1)
  PetscCall(SNESComputeFunction(snes, x, f_petsc));
  PetscCall(PetscOptionsSetValue(nullptr, "-dm_fem_gpu_form_file", c.file.c_str()));
  PetscCall(SNESSetFromOptions(snes));  // femgpu replaces the DM's residual
  PetscCall(PetscOptionsClearValue(nullptr, "-dm_fem_gpu_form_file"));
  PetscCall(VecSet(f_femgpu, NAN));  // every entry must be written
  PetscCall(SNESComputeFunction(snes, x, f_femgpu));
  PetscCall(VecNorm(f_petsc, NORM_INFINITY, &norm));
  PetscCall(VecAXPY(f_femgpu, -1.0, f_petsc));
  PetscCall(VecNorm(f_femgpu, NORM_INFINITY, error));
  *error = norm > 0 ? *error / norm : *error;
  if (!(*error == *error)) *error = PETSC_INFINITY;
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&f_petsc));
  PetscCall(VecDestroy(&f_femgpu));
  PetscCall(SNESDestroy(&snes));
  PetscCall(DMDestroy(&dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Newton's method from zero on c's problem: PETSc's residual and AIJ Jacobian, or
// (femgpu) the form file's residual and fem_gpu Jacobian. *u: the solution (the caller
// destroys it), *its: Newton iterations.
PetscErrorCode solve(MPI_Comm comm, const Case &c, bool femgpu, Vec *u, PetscInt *its)
{
  DM dm;
  SNES snes;
  KSP ksp;
  PC pc;
  const Physics *physics;
  SNESConvergedReason reason;
  PetscFunctionBegin;
  PetscCall(find_physics(c.form, &physics));
  PetscCheck(physics->g0, comm, PETSC_ERR_ARG_WRONG, "-solve: no pointwise Jacobian for -form %s", c.form.c_str());
  PetscCall(create_problem(comm, c, &dm));
  PetscCall(DMSetMatType(dm, femgpu ? MATFEMGPU : MATAIJ));
  PetscCall(SNESCreate(comm, &snes));
  PetscCall(SNESSetDM(snes, dm));
#if PETSC_VERSION_LT(3, 21, 0)
  PetscCall(DMPlexSetSNESLocalFEM(dm, nullptr, nullptr, nullptr));
#else
  PetscCall(DMPlexSetSNESLocalFEM(dm, PETSC_FALSE, nullptr));
#endif
  PetscCall(SNESSetTolerances(snes, 1e-14, 1e-12, PETSC_DEFAULT, 20, PETSC_DEFAULT));
  PetscCall(SNESGetKSP(snes, &ksp));
  PetscCall(KSPSetType(ksp, KSPGMRES));
  PetscCall(KSPSetTolerances(ksp, 1e-13, 1e-15, PETSC_DEFAULT, 1000));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));  // needs only the diagonal: fem_gpu has it
  if (femgpu) PetscCall(PetscOptionsSetValue(nullptr, "-dm_fem_gpu_form_file", c.file.c_str()));
  PetscCall(SNESSetFromOptions(snes));
  if (femgpu) PetscCall(PetscOptionsClearValue(nullptr, "-dm_fem_gpu_form_file"));
  PetscCall(DMCreateGlobalVector(dm, u));
  PetscCall(VecSet(*u, 0.0));
  PetscCall(SNESSolve(snes, nullptr, *u));
  PetscCall(SNESGetConvergedReason(snes, &reason));
  PetscCheck(reason > 0, comm, PETSC_ERR_NOT_CONVERGED, "-solve (%s): Newton's method did not converge: %s", femgpu ? "femgpu" : "PETSc",
             SNESConvergedReasons[reason]);
  PetscCall(SNESGetIterationNumber(snes, its));
  PetscCall(SNESDestroy(&snes));
  PetscCall(DMDestroy(&dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// -solve: both solutions and Newton iteration counts; false when they differ.
PetscErrorCode compare_solutions(MPI_Comm comm, const Case &c, bool *ok)
{
  Vec u_petsc, u_femgpu;
  PetscInt its_petsc, its_femgpu, size;
  PetscReal norm, error;
  PetscFunctionBegin;
  PetscCall(solve(comm, c, false, &u_petsc, &its_petsc));
  PetscCall(solve(comm, c, true, &u_femgpu, &its_femgpu));
  PetscCall(VecGetSize(u_petsc, &size));
  PetscCall(VecNorm(u_petsc, NORM_INFINITY, &norm));
  PetscCall(VecAXPY(u_femgpu, -1.0, u_petsc));
  PetscCall(VecNorm(u_femgpu, NORM_INFINITY, &error));
  error /= norm;
  *ok = error <= c.solve_tolerance && its_petsc == its_femgpu;
  PetscCall(PetscPrintf(comm, "%s P%d (%d DOFs) solved: Newton iterations PETSc %d, femgpu %d; |u_femgpu - u_petsc| / |u_petsc| = %.3e  %s\n",
                        c.form.c_str(), (int)c.degree, (int)size, (int)its_petsc, (int)its_femgpu, (double)error, *ok ? "ok" : "FAIL"));
  PetscCall(VecDestroy(&u_petsc));
  PetscCall(VecDestroy(&u_femgpu));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

int main(int argc, char **argv)
{
  PetscInt degrees[8] = {1, 2}, n_degrees = 8;
  char form[64] = "nonlinear_diffusion", dir[PETSC_MAX_PATH_LEN] = FEMGPU_FORMS_DIR, file[PETSC_MAX_PATH_LEN] = "";
  Case c;
  int failures = 0;
  PetscBool solve_too = PETSC_FALSE;
  PetscCall(PetscInitialize(&argc, &argv, nullptr, help));
  PetscCall(MatFEMGPURegister());
  PetscCall(PetscOptionsGetString(nullptr, nullptr, "-form", form, sizeof(form), nullptr));
  PetscCall(PetscOptionsGetString(nullptr, nullptr, "-forms_dir", dir, sizeof(dir), nullptr));
  PetscCall(PetscOptionsGetString(nullptr, nullptr, "-form_file", file, sizeof(file), nullptr));
  PetscCall(PetscOptionsGetIntArray(nullptr, nullptr, "-degrees", degrees, &n_degrees, nullptr));
  PetscCall(PetscOptionsGetReal(nullptr, nullptr, "-tolerance", &c.tolerance, nullptr));
  PetscCall(PetscOptionsGetBool(nullptr, nullptr, "-solve", &solve_too, nullptr));
  PetscCall(PetscOptionsGetReal(nullptr, nullptr, "-solve_tolerance", &c.solve_tolerance, nullptr));
  c.form = form;
  c.forms_dir = dir;
  c.file = file[0] ? std::string(file) : c.forms_dir + "/" + c.form + ".ufl";
  for (PetscInt i = 0; i < n_degrees; ++i) {
    PetscReal error;
    PetscInt size;
    c.degree = degrees[i];
    PetscCall(compare(PETSC_COMM_WORLD, c, &error, &size));
    const bool ok = error <= c.tolerance;
    failures += ok ? 0 : 1;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s P%d (%d DOFs): |F_femgpu - F_petsc| / |F_petsc| = %.3e  %s\n", c.form.c_str(), (int)c.degree,
                          (int)size, (double)error, ok ? "ok" : "FAIL"));
    if (!solve_too) continue;
    bool solved = false;
    PetscCall(compare_solutions(PETSC_COMM_WORLD, c, &solved));
    failures += solved ? 0 : 1;
  }
  PetscCall(PetscFinalize());
  return failures ? 1 : 0;
}
