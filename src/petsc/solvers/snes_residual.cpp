// The whole problem from one form file: -dm_fem_gpu_form_file F.ufl makes an unchanged
// DMPlex + SNES program's residual the kernel of the file's F(w; v), and (with
// -dm_mat_type fem_gpu) its Jacobian the fem_gpu operator of derivative(F, w, u).
//
// Takes: a DM whose local residual is PETSc's DMPlexSNESComputeResidualFEM (set by
// DMPlexSetSNESLocalFEM). Does: replaces it by femgpu's, which binds SNES's iterate (a
// local vector, essential boundary values inserted by PETSc) as w and adds F(w; v) cell by
// cell into the local residual, through a fem_gpu Mat in residual mode (the rank-1 form,
// the same -mat_fem_gpu_* backend and tuning options, its own tuning-cache key). PETSc
// then sums the local residual into the global one, leaving out constrained DOFs, as it
// does for its own. The essential values PETSc inserts before every residual and Jacobian
// come from femgpu's plan of the same values (plex/boundary_values_hook.h), where the plan
// supports the DM's boundaries.
// With -dm_fem_gpu_check_residual [TOL], the first residual is compared with the one the
// program's PetscDS gives (residual_check.h). In a TS program the DM's IFunction becomes
// femgpu's instead (ts_residual.cpp), through the same residual Mat.
// Does not: change a residual or boundary function the program wrote itself.
#include <petscdmplex.h>
#include <petscsnes.h>
#include <petscts.h>

#include <cstdlib>
#include <string>

#include "femgpu.h"
#include "petsc/base/composed_object.h"
#include "petsc/base/option_checks.h"
#include "petsc/base/text_option.h"
#include "petsc/base/vec_checks.h"
#include "petsc/mat/dm_residual.h"
#include "petsc/mat/mat_context.h"
#include "petsc/mat/mat_femgpu.h"
#include "petsc/mat/mat_femgpu_setup.h"
#include "petsc/plex/boundary_values_hook.h"
#include "petsc/solvers/residual_check.h"
#include "petsc/solvers/snes_dm_global.h"
#include "petsc/solvers/snes_residual.h"
#include "form/time_dependent.h"
#include "petsc/solvers/ts_ijacobian.h"
#include "petsc/solvers/ts_residual.h"

