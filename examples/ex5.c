static const char help[] = "Stokes flow -mu Laplace(u) + grad p = f, div u = 0 with Taylor-Hood P2^d x P1, solved with\n\
KSP and PCFIELDSPLIT (Schur complement) on a DM with two fields, velocity and pressure.\n\
The velocity is fixed (zero) on the face x = 0 and the other faces are free (natural\n\
condition); the body force is f = (0, -x0) in 2D, (0, 0, -x0) in 3D. The operator and the\n\
preconditioning matrix (the same with the pressure mass p q / mu in the (1, 1) block, for\n\
-pc_fieldsplit_schur_precondition a11) are PETSc's assembled matrices from the PetscDS's\n\
pointwise Jacobians (-dm_mat_type aij) or femgpu's matrix-free ones from\n\
examples/forms/stokes_{2d,3d}.ufl and stokes_pc_{2d,3d}.ufl (-dm_mat_type fem_gpu), whose\n\
blocks PCFIELDSPLIT takes with MatCreateSubMatrix. Prints the KSP iterations and the\n\
solution's norms, so the two can be compared in one command.\n\
Options:\n\
  -mu <mu>             viscosity (default 1)\n\
  -ex5_forms_dir <dir> the folder of the Stokes form files (default: this source tree's examples/forms)\n\
  -dm_mat_type <type>  fem_gpu (default) or aij\n\
  -dm_plex_dim, -dm_plex_box_faces, -mat_fem_gpu_*, -ksp_*, -pc_fieldsplit_*, -fieldsplit_velocity_*,\n\
  -fieldsplit_pressure_*, -log_view\n\n";

/* The default solver (each default is used unless the option is given): FGMRES, rtol 1e-10,
   around PCFIELDSPLIT with the full Schur factorization of the operator's blocks; A00 by CG +
   Jacobi (rtol 1e-4),
   the Schur complement by GMRES (rtol 1e-4) preconditioned by Jacobi on the pressure mass.
   With exact inner solves FGMRES would converge in one iteration. */

#include <femgpu.h>
#include <petscdmplex.h>
#include <petscds.h>
#include <petscksp.h>
#include <petscsnes.h>

#include "example_setup.h"
#include <petsctime.h>

typedef struct {
  PetscReal mu;
  char      forms_dir[PETSC_MAX_PATH_LEN]; /* where stokes_{2d,3d}.ufl and stokes_pc_{2d,3d}.ufl are */
} AppCtx;

/* f0_u = -f: the body force pulls along the last axis, the more the larger x_0 (not a
   gradient, so it drives a flow rather than only a hydrostatic pressure) */
static void f0_u(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar f0[])
{
  for (PetscInt d = 0; d < dim; ++d) f0[d] = d == dim - 1 ? x[0] : 0.0;
}

/* f1_u = mu grad u - p I */
static void f1_u(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar f1[])
{
  for (PetscInt c = 0; c < dim; ++c)
    for (PetscInt d = 0; d < dim; ++d) f1[c * dim + d] = constants[0] * u_x[c * dim + d] - (c == d ? u[uOff[1]] : 0.0);
}

/* f0_p = -div u */
static void f0_p(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar f0[])
{
  f0[0] = 0.0;
  for (PetscInt d = 0; d < dim; ++d) f0[0] -= u_x[d * dim + d];
}

static void g3_uu(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, PetscReal u_tShift, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar g3[])
{
  for (PetscInt c = 0; c < dim; ++c)
    for (PetscInt d = 0; d < dim; ++d) g3[((c * dim + c) * dim + d) * dim + d] = constants[0];
}

/* -p div v */
static void g2_up(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, PetscReal u_tShift, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar g2[])
{
  for (PetscInt d = 0; d < dim; ++d) g2[d * dim + d] = -1.0;
}

/* -q div u */
static void g1_pu(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, PetscReal u_tShift, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar g1[])
{
  for (PetscInt d = 0; d < dim; ++d) g1[d * dim + d] = -1.0;
}

/* The pressure mass p q / mu: the Schur complement's preconditioner */
static void g0_pp(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, PetscReal u_tShift, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar g0[])
{
  g0[0] = 1.0 / constants[0];
}

static PetscErrorCode zero_velocity(PetscInt dim, PetscReal time, const PetscReal x[], PetscInt Nc, PetscScalar *u, void *ctx)
{
  for (PetscInt d = 0; d < dim; ++d) u[d] = 0.0;
  return PETSC_SUCCESS;
}

