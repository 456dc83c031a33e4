static const char help[] = "Hyperelasticity (St. Venant-Kirchhoff) solved by Newton's method with SNES.\n\
A block [0,2]x[0,1]x[0,1] (or [0,2]x[0,1] with -dm_plex_dim 2) is held at x = 0 and\n\
stretched at x = 2 by -stretch times its length, under the body force B e_0.\n\
The residual F(u; v) = (P(u), grad v) - (B e_0, v), P = F S, comes from the PetscDS\n\
(pointwise f0, f1), or from femgpu's kernel of the same form with\n\
-dm_fem_gpu_form_file share/femgpu/forms/hyperelasticity.ufl (give it this program's\n\
constants: -mat_fem_gpu_constant_lmbda 1 -mat_fem_gpu_constant_mu 1).\n\
The Jacobian is -dm_mat_type fem_gpu (default: the matrix-free derivative of\n\
share/femgpu/forms/hyperelasticity.ufl, its linearization point w set to the\n\
current iterate in the Jacobian callback) or aij (assembled from the pointwise g3).\n\
The preconditioner: -pc_type jacobi (default; the fem_gpu diagonal) or, with\n\
-ex3_assembled_pmat, any PC on an assembled AIJ Pmat (e.g. -pc_type gamg).\n\
Prints every Newton step's residual norm and KSP iterations.\n\
Options:\n\
  -degree <k>            Lagrange degree (default 1)\n\
  -lambda, -mu, -body    Lame parameters and body force B (default 1, 1, 0.1)\n\
  -stretch <s>           imposed stretch of the x = 2 face (default 0.2)\n\
  -ex3_assembled_pmat    precondition with an assembled AIJ matrix\n\
  -dm_mat_type, -dm_plex_*, -mat_fem_gpu_*, -snes_*, -ksp_*, -pc_*, -log_view\n\n";

/* PetscDS constants, in the order of the form's: lmbda, mu, B. Both paths read the
   same iterate with its boundary values (the local Vec of the Jacobian callback). */

#include <femgpu.h>
#include <petsctime.h>
#include <petscdmplex.h>
#include <petscds.h>

#include "example_setup.h"
#include <petscsnes.h>

#if PETSC_VERSION_LT(3, 19, 0) /* Debian 12's PETSc 3.18 */
  #define PETSC_SUCCESS 0
#endif

typedef struct {
  PetscInt  degree;
  PetscReal lambda, mu, body, stretch, length;
  PetscBool assembled_pmat;
  Vec       w; /* the linearization point of the fem_gpu Jacobian (local) */
} AppCtx;

static PetscErrorCode zero(PetscInt dim, PetscReal time, const PetscReal x[], PetscInt Nc, PetscScalar *u, void *ctx)
{
  for (PetscInt c = 0; c < Nc; ++c) u[c] = 0.0;
  return PETSC_SUCCESS;
}

static PetscErrorCode pull(PetscInt dim, PetscReal time, const PetscReal x[], PetscInt Nc, PetscScalar *u, void *ctx)
{
  const AppCtx *user = (const AppCtx *)ctx;
  for (PetscInt c = 0; c < Nc; ++c) u[c] = 0.0;
  u[0] = user->stretch * user->length;
  return PETSC_SUCCESS;
}

/* F = I + grad u, E = (F^T F - I)/2, S = lambda tr(E) I + 2 mu E */
static void stress(PetscInt dim, const PetscScalar u_x[], const PetscScalar constants[], PetscScalar F[3][3], PetscScalar S[3][3])
{
  PetscScalar E[3][3], trE = 0.0;
  for (PetscInt i = 0; i < dim; ++i)
    for (PetscInt j = 0; j < dim; ++j) F[i][j] = (i == j) + u_x[i * dim + j];
  for (PetscInt i = 0; i < dim; ++i)
    for (PetscInt j = 0; j < dim; ++j) {
      E[i][j] = -0.5 * (i == j);
      for (PetscInt k = 0; k < dim; ++k) E[i][j] += 0.5 * F[k][i] * F[k][j];
    }
  for (PetscInt i = 0; i < dim; ++i) trE += E[i][i];
  for (PetscInt i = 0; i < dim; ++i)
    for (PetscInt j = 0; j < dim; ++j) S[i][j] = constants[0] * trE * (i == j) + 2.0 * constants[1] * E[i][j];
}

static void f0_u(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar f0[])
{
  for (PetscInt c = 0; c < dim; ++c) f0[c] = c == 0 ? -constants[2] : 0.0;
}

