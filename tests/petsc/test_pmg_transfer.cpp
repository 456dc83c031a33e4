// The p-multigrid transfers (src/petsc/pmg/pmg_transfer.h) on a mesh from the options, a
// P_fine field with an essential condition on the "left" boundary, and its level at
// -coarse_degree (pmg_levels.h):
//   interpolation: a polynomial of degree <= coarse that vanishes on "left", projected
//                  on the coarse level and prolonged, equals its projection on the fine
//                  level (it lies in both spaces), at every free DOF;
//   transpose:     <P x, y> = <x, P^T y> for random x, y (restriction is exactly P^T);
//   injection:     the coarse local Vec of an injected fine coefficient (boundary values
//                  included) equals the polynomial's coarse projection;
//   rigid body:    on a P1 level of a vector field with the mesh's dimension, the span of
//                  the coarse near-null space (pmg_rigid_body.h) is DMPlexCreateRigidBody's.
// Exit code 1 when a relative difference exceeds -tolerance.
#include <petscdmplex.h>
#include <petscfe.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "femgpu.h"
#include "left_constrained_field.h"
#include "petsc/mat/mat_femgpu.h"
#include "petsc/pmg/pmg_levels.h"
#include "petsc/pmg/pmg_rigid_body.h"
#include "petsc/pmg/pmg_transfer.h"

static const char help[] = "Checks the p-multigrid prolongation, restriction and coefficient injection.\n"
                           "  -fine_degree K -coarse_degree D -components 1|dim -form_file F.ufl -tolerance T\n";

