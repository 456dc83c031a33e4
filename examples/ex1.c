static const char help[] = "Poisson's equation -div grad u = f on the unit square or cube, solved with KSP.\n\
The manufactured solution u = prod_d sin(pi x_d) vanishes on the boundary; its values are\n\
imposed on the whole boundary (DMAddBoundary). The right-hand side comes from the PetscDS\n\
residual (f0 = -f, f1 = grad u) at u = 0; the operator is either PETSc's assembled matrix\n\
(-dm_mat_type aij, from the pointwise Jacobian g3 = I) or femgpu's matrix-free one\n\
(-dm_mat_type fem_gpu, from share/femgpu/forms/laplace.ufl). Prints the KSP iterations\n\
and the L2 error (DMComputeL2Diff), so the two can be compared in one command.\n\
Options:\n\
  -degree <k>          Lagrange degree P_k (default 1)\n\
  -dm_mat_type <type>  fem_gpu (default) or aij\n\
  -ex1_device_assembly an aij -dm_mat_type assembled by femgpu's MatConvert (GPU), not DMPlex\n\
  -dm_plex_dim, -dm_plex_box_faces, -dm_refine, -mat_fem_gpu_*, -ksp_*, -pc_*, -log_view\n\n";

/* The operator: fem_gpu applies laplace.ufl, inner(grad(u), grad(v))*dx, matrix-free;
   its diagonal (for -pc_type jacobi) comes from the same form. The default solver is CG
   with Jacobi, relative tolerance 1e-12 so that the algebraic error stays below the
   discretization error on every mesh the tests use. */

#include <femgpu.h>
#include <petscdmplex.h>
#include <petscds.h>
#include <petscksp.h>
#include <petscsnes.h>

#include "example_setup.h"
#include <petsctime.h>

typedef struct {
  PetscInt  degree;
  PetscBool device_assembly; /* an assembled -dm_mat_type from femgpu's MatConvert, not DMPlex */
} AppCtx;

static PetscErrorCode exact_solution(PetscInt dim, PetscReal time, const PetscReal x[], PetscInt Nc, PetscScalar *u, void *ctx)
{
  u[0] = 1.0;
  for (PetscInt d = 0; d < dim; ++d) u[0] *= PetscSinReal(PETSC_PI * x[d]);
  return PETSC_SUCCESS;
}

/* f0 = -f with f = -div grad u = dim pi^2 u */
static void f0_u(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar f0[])
{
  PetscScalar s = 1.0;
  for (PetscInt d = 0; d < dim; ++d) s *= PetscSinReal(PETSC_PI * x[d]);
  f0[0] = -dim * PETSC_PI * PETSC_PI * s;
}

static void f1_u(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar f1[])
{
  for (PetscInt d = 0; d < dim; ++d) f1[d] = u_x[d];
}

static void g3_uu(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, PetscReal u_tShift, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar g3[])
{
  for (PetscInt d = 0; d < dim; ++d) g3[d * dim + d] = 1.0;
}