/* f1 = P = F S, f1[c*dim + d] = P_cd */
static void f1_u(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar f1[])
{
  PetscScalar F[3][3], S[3][3];
  stress(dim, u_x, constants, F, S);
  for (PetscInt c = 0; c < dim; ++c)
    for (PetscInt d = 0; d < dim; ++d) {
      f1[c * dim + d] = 0.0;
      for (PetscInt k = 0; k < dim; ++k) f1[c * dim + d] += F[c][k] * S[k][d];
    }
}

/* dP/d(grad u), one trial column (gc, dg) at a time: dF = e_gc e_dg^T,
   dE = (dF^T F + F^T dF)/2, dS = lambda tr(dE) I + 2 mu dE, dP = dF S + F dS. */
static void g3_uu(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, PetscReal u_tShift, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar g3[])
{
  PetscScalar F[3][3], S[3][3];
  stress(dim, u_x, constants, F, S);
  for (PetscInt gc = 0; gc < dim; ++gc)
    for (PetscInt dg = 0; dg < dim; ++dg) {
      PetscScalar dE[3][3], dS[3][3], trdE = 0.0;
      for (PetscInt i = 0; i < dim; ++i)
        for (PetscInt j = 0; j < dim; ++j) dE[i][j] = 0.5 * ((i == dg) * F[gc][j] + (j == dg) * F[gc][i]);
      for (PetscInt i = 0; i < dim; ++i) trdE += dE[i][i];
      for (PetscInt i = 0; i < dim; ++i)
        for (PetscInt j = 0; j < dim; ++j) dS[i][j] = constants[0] * trdE * (i == j) + 2.0 * constants[1] * dE[i][j];
      for (PetscInt fc = 0; fc < dim; ++fc)
        for (PetscInt df = 0; df < dim; ++df) {
          PetscScalar dP = (fc == gc) * S[dg][df];
          for (PetscInt k = 0; k < dim; ++k) dP += F[fc][k] * dS[k][df];
          g3[((fc * dim + gc) * dim + df) * dim + dg] = dP;
        }
    }
}

