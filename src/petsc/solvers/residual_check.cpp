// -dm_fem_gpu_check_residual: the contract is in residual_check.h.
#include "petsc/solvers/residual_check.h"

#include <algorithm>
#include <string>
#include <vector>

#include "femgpu.h"
#include "petsc/mat/mat_context.h"
#include "petsc/mat/mat_femgpu.h"

namespace femgpu {

namespace {

// The global residual SNES would see from the local one `compute` writes (ADD_VALUES:
// constrained DOFs are left out, shared ones summed), as SNESComputeFunction_DMLocal does.
template <class Compute> PetscErrorCode global_residual(DM dm, Compute &&compute, Vec f)
{
  Vec f_local;
  PetscFunctionBegin;
  PetscCall(DMGetLocalVector(dm, &f_local));
  PetscCall(VecZeroEntries(f_local));
  PetscCall(compute(f_local));
  PetscCall(VecZeroEntries(f));
  PetscCall(DMLocalToGlobalBegin(dm, f_local, ADD_VALUES, f));
  PetscCall(DMLocalToGlobalEnd(dm, f_local, ADD_VALUES, f));
  PetscCall(DMRestoreLocalVector(dm, &f_local));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// |F_form - F_program|_2 and |F_program|_2 at the local state x_local.
PetscErrorCode difference(DM dm, Vec x_local, Mat residual, const ResidualCheck &check, Vec f_form, Vec f_program, PetscReal *distance, PetscReal *norm)
{
  PetscFunctionBegin;
  PetscCall(global_residual(dm, [&](Vec f_local) { return check.program(dm, x_local, f_local, check.program_ctx); }, f_program));
  PetscCall(global_residual(
      dm,
      [&](Vec f_local) {
        PetscFunctionBegin;
        PetscCall(MatFEMGPUSetLinearizationPoint(residual, x_local));
        PetscCall(MatFEMGPUApplyLocal(residual, x_local, f_local));
        PetscFunctionReturn(PETSC_SUCCESS);
      },
      f_form));
  PetscCall(VecNorm(f_program, NORM_2, norm));
  PetscCall(VecAXPY(f_form, -1.0, f_program));
  PetscCall(VecNorm(f_form, NORM_2, distance));
  if (PetscIsInfOrNanReal(*distance)) *distance = PETSC_INFINITY;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Each state's difference relative to its own |F_program|, but at least 1e-8 of the
// largest: at a converged iterate |F_program| is rounding, and so is the difference of
// two right residuals; a wrong forcing or sign still differs by O(|f|) there.
PetscReal worst_relative(const std::vector<PetscReal> &distance, const std::vector<PetscReal> &norm, size_t *worst)
{
  const PetscReal floor = 1e-8 * *std::max_element(norm.begin(), norm.end());
  PetscReal out = -1;
  for (size_t k = 0; k < distance.size(); ++k) {
    PetscReal r = distance[k] / PetscMax(PetscMax(norm[k], floor), PETSC_SMALL);
    if (!(r <= PETSC_MAX_REAL)) r = PETSC_INFINITY;  // NaN in either residual: a mismatch, never a pass
    if (r > out) out = r, *worst = k;
  }
  return out;
}

// A random state in [-1, 1] made local as SNES makes its iterate local: the boundary hook
// first (it inserts the essential values), then global-to-local.
PetscErrorCode random_state(DM dm, const ResidualCheck &check, PetscRandom rng, Vec x, Vec x_local)
{
  PetscFunctionBegin;
  PetscCall(VecSetRandom(x, rng));
  PetscCall(VecZeroEntries(x_local));
  if (check.boundary) PetscCall(check.boundary(dm, x_local, check.boundary_ctx));
  PetscCall(DMGlobalToLocalBegin(dm, x, INSERT_VALUES, x_local));
  PetscCall(DMGlobalToLocalEnd(dm, x, INSERT_VALUES, x_local));
  PetscFunctionReturn(PETSC_SUCCESS);
}

constexpr int kRandomStates = 3;

}  // namespace

PetscErrorCode check_residual_once(DM dm, Vec x_local, Mat residual, ResidualCheck *check)
{
  MatFEMGPUContext *ctx;
  Vec x, x_random, f_form, f_program;
  PetscRandom rng;
  std::vector<PetscReal> distance(kRandomStates + 1), norm(kRandomStates + 1);  // 0: SNES's iterate, k: random state k
  size_t worst_state = 0;
  PetscFunctionBegin;
  if (check->done || check->tol <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  check->done = true;
  PetscCall(DMGetGlobalVector(dm, &x));
  PetscCall(VecDuplicate(x, &f_form));
  PetscCall(VecDuplicate(x, &f_program));
  PetscCall(DMGetLocalVector(dm, &x_random));
  PetscCall(difference(dm, x_local, residual, *check, f_form, f_program, &distance[0], &norm[0]));
  PetscCall(PetscRandomCreate(PetscObjectComm((PetscObject)dm), &rng));
  PetscCall(PetscRandomSetInterval(rng, -1, 1));
  for (int k = 1; k <= kRandomStates; ++k) {
    PetscCall(random_state(dm, *check, rng, x, x_random));
    PetscCall(difference(dm, x_random, residual, *check, f_form, f_program, &distance[static_cast<size_t>(k)], &norm[static_cast<size_t>(k)]));
  }
  PetscCall(PetscRandomDestroy(&rng));
  PetscCall(DMRestoreLocalVector(dm, &x_random));
  PetscCall(VecDestroy(&f_form));
  PetscCall(VecDestroy(&f_program));
  PetscCall(DMRestoreGlobalVector(dm, &x));
  PetscCall(MatFEMGPUGetContext(residual, &ctx));
  const PetscReal worst = worst_relative(distance, norm, &worst_state);
  const std::string where = worst_state ? "at random state " + std::to_string(worst_state) + " of " + std::to_string(kRandomStates) : "at SNES's iterate";
  PetscCheck(worst <= check->tol, PetscObjectComm((PetscObject)dm), PETSC_ERR_USER_INPUT,
             "fem_gpu: -dm_fem_gpu_check_residual: the form file's residual does not match the program's physics: it differs from the residual "
             "the program computes from its PetscDS by %g relative (|F_form - F_program| / |F_program|, worst %s, of the iterate and %d random "
             "states with PETSc's boundary values; tolerance %g). Look for a sign, a forcing, a coefficient or a boundary term written otherwise; "
             "where only the quadratures differ (non-polynomial data), give a tolerance above their error. Form file: %s",
             (double)worst, where.c_str(), kRandomStates, (double)check->tol, ctx->op.form_source.c_str());
  PetscCall(PetscInfo(dm, "fem_gpu: -dm_fem_gpu_check_residual: %s matches the program's residual to %g relative (tolerance %g)\n",
                      ctx->op.form_source.c_str(), (double)worst, (double)check->tol));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