static PetscErrorCode SetupDiscretization(DM dm, AppCtx *user)
{
  PetscFE     fe[2];
  PetscDS     ds;
  DMLabel     label;
  PetscInt    dim, id = 1;
  PetscScalar mu = user->mu;
  MPI_Comm    comm = PetscObjectComm((PetscObject)dm);
  PetscFunctionBeginUser;
  PetscCall(DMGetDimension(dm, &dim));
  PetscCall(PetscFECreateLagrange(comm, dim, dim, PETSC_TRUE, 2, PETSC_DETERMINE, &fe[0]));
  PetscCall(PetscObjectSetName((PetscObject)fe[0], "velocity"));
  PetscCall(PetscFECreateLagrange(comm, dim, 1, PETSC_TRUE, 1, PETSC_DETERMINE, &fe[1]));
  PetscCall(PetscFECopyQuadrature(fe[0], fe[1]));
  PetscCall(PetscObjectSetName((PetscObject)fe[1], "pressure"));
  PetscCall(DMAddField(dm, NULL, (PetscObject)fe[0]));
  PetscCall(DMAddField(dm, NULL, (PetscObject)fe[1]));
  PetscCall(PetscFEDestroy(&fe[0]));
  PetscCall(PetscFEDestroy(&fe[1]));
  PetscCall(DMCreateDS(dm));
  PetscCall(DMGetDS(dm, &ds));
  PetscCall(PetscDSSetResidual(ds, 0, f0_u, f1_u));
  PetscCall(PetscDSSetResidual(ds, 1, f0_p, NULL));
  PetscCall(PetscDSSetJacobian(ds, 0, 0, NULL, NULL, NULL, g3_uu));
  PetscCall(PetscDSSetJacobian(ds, 0, 1, NULL, NULL, g2_up, NULL));
  PetscCall(PetscDSSetJacobian(ds, 1, 0, NULL, g1_pu, NULL, NULL));
  PetscCall(PetscDSSetJacobianPreconditioner(ds, 0, 0, NULL, NULL, NULL, g3_uu));
  PetscCall(PetscDSSetJacobianPreconditioner(ds, 1, 1, g0_pp, NULL, NULL, NULL));
  PetscCall(PetscDSSetConstants(ds, 1, &mu));
  PetscCall(ExampleMarkBoxFaces(dm, "left", 0, 1)); /* the face x = x_min */
  PetscCall(DMGetLabel(dm, "left", &label));
  PetscCall(DMAddBoundary(dm, DM_BC_ESSENTIAL, "wall", label, 1, &id, 0, 0, NULL, (void (*)(void))zero_velocity, NULL, NULL, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The operator A and the preconditioning matrix P of -dm_mat_type: fem_gpu from the form
   files (the options, e.g. -mat_fem_gpu_form_file, may replace A's form but not P's), or
   AIJ assembled by PETSc from the Jacobian and the preconditioning Jacobian. */
static PetscErrorCode CreateOperators(DM dm, AppCtx *user, Mat *A, Mat *P)
{
  PetscBool fem_gpu;
  Vec       ul;
  PetscInt  dim;
  char      a_file[PETSC_MAX_PATH_LEN], p_file[PETSC_MAX_PATH_LEN];
  PetscFunctionBeginUser;
  PetscCall(ExampleCreateMatrix(dm, A));
  PetscCall(ExampleCreateMatrix(dm, P));
  PetscCall(PetscObjectTypeCompare((PetscObject)*A, MATFEMGPU, &fem_gpu));
  if (fem_gpu) {
    PetscCall(DMGetDimension(dm, &dim));
    PetscCall(PetscSNPrintf(a_file, sizeof(a_file), "%s/stokes_%" PetscInt_FMT "d.ufl", user->forms_dir, dim));
    PetscCall(PetscSNPrintf(p_file, sizeof(p_file), "%s/stokes_pc_%" PetscInt_FMT "d.ufl", user->forms_dir, dim));
    PetscCall(MatFEMGPUSetFormFile(*A, a_file));
    PetscCall(MatFEMGPUSetConstant(*A, "mu", user->mu));
    PetscCall(MatSetFromOptions(*A));
    PetscCall(MatSetFromOptions(*P));
    PetscCall(MatFEMGPUSetFormFile(*P, p_file));
    PetscCall(MatFEMGPUSetConstant(*P, "mu", user->mu));
  } else {
    PetscCall(DMGetLocalVector(dm, &ul));
    PetscCall(VecSet(ul, 0.0));
    PetscCall(DMPlexSNESComputeJacobianFEM(dm, ul, *A, *P, NULL));
    PetscCall(DMRestoreLocalVector(dm, &ul));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* An option's default, unless the command line (or PETSC_OPTIONS) gives it. */
static PetscErrorCode DefaultOption(const char name[], const char value[])
{
  PetscBool set;
  PetscFunctionBeginUser;
  PetscCall(PetscOptionsHasName(NULL, NULL, name, &set));
  if (!set) PetscCall(PetscOptionsSetValue(NULL, name, value));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DefaultSolver(void)
{
  PetscFunctionBeginUser;
  PetscCall(DefaultOption("-ksp_type", "fgmres"));
  PetscCall(DefaultOption("-ksp_rtol", "1e-10"));
  PetscCall(DefaultOption("-pc_type", "fieldsplit"));
  PetscCall(DefaultOption("-pc_fieldsplit_type", "schur"));
  PetscCall(DefaultOption("-pc_fieldsplit_schur_fact_type", "full"));
  PetscCall(DefaultOption("-pc_fieldsplit_schur_precondition", "a11"));
  /* The Schur complement A11 - A10 A00^-1 A01 from the operator's blocks (PCFIELDSPLIT takes
     every block from the preconditioning matrix otherwise, whose A01 and A10 are zero);
     a11 then preconditions it with the preconditioning matrix's A11, the pressure mass. */
  PetscCall(DefaultOption("-pc_fieldsplit_diag_use_amat", "true"));
  PetscCall(DefaultOption("-pc_fieldsplit_off_diag_use_amat", "true"));
  PetscCall(DefaultOption("-fieldsplit_velocity_ksp_type", "cg"));
  PetscCall(DefaultOption("-fieldsplit_velocity_pc_type", "jacobi"));
  PetscCall(DefaultOption("-fieldsplit_velocity_ksp_rtol", "1e-4"));
  PetscCall(DefaultOption("-fieldsplit_pressure_ksp_type", "gmres"));
  PetscCall(DefaultOption("-fieldsplit_pressure_pc_type", "jacobi"));
  PetscCall(DefaultOption("-fieldsplit_pressure_ksp_rtol", "1e-4"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  DM                 dm;
  Mat                A, P;
  Vec                u, b;
  KSP                ksp;
  AppCtx             user;
  MatType            mtype;
  PetscInt           its, dim, n;
  PetscReal          norm2, norm_inf;
  KSPConvergedReason reason;
  PetscLogDouble     t0, t1, t2, t3;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(MatFEMGPURegister());
  user.mu = 1.0;
  PetscCall(PetscStrncpy(user.forms_dir, EXAMPLE_FORMS_DIR, sizeof(user.forms_dir)));
  PetscOptionsBegin(PETSC_COMM_WORLD, "", "Stokes options", "");
  PetscCall(PetscOptionsReal("-mu", "viscosity", "ex5.c", user.mu, &user.mu, NULL));
  PetscCall(PetscOptionsString("-ex5_forms_dir", "folder of the Stokes form files", "ex5.c", user.forms_dir, user.forms_dir, sizeof(user.forms_dir), NULL));
  PetscOptionsEnd();
  PetscCall(DefaultSolver());
  PetscCall(ExampleCreateMesh(PETSC_COMM_WORLD, 2, &dm));
  PetscCall(SetupDiscretization(dm, &user));
  PetscCall(DMCreateGlobalVector(dm, &u));
  PetscCall(PetscObjectSetName((PetscObject)u, "solution"));
  PetscCall(VecDuplicate(u, &b));
  PetscCall(ExampleStagePush(EXAMPLE_STAGE_RESIDUAL));
  PetscCall(ExampleComputeRHS(dm, b));
  PetscCall(ExampleStagePop(EXAMPLE_STAGE_RESIDUAL));
  PetscCall(ExampleStagePush(EXAMPLE_STAGE_OPERATOR));
  PetscCall(PetscTime(&t0));
  PetscCall(CreateOperators(dm, &user, &A, &P));
  PetscCall(PetscTime(&t1));
  PetscCall(ExampleStagePop(EXAMPLE_STAGE_OPERATOR));

  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, P));
  {
    PC pc;
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetDM(pc, dm)); /* PCFIELDSPLIT takes the fields from the DM; the KSP keeps A and P */
  }
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(ExampleStagePush(EXAMPLE_STAGE_OPERATOR));
  PetscCall(KSPSetUp(ksp));
  PetscCall(ExampleStagePop(EXAMPLE_STAGE_OPERATOR));
  PetscCall(VecSet(u, 0.0));
  PetscCall(ExampleStagePush(EXAMPLE_STAGE_KSP_SOLVE));
  PetscCall(PetscTime(&t2));
  PetscCall(KSPSolve(ksp, b, u));
  PetscCall(PetscTime(&t3));
  PetscCall(ExampleStagePop(EXAMPLE_STAGE_KSP_SOLVE));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(VecNorm(u, NORM_2, &norm2));
  PetscCall(VecNorm(u, NORM_INFINITY, &norm_inf));

  PetscCall(DMGetDimension(dm, &dim));
  PetscCall(VecGetSize(u, &n));
  PetscCall(MatGetType(A, &mtype));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Stokes: dim %" PetscInt_FMT ", Taylor-Hood P2 x P1, %" PetscInt_FMT " unknowns, matrix %s\n", dim, n, mtype));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "KSP iterations %" PetscInt_FMT " (%s)\n", its, KSPConvergedReasons[reason]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "solution norms: 2-norm %.8e, max %.8e\n", (double)norm2, (double)norm_inf));
  PetscCall(ExampleReportTimes(PETSC_COMM_WORLD, t1 - t0, t3 - t2, its));
  PetscCall(ExampleReportStages(PETSC_COMM_WORLD));

  PetscCall(KSPDestroy(&ksp));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&P));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&b));
  PetscCall(DMDestroy(&dm));
  PetscCall(PetscFinalize());
  return reason > 0 ? 0 : 1;
}