static PetscErrorCode ProcessOptions(MPI_Comm comm, AppCtx *user)
{
  PetscFunctionBeginUser;
  user->degree         = 1;
  user->lambda         = 1.0;
  user->mu             = 1.0;
  user->body           = 0.1;
  user->stretch        = 0.2;
  user->assembled_pmat = PETSC_FALSE;
  PetscOptionsBegin(comm, "", "Hyperelasticity options", "");
  PetscCall(PetscOptionsInt("-degree", "Lagrange degree", "ex3.c", user->degree, &user->degree, NULL));
  PetscCall(PetscOptionsReal("-lambda", "Lame's first parameter", "ex3.c", user->lambda, &user->lambda, NULL));
  PetscCall(PetscOptionsReal("-mu", "Shear modulus", "ex3.c", user->mu, &user->mu, NULL));
  PetscCall(PetscOptionsReal("-body", "Body force along x_0", "ex3.c", user->body, &user->body, NULL));
  PetscCall(PetscOptionsReal("-stretch", "Imposed stretch of the far face", "ex3.c", user->stretch, &user->stretch, NULL));
  PetscCall(PetscOptionsBool("-ex3_assembled_pmat", "Precondition with an assembled AIJ matrix", "ex3.c", user->assembled_pmat, &user->assembled_pmat, NULL));
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Boundary faces on x = x_min get value 1, on x = x_max value 2, in label "ends". */
static PetscErrorCode MarkEnds(DM dm, AppCtx *user)
{
  PetscReal lo[3], hi[3];
  PetscFunctionBeginUser;
  PetscCall(DMGetBoundingBox(dm, lo, hi));
  user->length = hi[0] - lo[0];
  PetscCall(ExampleMarkBoxFaces(dm, "ends", 0, 1));
  PetscCall(ExampleMarkBoxFaces(dm, "ends", 1, 2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CreateMesh(MPI_Comm comm, AppCtx *user, DM *dm)
{
  PetscBool set;
  PetscFunctionBeginUser;
  /* Defaults: a 2 x 1 x 1 block of 4 x 2 x 2 cubes, unless the options say otherwise. */
  PetscCall(PetscOptionsHasName(NULL, NULL, "-dm_plex_dim", &set));
  if (!set) PetscCall(PetscOptionsSetValue(NULL, "-dm_plex_dim", "3"));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-dm_plex_box_upper", &set));
  if (!set) PetscCall(PetscOptionsSetValue(NULL, "-dm_plex_box_upper", "2,1,1"));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-dm_plex_box_faces", &set));
  if (!set) PetscCall(PetscOptionsSetValue(NULL, "-dm_plex_box_faces", "4,2,2"));
  PetscCall(FEMGPUCreateMeshFromOptions(comm, dm));
  PetscCall(MarkEnds(*dm, user));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-dm_mat_type", &set));
  if (!set) PetscCall(DMSetMatType(*dm, MATFEMGPU));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetupDiscretization(DM dm, AppCtx *user)
{
  PetscFE     fe;
  PetscDS     ds;
  DMLabel     ends;
  PetscInt    dim, left = 1, right = 2;
  PetscScalar constants[3] = {user->lambda, user->mu, user->body};
  PetscFunctionBeginUser;
  PetscCall(DMGetDimension(dm, &dim));
  /* Quadrature of order 2k: exact for the 4(k-1) of the residual and Jacobian, as femgpu's. */
  PetscCall(PetscFECreateLagrange(PetscObjectComm((PetscObject)dm), dim, dim, PETSC_TRUE, user->degree, 2 * user->degree, &fe));
  PetscCall(PetscObjectSetName((PetscObject)fe, "displacement"));
  PetscCall(DMAddField(dm, NULL, (PetscObject)fe));
  PetscCall(PetscFEDestroy(&fe));
  PetscCall(DMCreateDS(dm));
  PetscCall(DMGetDS(dm, &ds));
  PetscCall(PetscDSSetConstants(ds, 3, constants));
  PetscCall(PetscDSSetResidual(ds, 0, f0_u, f1_u));
  PetscCall(PetscDSSetJacobian(ds, 0, 0, NULL, NULL, NULL, g3_uu));
  PetscCall(DMGetLabel(dm, "ends", &ends));
  PetscCall(DMAddBoundary(dm, DM_BC_ESSENTIAL, "fixed", ends, 1, &left, 0, 0, NULL, (void (*)(void))zero, NULL, user, NULL));
  PetscCall(DMAddBoundary(dm, DM_BC_ESSENTIAL, "pulled", ends, 1, &right, 0, 0, NULL, (void (*)(void))pull, NULL, user, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The Jacobian at the local iterate X (boundary values inserted). A fem_gpu J only
   needs its linearization point; an AIJ J or Pmat is assembled from g3. */
static PetscErrorCode FormJacobianLocal(DM dm, Vec X, Mat J, Mat P, void *ctx)
{
  AppCtx   *user = (AppCtx *)ctx;
  PetscBool fem_gpu_J, fem_gpu_P;
  PetscFunctionBeginUser;
  PetscCall(PetscObjectTypeCompare((PetscObject)J, MATFEMGPU, &fem_gpu_J));
  PetscCall(PetscObjectTypeCompare((PetscObject)P, MATFEMGPU, &fem_gpu_P));
  if (fem_gpu_J) {
    PetscCall(VecCopy(X, user->w)); /* J re-reads w, whose state changed, at its next use */
    /* A new operator for the PC too: like a MATSHELL, the Mat's state must change. */
    PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  } else PetscCall(DMPlexSNESComputeJacobianFEM(dm, X, J, J, user));
  if (P != J && !fem_gpu_P) PetscCall(DMPlexSNESComputeJacobianFEM(dm, X, P, P, user));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* J from -dm_mat_type; P = J, or an AIJ matrix with -ex3_assembled_pmat. */
static PetscErrorCode CreateJacobian(DM dm, AppCtx *user, Mat *J, Mat *P)
{
  PetscBool fem_gpu;
  PetscFunctionBeginUser;
  PetscCall(ExampleCreateMatrix(dm, J));
  PetscCall(PetscObjectTypeCompare((PetscObject)*J, MATFEMGPU, &fem_gpu));
  PetscCall(DMCreateLocalVector(dm, &user->w));
  if (fem_gpu) {
    PetscCall(MatFEMGPUSetFormFile(*J, FEMGPU_FORMS_DIR "/hyperelasticity.ufl"));
    PetscCall(MatFEMGPUSetConstant(*J, "lmbda", user->lambda));
    PetscCall(MatFEMGPUSetConstant(*J, "mu", user->mu));
    PetscCall(MatFEMGPUSetCoefficient(*J, "w", user->w));
    PetscCall(MatSetFromOptions(*J));
  }
  if (fem_gpu && user->assembled_pmat) {
    MatType type;
    PetscCall(DMGetMatType(dm, &type));
    PetscCall(DMSetMatType(dm, MATAIJ));
    PetscCall(DMCreateMatrix(dm, P));
    PetscCall(DMSetMatType(dm, type));
  } else {
    PetscCall(PetscObjectReference((PetscObject)*J));
    *P = *J;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Report(SNES snes, Mat J, Mat P, const AppCtx *user)
{
  PetscReal          *norms;
  PetscInt           *lits, n, its, lin, size, dim;
  SNESConvergedReason reason;
  MatType             jt, pt;
  DM                  dm;
  PC                  pc;
  PCType              pctype;
  Vec                 u;
  PetscFunctionBeginUser;
  PetscCall(SNESGetDM(snes, &dm));
  PetscCall(DMGetDimension(dm, &dim));
  PetscCall(SNESGetSolution(snes, &u));
  PetscCall(VecGetSize(u, &size));
  PetscCall(MatGetType(J, &jt));
  PetscCall(MatGetType(P, &pt));
  {
    KSP ksp;
    PetscCall(SNESGetKSP(snes, &ksp));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCGetType(pc, &pctype));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Hyperelasticity: dim %" PetscInt_FMT ", P%" PetscInt_FMT ", %" PetscInt_FMT " unknowns, stretch %g, Jacobian %s, Pmat %s, PC %s\n", dim,
                        user->degree, size, (double)user->stretch, jt, pt, pctype));
  PetscCall(SNESGetConvergenceHistory(snes, &norms, &lits, &n));
  for (PetscInt i = 0; i < n; ++i) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  Newton step %2" PetscInt_FMT ": |F| = %.6e", i, (double)norms[i]));
    if (i > 0) PetscCall(PetscPrintf(PETSC_COMM_WORLD, " after KSP iterations %" PetscInt_FMT, lits[i]));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n"));
  }
  PetscCall(SNESGetIterationNumber(snes, &its));
  PetscCall(SNESGetLinearSolveIterations(snes, &lin));
  PetscCall(SNESGetConvergedReason(snes, &reason));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Newton iterations %" PetscInt_FMT " (%s), %" PetscInt_FMT " linear iterations in all\n", its, SNESConvergedReasons[reason], lin));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  DM                  dm;
  SNES                snes;
  KSP                 ksp;
  PC                  pc;
  Mat                 J, P;
  Vec                 u;
  AppCtx              user;
  PetscReal           norms[64];
  PetscInt            lits[64];
  SNESConvergedReason reason;
  PetscLogDouble      t0, t1;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(MatFEMGPURegister());
  PetscCall(ProcessOptions(PETSC_COMM_WORLD, &user));
  PetscCall(CreateMesh(PETSC_COMM_WORLD, &user, &dm));
  PetscCall(SetupDiscretization(dm, &user));

  PetscCall(SNESCreate(PETSC_COMM_WORLD, &snes));
  PetscCall(SNESSetDM(snes, dm));
  PetscCall(DMSNESSetBoundaryLocal(dm, DMPlexSNESComputeBoundaryFEM, &user));
  PetscCall(DMSNESSetFunctionLocal(dm, DMPlexSNESComputeResidualFEM, &user));
  PetscCall(DMSNESSetJacobianLocal(dm, FormJacobianLocal, &user));
  PetscCall(ExampleStagePush(EXAMPLE_STAGE_OPERATOR));
  PetscCall(CreateJacobian(dm, &user, &J, &P));
  PetscCall(ExampleStagePop(EXAMPLE_STAGE_OPERATOR));
  PetscCall(SNESSetJacobian(snes, J, P, NULL, NULL));
  PetscCall(SNESSetConvergenceHistory(snes, norms, lits, 64, PETSC_TRUE));
  PetscCall(SNESGetKSP(snes, &ksp));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPSetTolerances(ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, 10000));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(SNESSetFromOptions(snes));

  PetscCall(DMCreateGlobalVector(dm, &u));
  PetscCall(PetscObjectSetName((PetscObject)u, "displacement"));
  PetscCall(VecSet(u, 0.0));
  PetscCall(ExampleStagePush(EXAMPLE_STAGE_SNES_SOLVE)); /* residuals and Jacobians are computed inside it */
  PetscCall(PetscTime(&t0));
  PetscCall(SNESSolve(snes, NULL, u));
  PetscCall(PetscTime(&t1));
  PetscCall(ExampleStagePop(EXAMPLE_STAGE_SNES_SOLVE));
  PetscCall(SNESGetConvergedReason(snes, &reason));
  PetscCall(Report(snes, J, P, &user));
  {
    PetscInt lin;
    PetscCall(SNESGetLinearSolveIterations(snes, &lin));
    PetscCall(ExampleReportTimes(PETSC_COMM_WORLD, -1.0, t1 - t0, lin));
    PetscCall(ExampleReportStages(PETSC_COMM_WORLD));
  }

  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&user.w));
  PetscCall(MatDestroy(&J));
  PetscCall(MatDestroy(&P));
  PetscCall(SNESDestroy(&snes));
  PetscCall(DMDestroy(&dm));
  PetscCall(PetscFinalize());
  return reason > 0 ? 0 : 1;
}