namespace {

// x0 (1 + c + x0 - 2 x1 + x2 [+ x1^2 - x0 x1 / 2 from degree 3]) in component c, or
// x0 (1 + c) when degree 1:
// zero on the "left" boundary x0 = 0, where the levels' corrections vanish (constrained
// DOFs are neither read nor written by the prolongation), and different per component.
PetscErrorCode polynomial(PetscInt dim, PetscReal, const PetscReal x[], PetscInt Nc, PetscScalar *u, void *ctx)
{
  const PetscInt degree = *static_cast<PetscInt *>(ctx);
  for (PetscInt c = 0; c < Nc; ++c) {
    PetscReal v = 1.0 + c;
    if (degree >= 2) v += x[0] - 2.0 * x[1] + (dim > 2 ? x[2] : 0.0);
    if (degree >= 3) v += x[1] * x[1] - 0.5 * x[0] * x[1];  // asymmetric along edges: orientations matter
    u[c] = x[0] * v;
  }
  return PETSC_SUCCESS;
}

PetscReal relative(PetscReal difference, PetscReal scale) { return difference / PetscMax(scale, PETSC_SMALL); }

// The largest distance of a vector of PETSc's rigid-body modes (orthonormal) from the span
// of femgpu's (orthonormal): 0 where the spans are equal.
PetscErrorCode rigid_body_distance(DM level_dm, Mat level, PetscReal *distance)
{
  MatNullSpace ours, petsc;
  const Vec *q, *v;
  PetscInt nq, nv;
  femgpu::MatFEMGPUContext *ctx;
  PetscFunctionBegin;
  PetscCall(femgpu::MatFEMGPUGetContext(level, &ctx));
  PetscCall(femgpu::PMGRigidBodyModes(level_dm, ctx, &ours));
  PetscCall(DMPlexCreateRigidBody(level_dm, 0, &petsc));
  PetscCall(MatNullSpaceGetVecs(ours, nullptr, &nq, &q));
  PetscCall(MatNullSpaceGetVecs(petsc, nullptr, &nv, &v));
  *distance = nq == nv ? 0.0 : PETSC_MAX_REAL;
  Vec r;
  PetscCall(VecDuplicate(v[0], &r));
  for (PetscInt i = 0; i < nv; ++i) {
    PetscScalar dots[6];
    PetscReal norm;
    PetscCall(VecCopy(v[i], r));
    PetscCall(VecMDot(r, nq, const_cast<Vec *>(q), dots));  // PETSc 3.18's VecMDot takes Vec[]
    for (PetscInt j = 0; j < nq; ++j) dots[j] = -dots[j];
    PetscCall(VecMAXPY(r, nq, dots, const_cast<Vec *>(q)));
    PetscCall(VecNorm(r, NORM_2, &norm));
    *distance = PetscMax(*distance, norm);
  }
  PetscCall(VecDestroy(&r));
  PetscCall(MatNullSpaceDestroy(&ours));
  PetscCall(MatNullSpaceDestroy(&petsc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

int main(int argc, char **argv)
{
  DM fine_dm, coarse_dm;
  Mat fine, coarse, P;
  Vec xc, yf, zf, rf, rc, wf, wc, pc;
  PetscInt fine_degree = 2, coarse_degree = 1, components = 1;
  PetscReal tolerance = 1e-12, norm, diff;
  char form_file[PETSC_MAX_PATH_LEN] = "";
  std::vector<std::pair<std::string, Vec>> level_coefficients;
  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, nullptr, help));
  PetscCall(MatFEMGPURegister());
  MPI_Comm comm = PETSC_COMM_WORLD;
  PetscOptionsBegin(comm, nullptr, "p-multigrid transfer check", nullptr);
  PetscCall(PetscOptionsInt("-fine_degree", "fine degree", nullptr, fine_degree, &fine_degree, nullptr));
  PetscCall(PetscOptionsInt("-coarse_degree", "coarse degree", nullptr, coarse_degree, &coarse_degree, nullptr));
  PetscCall(PetscOptionsInt("-components", "field components (0: the mesh's dimension)", nullptr, components, &components, nullptr));
  PetscCall(PetscOptionsString("-form_file", "form of the operator", nullptr, form_file, form_file, sizeof(form_file), nullptr));
  PetscCall(PetscOptionsReal("-tolerance", "largest relative difference", nullptr, tolerance, &tolerance, nullptr));
  PetscOptionsEnd();
  PetscCall(CreateLeftConstrainedField(comm, fine_degree, &components, &fine_dm));
  PetscCall(DMSetMatType(fine_dm, MATFEMGPU));
  PetscCall(DMCreateMatrix(fine_dm, &fine));
  PetscCall(MatFEMGPUSetFormFile(fine, form_file));
  PetscCall(MatSetFromOptions(fine));
  PetscErrorCode (*funcs[1])(PetscInt, PetscReal, const PetscReal[], PetscInt, PetscScalar *, void *) = {polynomial};
  void *ctxs[1] = {&coarse_degree};
  PetscCall(DMCreateLocalVector(fine_dm, &wf));  // the fine coefficient (the form may not read it)
  PetscCall(DMProjectFunctionLocal(fine_dm, 0.0, funcs, ctxs, INSERT_ALL_VALUES, wf));
  const char *backend;
  PetscCall(MatFEMGPUGetBackend(fine, &backend));  // sets it up
  PetscCall(femgpu::PMGCreateLevelDM(fine_dm, coarse_degree, &coarse_dm));
  PetscCall(femgpu::PMGCreateLevelMat(fine, coarse_dm, "fp64", &coarse, &level_coefficients));
  PetscCall(MatFEMGPUGetBackend(coarse, &backend));
  PetscCall(femgpu::PMGCreateProlongation(coarse, fine, &P));

  // Interpolation of a polynomial the coarse space holds.
  PetscCall(MatCreateVecs(P, &xc, &yf));
  PetscCall(VecDuplicate(yf, &zf));
  PetscCall(DMProjectFunction(coarse_dm, 0.0, funcs, ctxs, INSERT_ALL_VALUES, xc));
  PetscCall(DMProjectFunction(fine_dm, 0.0, funcs, ctxs, INSERT_ALL_VALUES, zf));
  PetscCall(VecSet(yf, NAN));  // MatMult must overwrite it
  PetscCall(MatMult(P, xc, yf));
  PetscCall(VecNorm(zf, NORM_INFINITY, &norm));
  PetscCall(VecAXPY(yf, -1.0, zf));
  PetscCall(VecNorm(yf, NORM_INFINITY, &diff));
  const PetscReal interpolation = relative(diff, norm);

  // Transpose: <P x, y> against <x, P^T y>.
  PetscCall(VecDuplicate(yf, &rf));
  PetscCall(VecDuplicate(xc, &rc));
  PetscCall(VecSetRandom(xc, nullptr));
  PetscCall(VecSetRandom(rf, nullptr));
  PetscCall(MatMult(P, xc, yf));
  PetscCall(VecSet(rc, NAN));
  PetscCall(MatMultTranspose(P, rf, rc));
  PetscScalar a, b;
  PetscCall(VecDot(yf, rf, &a));
  PetscCall(VecDot(xc, rc, &b));
  const PetscReal transpose = relative(PetscAbsScalar(a - b), PetscAbsScalar(a));

  // Injection of a fine coefficient (local, boundary values included).
  femgpu::PMGInjection injection;
  PetscCall(femgpu::PMGCreateInjection(fine, coarse, &injection));
  PetscCall(DMCreateLocalVector(coarse_dm, &wc));
  PetscCall(VecDuplicate(wc, &pc));
  PetscCall(VecSet(wc, NAN));
  PetscCall(femgpu::PMGInject(injection, wf, wc));
  PetscCall(DMProjectFunctionLocal(coarse_dm, 0.0, funcs, ctxs, INSERT_ALL_VALUES, pc));
  PetscCall(VecNorm(pc, NORM_INFINITY, &norm));
  PetscCall(VecAXPY(wc, -1.0, pc));
  PetscCall(VecNorm(wc, NORM_INFINITY, &diff));
  PetscReal injected = relative(diff, norm);
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &injected, 1, MPIU_REAL, MPI_MAX, comm));