namespace femgpu {

namespace {

constexpr const char *kCheckKey = "femgpu_residual_check";

PetscErrorCode residual_local(DM dm, Vec x_local, Vec f_local, void *ctx)
{
  Mat residual = static_cast<Mat>(ctx);
  PetscFunctionBegin;
  PetscCall(check_local_vec(dm, "the residual of -dm_fem_gpu_form_file", "x_local", x_local));
  PetscCall(check_local_vec(dm, "the residual of -dm_fem_gpu_form_file", "f_local", f_local));
  PetscCall(MatFEMGPUSetLinearizationPoint(residual, x_local));
  PetscCall(MatFEMGPUCheckNoTimeShift(residual, "residual"));
  PetscCall(VecSet(f_local, 0.0));
  PetscCall(MatFEMGPUApplyLocal(residual, x_local, f_local));
  ResidualCheck *check;
  PetscCall(query_owned((PetscObject)dm, kCheckKey, &check));
  if (check) PetscCall(check_residual_once(dm, x_local, residual, check));  // -dm_fem_gpu_check_residual, once
  PetscFunctionReturn(PETSC_SUCCESS);
}

// -dm_fem_gpu_check_residual [TOL]: a real in [0, 1] (0: off), the default without one.
template <class Items> PetscErrorCode read_check_residual(Items PetscOptionsObject, PetscReal *tol, PetscBool *set)
{
  char text[64], help[512];
  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(help, sizeof(help),
                          "With -dm_fem_gpu_form_file: at the first residual, compare the form file's with the program's PetscDS residual (the "
                          "iterate and 3 random states) and stop with an error when their relative difference exceeds TOL (no TOL: %g; 0: off)",
                          (double)kCheckResidualDefaultTol));
  PetscCall(PetscOptionsString("-dm_fem_gpu_check_residual", help, "", "", text, sizeof(text), set));
  if (!*set) PetscFunctionReturn(PETSC_SUCCESS);
  *tol = kCheckResidualDefaultTol;
  if (text[0]) {
    char *end;
    *tol = std::strtod(text, &end);
    PetscCheck(end != text && *end == '\0', PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
               "-dm_fem_gpu_check_residual %s: not a real number (give a relative tolerance such as 1e-8, or no value for %g)", text,
               (double)kCheckResidualDefaultTol);
    PetscCall(check_real_option("-dm_fem_gpu_check_residual", *tol, 0, 1));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The check's state on the DM, made when femgpu's residual replaces the program's (so
// that the option may also come with a later SNESSetFromOptions): the program's residual
// and boundary hook before femgpu's replace them, and the tolerance (0: off).
PetscErrorCode create_check(DM dm, PetscReal tol, LocalResidual program, void *program_ctx)
{
  auto *check = new ResidualCheck;
  PetscFunctionBegin;
  check->program = program;
  check->program_ctx = program_ctx;
  check->tol = tol;
  PetscCall(DMSNESGetBoundaryLocal(dm, &check->boundary, &check->boundary_ctx));
  PetscCall(compose_owned((PetscObject)dm, kCheckKey, check));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

// A fem_gpu Mat in residual mode for `file` on `dm`, held by the DM. It keeps the DM
// without a reference (the DM holds the Mat, so a reference would keep both alive forever).
PetscErrorCode MatFEMGPUCreateDMResidual(DM dm, const char *file, Mat *residual)
{
  Vec g;
  PetscInt n, N;
  MatFEMGPUContext *ctx;
  PetscFunctionBegin;
  PetscCall(DMGetGlobalVector(dm, &g));
  PetscCall(VecGetLocalSize(g, &n));
  PetscCall(VecGetSize(g, &N));
  PetscCall(DMRestoreGlobalVector(dm, &g));
  PetscCall(MatCreate(PetscObjectComm((PetscObject)dm), residual));
  PetscCall(MatSetSizes(*residual, n, n, N, N));
  PetscCall(MatSetType(*residual, MATFEMGPU));
  PetscCall(MatSetFromOptions(*residual));  // the backend and tuning options the Jacobian has
  PetscCall(MatFEMGPUSetFormFile(*residual, file));
  PetscCall(MatFEMGPUGetContext(*residual, &ctx));
  ctx->op.residual = true;
  ctx->op.dm = dm;
  PetscCall(PetscObjectCompose((PetscObject)dm, kDMResidualKey, (PetscObject)*residual));
  PetscCall(PetscObjectDereference((PetscObject)*residual));  // the DM holds it
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A TS program's DM: an IFunction set through DMTSSetIFunctionLocal (PETSc's FEM one or the program's).
static PetscErrorCode time_dependent(DM dm, bool *yes)
{
  PetscErrorCode (*ifunction)(DM, PetscReal, Vec, Vec, Vec, void *) = nullptr;
  PetscFunctionBegin;
  PetscCall(DMTSGetIFunctionLocal(dm, &ifunction, nullptr));
  *yes = ifunction != nullptr;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatFEMGPUWrapDMResidual(DM dm)
{
  PetscErrorCode (*program)(DM, Vec, Vec, void *) = nullptr;
  void *program_ctx = nullptr;
  std::string file;
  PetscBool set, check_set;
  PetscReal check_tol = 0;
  Mat residual;
  PetscFunctionBegin;
  const char *prefix;
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)dm, &prefix));
  // A block of its own: -help prints a title's options once, and the DM's were printed already.
  PetscOptionsBegin(PetscObjectComm((PetscObject)dm), prefix, "fem_gpu: the DM's residual from a UFL form", "DM");
  PetscCall(read_text_option(PetscOptionsObject, {nullptr, prefix}, "-dm_fem_gpu_form_file",
                             "UFL file whose residual F(w; v) replaces the DM's PetscDS residual (femgpu)", "", &file, &set));
  PetscCall(read_check_residual(PetscOptionsObject, &check_tol, &check_set));
  PetscOptionsEnd();
  if (!set) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMFEMGPUInsertBoundaryValuesFromPlan(dm));  // the essential values SNES and TS insert before F
  PetscCall(DMSNESGetFunctionLocal(dm, &program, &program_ctx));
  bool ts_program = false;
  if (!program) PetscCall(time_dependent(dm, &ts_program));
  if (ts_program) {  // the IFunction F(t, U, U_t): ts_residual.cpp
    PetscCheck(!check_set || check_tol == 0, PetscObjectComm((PetscObject)dm), PETSC_ERR_SUP,
               "-dm_fem_gpu_check_residual: compares with a SNES program's residual (DMPlexSNESComputeResidualFEM); this is a TS program, whose "
               "IFunction it does not compare: check the IJacobian of %s with -mat_fem_gpu_check_jacobian",
               file.c_str());
    PetscCall(MatFEMGPUWrapDMIFunction(dm, file.c_str()));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (program == residual_local) {  // already femgpu's
    ResidualCheck *check;
    PetscCall(query_owned((PetscObject)dm, kCheckKey, &check));
    if (check && check_set) check->tol = check_tol;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(program == DMPlexSNESComputeResidualFEM, PetscObjectComm((PetscObject)dm), PETSC_ERR_ARG_WRONGSTATE,
             "-dm_fem_gpu_form_file %s: the DM's residual is the program's own function, not PETSc's DMPlexSNESComputeResidualFEM; femgpu "
             "replaces only PETSc's (set by DMPlexSetSNESLocalFEM)",
             file.c_str());
  PetscCall(create_check(dm, check_tol, program, program_ctx));  // before the hooks become femgpu's
  PetscCall(MatFEMGPUCreateDMResidual(dm, file.c_str(), &residual));
  PetscCall(DMSNESSetFunctionLocal(dm, residual_local, residual));
  PetscCall(MatFEMGPUSetDMGlobalFunction(dm));  // its global <-> local copies without a star forest on one rank
  PetscCall(PetscInfo(dm, "fem_gpu: the DM's residual is F of %s\n", file.c_str()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu

PetscErrorCode FEMGPUDMSetFromOptions(DM dm)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(dm, DM_CLASSID, 1);
  PetscCall(femgpu::MatFEMGPUWrapDMResidual(dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}