static PetscErrorCode ProcessOptions(MPI_Comm comm, AppCtx *user)
{
  PetscFunctionBeginUser;
  user->degree          = 1;
  user->device_assembly = PETSC_FALSE;
  PetscOptionsBegin(comm, "", "Poisson options", "");
  PetscCall(PetscOptionsInt("-degree", "Lagrange degree", "ex1.c", user->degree, &user->degree, NULL));
  PetscCall(PetscOptionsBool("-ex1_device_assembly", "Assemble an AIJ -dm_mat_type by MatConvert of the fem_gpu operator (on the GPU) instead of DMPlex", "ex1.c",
                             user->device_assembly, &user->device_assembly, NULL));
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetupDiscretization(DM dm, AppCtx *user)
{
  PetscFE  fe;
  PetscDS  ds;
  DMLabel  label;
  PetscInt dim, id = 1;
  PetscFunctionBeginUser;
  PetscCall(DMGetDimension(dm, &dim));
  PetscCall(PetscFECreateLagrange(PetscObjectComm((PetscObject)dm), dim, 1, PETSC_TRUE, user->degree, user->degree + 1, &fe));
  PetscCall(PetscObjectSetName((PetscObject)fe, "u"));
  PetscCall(DMAddField(dm, NULL, (PetscObject)fe));
  PetscCall(PetscFEDestroy(&fe));
  PetscCall(DMCreateDS(dm));
  PetscCall(DMGetDS(dm, &ds));
  PetscCall(PetscDSSetResidual(ds, 0, f0_u, f1_u));
  PetscCall(PetscDSSetJacobian(ds, 0, 0, NULL, NULL, NULL, g3_uu));
  PetscCall(PetscDSSetExactSolution(ds, 0, exact_solution, NULL));
  PetscCall(DMGetLabel(dm, "marker", &label));
  PetscCall(DMAddBoundary(dm, DM_BC_ESSENTIAL, "wall", label, 1, &id, 0, 0, NULL, (void (*)(void))exact_solution, NULL, NULL, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetForm(Mat A, void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(MatFEMGPUSetFormFile(A, FEMGPU_FORMS_DIR "/laplace.ufl"));
  PetscCall(MatSetFromOptions(A)); /* -mat_fem_gpu_form_file and the rest win */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The operator of -dm_mat_type: fem_gpu from the form file, or AIJ assembled by PETSc
   (or, with -ex1_device_assembly, by femgpu's MatConvert of the fem_gpu one). */
static PetscErrorCode CreateOperator(DM dm, const AppCtx *user, Mat *A)
{
  PetscBool fem_gpu;
  MatType   type;
  Vec       ul;
  PetscFunctionBeginUser;
  PetscCall(DMGetMatType(dm, &type));
  PetscCall(PetscStrcmp(type, MATFEMGPU, &fem_gpu));
  if (!fem_gpu && user->device_assembly) {
    PetscCall(ExampleAssembleOnDevice(dm, SetForm, NULL, A));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(ExampleCreateMatrix(dm, A));
  if (fem_gpu) PetscCall(SetForm(*A, NULL));
  else {
    PetscCall(DMGetLocalVector(dm, &ul));
    PetscCall(VecSet(ul, 0.0));
    PetscCall(DMPlexSNESComputeJacobianFEM(dm, ul, *A, *A, NULL));
    PetscCall(DMRestoreLocalVector(dm, &ul));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  DM                 dm;
  Mat                A;
  Vec                u, b;
  KSP                ksp;
  AppCtx             user;
  MatType            mtype;
  PetscInt           its, dim, n;
  PetscReal          error;
  KSPConvergedReason reason;
  PetscLogDouble     t0, t1, t2, t3;
  PetscErrorCode (*exact[1])(PetscInt, PetscReal, const PetscReal[], PetscInt, PetscScalar *, void *) = {exact_solution};

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(MatFEMGPURegister());
  PetscCall(ProcessOptions(PETSC_COMM_WORLD, &user));
  PetscCall(ExampleCreateMesh(PETSC_COMM_WORLD, 2, &dm));
  PetscCall(SetupDiscretization(dm, &user));
  PetscCall(DMCreateGlobalVector(dm, &u));
  PetscCall(PetscObjectSetName((PetscObject)u, "u"));
  PetscCall(VecDuplicate(u, &b));
  PetscCall(ExampleStagePush(EXAMPLE_STAGE_RESIDUAL));
  PetscCall(ExampleComputeRHS(dm, b));
  PetscCall(ExampleStagePop(EXAMPLE_STAGE_RESIDUAL));
  PetscCall(ExampleStagePush(EXAMPLE_STAGE_OPERATOR));
  PetscCall(PetscTime(&t0));
  PetscCall(CreateOperator(dm, &user, &A));
  PetscCall(PetscTime(&t1));
  PetscCall(ExampleStagePop(EXAMPLE_STAGE_OPERATOR));

  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPSetTolerances(ksp, 1e-12, PETSC_DEFAULT, PETSC_DEFAULT, 10000));
  {
    PC pc;
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetType(pc, PCJACOBI));
  }
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(ExampleStagePush(EXAMPLE_STAGE_OPERATOR)); /* the PC's setup: Jacobi's diagonal, femgpu's setup */
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
  PetscCall(DMComputeL2Diff(dm, 0.0, exact, NULL, u, &error));

  PetscCall(DMGetDimension(dm, &dim));
  PetscCall(VecGetSize(u, &n));
  PetscCall(MatGetType(A, &mtype));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Poisson: dim %" PetscInt_FMT ", P%" PetscInt_FMT ", %" PetscInt_FMT " unknowns, matrix %s\n", dim, user.degree, n, mtype));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "KSP iterations %" PetscInt_FMT " (%s)\n", its, KSPConvergedReasons[reason]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "L2 error %.6e\n", (double)error));
  PetscCall(ExampleReportTimes(PETSC_COMM_WORLD, t1 - t0, t3 - t2, its));
  PetscCall(ExampleReportStages(PETSC_COMM_WORLD));

  PetscCall(KSPDestroy(&ksp));
  PetscCall(MatDestroy(&A));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&b));
  PetscCall(DMDestroy(&dm));
  PetscCall(PetscFinalize());
  return reason > 0 ? 0 : 1;
}