  // The coarse level's rigid-body modes, where the p-multigrid gives them to GAMG.
  PetscInt dim;
  PetscReal rigid = 0.0;
  PetscCall(DMGetDimension(coarse_dm, &dim));
  const bool rigid_checked = coarse_degree == 1 && components == dim && dim > 1;
  char rigid_text[64] = "";
  if (rigid_checked) PetscCall(rigid_body_distance(coarse_dm, coarse, &rigid));
  if (rigid_checked) PetscCall(PetscSNPrintf(rigid_text, sizeof(rigid_text), ", rigid-body span %.3g", (double)rigid));

  PetscCall(MatFEMGPUGetBackend(fine, &backend));
  PetscCall(PetscPrintf(comm, "P%" PetscInt_FMT " -> P%" PetscInt_FMT ", %" PetscInt_FMT " components, %s: interpolation %.3g, transpose %.3g, injection %.3g%s\n",
                        coarse_degree, fine_degree, components, backend, (double)interpolation, (double)transpose, (double)injected,
                        rigid_text));
  const bool ok = interpolation <= tolerance && transpose <= tolerance && injected <= tolerance && rigid <= tolerance;
  for (auto &kv : level_coefficients) PetscCall(VecDestroy(&kv.second));
  PetscCall(VecDestroy(&xc));
  PetscCall(VecDestroy(&yf));
  PetscCall(VecDestroy(&zf));
  PetscCall(VecDestroy(&rf));
  PetscCall(VecDestroy(&rc));
  PetscCall(VecDestroy(&wf));
  PetscCall(VecDestroy(&wc));
  PetscCall(VecDestroy(&pc));
  PetscCall(MatDestroy(&P));
  PetscCall(MatDestroy(&coarse));
  PetscCall(MatDestroy(&fine));
  PetscCall(DMDestroy(&coarse_dm));
  PetscCall(DMDestroy(&fine_dm));
  PetscCall(PetscFinalize());
  return ok ? 0 : 1;
}
