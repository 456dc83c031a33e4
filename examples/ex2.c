static const char help[] = "Linear elasticity -div sigma(u) = f in the unit cube (or square), solved with KSP.\n\
sigma(u) = lambda tr(eps(u)) I + 2 mu eps(u). The manufactured displacement\n\
u_c = a_c prod_d sin(pi x_d), a = (1, 1/2, 1/4), vanishes on the boundary, where it is\n\
imposed (DMAddBoundary). The right-hand side comes from the PetscDS residual\n\
(f0 = -f, f1 = sigma(grad u)) at u = 0; the operator is PETSc's assembled matrix\n\
(-dm_mat_type aij, pointwise g3) or femgpu's matrix-free one (-dm_mat_type fem_gpu, from\n\
share/femgpu/forms/elasticity.ufl with its constants lmbda and mu set from -lambda, -mu).\n\
Prints the KSP iterations and the L2 error (DMComputeL2Diff).\n\
Options:\n\
  -degree <k>          Lagrange degree P_k (default 1)\n\
  -lambda <l>, -mu <m> Lame parameters (default 1, 1)\n\
  -ex2_device_assembly an aij -dm_mat_type assembled by femgpu's MatConvert (GPU), not DMPlex\n\
  -dm_mat_type <type>  fem_gpu (default) or aij\n\
  -dm_plex_dim (default 3), -dm_plex_box_faces, -dm_refine, -mat_fem_gpu_*, -ksp_*, -pc_*, -log_view\n\n";

/* The operator: fem_gpu applies elasticity.ufl matrix-free; its diagonal (for
   -pc_type jacobi) comes from the same form. Default solver: CG + Jacobi, relative
   tolerance 1e-12. Constants: PetscDS constants[0] = lambda, constants[1] = mu. */

#include <femgpu.h>
#include <petscdmplex.h>
#include <petscds.h>
#include <petscksp.h>
#include <petscsnes.h>

#include "example_setup.h"
#include <petsctime.h>

typedef struct {
  PetscInt  degree;
  PetscReal lambda, mu;
  PetscBool device_assembly; /* an assembled -dm_mat_type from femgpu's MatConvert, not DMPlex */
} AppCtx;

static const PetscReal amplitude[3] = {1.0, 0.5, 0.25};

static PetscErrorCode exact_solution(PetscInt dim, PetscReal time, const PetscReal x[], PetscInt Nc, PetscScalar *u, void *ctx)
{
  PetscReal s = 1.0;
  for (PetscInt d = 0; d < dim; ++d) s *= PetscSinReal(PETSC_PI * x[d]);
  for (PetscInt c = 0; c < Nc; ++c) u[c] = amplitude[c] * s;
  return PETSC_SUCCESS;
}

/* d^2 s / dx_i dx_j for s = prod_d sin(pi x_d) */
static PetscReal hessian(PetscInt dim, const PetscReal x[], PetscInt i, PetscInt j)
{
  PetscReal h = PETSC_PI * PETSC_PI;
  for (PetscInt d = 0; d < dim; ++d) {
    if (d == i && d == j) h *= -PetscSinReal(PETSC_PI * x[d]);
    else if (d == i || d == j) h *= PetscCosReal(PETSC_PI * x[d]);
    else h *= PetscSinReal(PETSC_PI * x[d]);
  }
  return h;
}

/* f0 = -f, f_i = -(div sigma)_i = -mu lap u_i - (lambda + mu) d_i div u */
static void f0_u(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar f0[])
{
  const PetscReal lambda = PetscRealPart(constants[0]), mu = PetscRealPart(constants[1]);
  for (PetscInt i = 0; i < dim; ++i) {
    PetscReal lap = 0.0, grad_div = 0.0;
    for (PetscInt j = 0; j < dim; ++j) {
      lap += hessian(dim, x, j, j);
      grad_div += amplitude[j] * hessian(dim, x, i, j);
    }
    f0[i] = mu * amplitude[i] * lap + (lambda + mu) * grad_div;
  }
}

/* f1 = sigma(grad u), f1[c*dim + d] = sigma_cd */
static void f1_u(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar f1[])
{
  const PetscScalar lambda = constants[0], mu = constants[1];
  PetscScalar       div = 0.0;
  for (PetscInt d = 0; d < dim; ++d) div += u_x[d * dim + d];
  for (PetscInt c = 0; c < dim; ++c)
    for (PetscInt d = 0; d < dim; ++d) f1[c * dim + d] = mu * (u_x[c * dim + d] + u_x[d * dim + c]) + (c == d ? lambda * div : 0.0);
}

/* g3[((fc*dim + gc)*dim + df)*dim + dg]: test (fc, df) against trial (gc, dg) */
static void g3_uu(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, PetscReal u_tShift, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar g3[])
{
  const PetscScalar lambda = constants[0], mu = constants[1];
  for (PetscInt fc = 0; fc < dim; ++fc)
    for (PetscInt gc = 0; gc < dim; ++gc)
      for (PetscInt df = 0; df < dim; ++df)
        for (PetscInt dg = 0; dg < dim; ++dg)
          g3[((fc * dim + gc) * dim + df) * dim + dg] = lambda * (fc == df) * (gc == dg) + mu * ((fc == gc) * (df == dg) + (fc == dg) * (gc == df));
}

static PetscErrorCode ProcessOptions(MPI_Comm comm, AppCtx *user)
{
  PetscFunctionBeginUser;
  user->degree = 1;
  user->lambda = 1.0;
  user->mu     = 1.0;
  user->device_assembly = PETSC_FALSE;
  PetscOptionsBegin(comm, "", "Elasticity options", "");
  PetscCall(PetscOptionsInt("-degree", "Lagrange degree", "ex2.c", user->degree, &user->degree, NULL));
  PetscCall(PetscOptionsReal("-lambda", "Lame's first parameter", "ex2.c", user->lambda, &user->lambda, NULL));
  PetscCall(PetscOptionsReal("-mu", "Shear modulus", "ex2.c", user->mu, &user->mu, NULL));
  PetscCall(PetscOptionsBool("-ex2_device_assembly", "Assemble an AIJ -dm_mat_type by MatConvert of the fem_gpu operator (on the GPU) instead of DMPlex", "ex2.c",
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
  PetscScalar constants[2] = {user->lambda, user->mu};
  PetscFunctionBeginUser;
  PetscCall(DMGetDimension(dm, &dim));
  PetscCall(PetscFECreateLagrange(PetscObjectComm((PetscObject)dm), dim, dim, PETSC_TRUE, user->degree, user->degree + 1, &fe));
  PetscCall(PetscObjectSetName((PetscObject)fe, "u"));
  PetscCall(DMAddField(dm, NULL, (PetscObject)fe));
  PetscCall(PetscFEDestroy(&fe));
  PetscCall(DMCreateDS(dm));
  PetscCall(DMGetDS(dm, &ds));
  PetscCall(PetscDSSetConstants(ds, 2, constants));
  PetscCall(PetscDSSetResidual(ds, 0, f0_u, f1_u));
  PetscCall(PetscDSSetJacobian(ds, 0, 0, NULL, NULL, NULL, g3_uu));
  PetscCall(PetscDSSetExactSolution(ds, 0, exact_solution, NULL));
  PetscCall(DMGetLabel(dm, "marker", &label));
  PetscCall(DMAddBoundary(dm, DM_BC_ESSENTIAL, "wall", label, 1, &id, 0, 0, NULL, (void (*)(void))exact_solution, NULL, NULL, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetForm(Mat A, void *ctx)
{
  const AppCtx *user = (const AppCtx *)ctx;
  PetscFunctionBeginUser;
  PetscCall(MatFEMGPUSetFormFile(A, FEMGPU_FORMS_DIR "/elasticity.ufl"));
  PetscCall(MatFEMGPUSetConstant(A, "lmbda", user->lambda));
  PetscCall(MatFEMGPUSetConstant(A, "mu", user->mu));
  PetscCall(MatSetFromOptions(A)); /* -mat_fem_gpu_form_file and the rest win */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The operator of -dm_mat_type: fem_gpu from the form file, or AIJ assembled by PETSc. */
static PetscErrorCode CreateOperator(DM dm, const AppCtx *user, Mat *A)
{
  PetscBool    fem_gpu;
  Vec          ul;
  MatNullSpace rigid;
  MatType      type;
  PetscFunctionBeginUser;
  PetscCall(DMGetMatType(dm, &type));
  PetscCall(PetscStrcmp(type, MATFEMGPU, &fem_gpu));
  if (!fem_gpu && user->device_assembly) PetscCall(ExampleAssembleOnDevice(dm, SetForm, (void *)user, A));
  else PetscCall(ExampleCreateMatrix(dm, A));
  if (fem_gpu) PetscCall(SetForm(*A, (void *)user));
  else {
    if (!user->device_assembly) {
      PetscCall(DMGetLocalVector(dm, &ul));
      PetscCall(VecSet(ul, 0.0));
      PetscCall(DMPlexSNESComputeJacobianFEM(dm, ul, *A, *A, NULL));
      PetscCall(DMRestoreLocalVector(dm, &ul));
    }
    /* GAMG needs the rigid-body modes to coarsen elasticity well, as a PETSc user sets
       them; -pc_type fem_gpu_pmg sets them on its own coarse level. */
    PetscCall(DMPlexCreateRigidBody(dm, 0, &rigid));
    PetscCall(MatSetNearNullSpace(*A, rigid));
    PetscCall(MatNullSpaceDestroy(&rigid));
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
  PetscCall(ExampleCreateMesh(PETSC_COMM_WORLD, 3, &dm));
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
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Elasticity: dim %" PetscInt_FMT ", P%" PetscInt_FMT ", %" PetscInt_FMT " unknowns, matrix %s\n", dim, user.degree, n, mtype));
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
