#include "petsc/pmg/pmg_levels.h"

#include <petscdmplex.h>
#include <petscds.h>
#include <petscfe.h>
#include <petscksp.h>

#include <algorithm>

#include "femgpu.h"
#include "petsc/base/petsc_errors.h"
#include "petsc/mat/mat_context.h"
#include "petsc/mat/mat_femgpu.h"
#include "petsc/mat/mat_femgpu_options.h"
#include "petsc/plex/level_section.h"
#include "petsc/plex/plex_maps.h"

namespace femgpu {

PetscErrorCode PMGCloneLevelDM(DM fine, PetscInt degree, DM *level)
{
  PetscObject field;
  PetscFE fe;
  PetscDS fine_ds, level_ds;
  PetscInt dim, components;
  PetscBool simplex;
  VecType vtype;
  PetscFunctionBegin;
  PetscCall(DMGetField(fine, 0, nullptr, &field));
  PetscCall(PetscFEGetSpatialDimension((PetscFE)field, &dim));
  PetscCall(PetscFEGetNumComponents((PetscFE)field, &components));
  PetscCall(DMPlexIsSimplex(fine, &simplex));
  PetscCall(DMClone(fine, level));
  PetscCall(PetscFECreateLagrange(PetscObjectComm((PetscObject)fine), dim, components, simplex, degree, PETSC_DETERMINE, &fe));
  PetscCall(PetscObjectSetName((PetscObject)fe, "fem_gpu_pmg level"));
  PetscCall(DMSetField(*level, 0, nullptr, (PetscObject)fe));
  PetscCall(PetscFEDestroy(&fe));
  PetscCall(DMCreateDS(*level));
  // The essential conditions: the fine DS's boundaries (label, values, components); the
  // level's section constrains the same points' DOFs.
  PetscCall(DMGetDS(fine, &fine_ds));
  PetscCall(DMGetDS(*level, &level_ds));
  PetscCall(PetscDSCopyBoundary(fine_ds, PETSC_DETERMINE, nullptr, level_ds));
  PetscCall(DMGetVecType(fine, &vtype));
  PetscCall(DMSetVecType(*level, vtype));
  PetscCall(DMSetMatType(*level, MATFEMGPU));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PMGLadder(PC pc, const std::vector<PetscInt> &requested, PetscInt degree, std::vector<PetscInt> *out)
{
  PetscFunctionBegin;
  out->assign(1, degree);
  if (requested.empty()) {
    // Halving rounded up: an odd degree keeps an intermediate level (3 -> 2 -> 1; 3 -> 1
    // took more CG iterations, docs/pmg.md).
    for (PetscInt d = degree; d > 1;) out->push_back(d = (d + 1) / 2);
  } else {
    for (PetscInt d : requested) {
      PetscCheck(d < out->back(), PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE,
                 "-pc_fem_gpu_pmg_degrees: level degree %" PetscInt_FMT " must be below the one above it (%" PetscInt_FMT
                 "; the operator's element has degree %" PetscInt_FMT ")", d, out->back(), degree);
      out->push_back(d);
    }
    PetscCheck(out->back() == 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE,
               "-pc_fem_gpu_pmg_degrees: the last level must have degree 1 (the assembled coarse level), not %" PetscInt_FMT, out->back());
  }
  std::reverse(out->begin(), out->end());
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PMGCreateLevelDM(DM fine, PetscInt degree, DM *level)
{
  bool derived;
  PetscFunctionBegin;
  PetscCall(PMGCloneLevelDM(fine, degree, level));
  // The section and the maps' mesh parts from the fine DM's (level_section.h, plex_maps.h):
  // PETSc's build of a section walks every point of the mesh.
  PetscCall(plex_set_level_section(fine, *level, &derived));
  PetscCall(plex_maps_share_mesh(fine, *level));
  PetscFunctionReturn(PETSC_SUCCESS);
}

namespace {

// The fine Mat's request at this level: a forced tiled or tensor-core schedule names
// tiles of the fine degree, so levels tune (auto) unless the fine Mat runs SCPWI, whose
// request fits every degree.
ScheduleRequest level_schedule(const ScheduleRequest &fine)
{
  if (fine.strategy == "auto" || fine.strategy == "scpwi") return fine;
  ScheduleRequest r;
  r.precision = fine.precision;
  r.device = fine.device;
  return r;
}

}  // namespace

PetscErrorCode PMGCreateLevelMat(Mat fine, DM level_dm, const std::string &precision, Mat *level,
                                 std::vector<std::pair<std::string, Vec>> *coefficients, const std::string &backend)
{
  MatFEMGPUContext *f, *l;
  const char *prefix;
  VecType vtype;
  Vec g;
  PetscInt n, N;
  PetscFunctionBegin;
  PetscCall(MatFEMGPUGetContext(fine, &f));
  PetscCall(DMGetGlobalVector(level_dm, &g));
  PetscCall(VecGetLocalSize(g, &n));
  PetscCall(VecGetSize(g, &N));
  PetscCall(DMRestoreGlobalVector(level_dm, &g));
  PetscCall(MatCreate(PetscObjectComm((PetscObject)fine), level));
  PetscCall(MatSetSizes(*level, n, n, N, N));
  PetscCall(MatSetType(*level, MATFEMGPU));
  PetscCall(MatSetDM(*level, level_dm));
  PetscCall(DMGetVecType(level_dm, &vtype));
  PetscCall(MatSetVecType(*level, vtype));
  PetscCall(MatGetOptionsPrefix(fine, &prefix));
  PetscCall(MatSetOptionsPrefix(*level, prefix));
  if (f->options.options_read) PetscCall(MatSetFromOptions(*level));  // tuning, cache and backend options as the fine Mat's
  PetscCall(MatFEMGPUSetForm(*level, f->op.form_text.c_str(), f->op.form_source.c_str()));
  PetscCall(PMGCopyConstants(fine, *level));
  PetscCall(MatFEMGPUGetContext(*level, &l));
  if (f->op.given_form) {
    l->op.given_form = f->op.given_form;  // a block of a mixed form: lowered for the level's element
  } else {  // the fine Mat's parsed form moved to the level's degree: the text is not read again
    FormSignature level_signature;
    PetscCall(plex_form_signature(level_dm, &level_signature));
    FEMGPU_CXX(PetscObjectComm((PetscObject)fine), l->op.given_form = std::make_shared<const Form>(on_element(*f->op.form, level_signature)));
  }
  OptionsCopyChanges changes;  // a duplicate's copy of the fine Mat's options, but:
  changes.backend_name = backend.empty() ? f->device.backend->name() : backend;  // by default the one `auto` chose for the fine Mat
  changes.schedule = level_schedule(f->options.schedule);
  if (*changes.backend_name == "cpu") changes.schedule = ScheduleRequest();  // the FP64 reference runs no schedule
  changes.schedule->precision = precision;
  changes.own_views_and_checks = true;  // as its MatSetFromOptions above read them
  l->options = MatFEMGPUCopiedOptions(f->options, l->options, changes);
  coefficients->clear();
  for (size_t i = 0; i < f->op.ir->coefficients.size(); ++i) {
    if (f->op.ir->group_of_function(coefficient_function(static_cast<int>(i))) < 0) continue;  // unused by the form
    const CoefficientInfo &c = f->op.ir->coefficients[i];
    if (c.element != f->op.signature.element) {  // its own element, the same on every level: the fine Vec as is
      PetscCall(MatFEMGPUSetCoefficient(*level, c.name.c_str(), f->op.coefficients.at(c.name).vec));
      continue;
    }
    Vec w;
    PetscCall(DMCreateLocalVector(level_dm, &w));
    PetscCall(VecSet(w, 0.0));
    PetscCall(MatFEMGPUSetCoefficient(*level, f->op.ir->coefficients[i].name.c_str(), w));
    coefficients->emplace_back(f->op.ir->coefficients[i].name, w);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PMGCopyConstants(Mat fine, Mat level)
{
  MatFEMGPUContext *f;
  PetscFunctionBegin;
  PetscCall(MatFEMGPUGetContext(fine, &f));
  for (const auto &kv : f->op.constants_set) PetscCall(MatFEMGPUSetConstant(level, kv.first.c_str(), kv.second));
  PetscFunctionReturn(PETSC_SUCCESS);
}

namespace {

const char *edit_name(ShellEdit::Kind kind)
{
  switch (kind) {
  case ShellEdit::Kind::affine: return "MatScale/MatShift";
  case ShellEdit::Kind::diagonal_scale: return "MatDiagonalScale";
  case ShellEdit::Kind::diagonal_set: return "MatDiagonalSet";
  case ShellEdit::Kind::axpy: return "MatAXPY";
  case ShellEdit::Kind::zero_rows: return "MatZeroRows";
  case ShellEdit::Kind::zero_rows_columns: return "MatZeroRowsColumns";
  }
  return "?";
}

}  // namespace

PetscErrorCode PMGCopyEdits(Mat fine, Mat level, std::string *dropped)
{
  MatFEMGPUContext *f;
  PetscFunctionBegin;
  PetscCall(MatFEMGPUGetContext(fine, &f));
  dropped->clear();
  PetscCall(MatAssemblyBegin(level, MAT_FINAL_ASSEMBLY));  // forgets the level's edits of the last setup
  PetscCall(MatAssemblyEnd(level, MAT_FINAL_ASSEMBLY));
  for (const ShellEdit &edit : f->shell_edits.list) {
    if (edit.kind != ShellEdit::Kind::affine) {
      if (dropped->empty()) *dropped = edit_name(edit.kind);
      continue;
    }
    if (edit.scale != (PetscScalar)1) PetscCall(MatScale(level, edit.scale));
    if (edit.shift != (PetscScalar)0) PetscCall(MatShift(level, edit.shift));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PMGSetSmootherDefaults(KSP smoother, bool symmetric)
{
  PC pc;
  KSP estimator;
  PetscFunctionBegin;
  PetscCall(KSPSetType(smoother, KSPCHEBYSHEV));
  PetscCall(KSPGetPC(smoother, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  // A symmetric form: the estimate by CG (Lanczos), as PETSc does for a Mat marked SPD,
  // instead of GMRES's work vectors and orthogonalisations. Chebyshev with Jacobi needs a
  // positive spectrum anyway (an FP32 level that loses it is an error: PMGCheckFP32Levels).
  PetscCall(KSPChebyshevEstEigSet(smoother, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE));
  PetscCall(KSPChebyshevEstEigGetKSP(smoother, &estimator));
  if (symmetric && estimator) PetscCall(KSPSetType(estimator, KSPCG));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PMGCheckFP32Levels(PC pc, const std::vector<PetscInt> &degrees)
{
  PetscFunctionBegin;
  for (size_t l = 1; l + 1 < degrees.size(); ++l) {
    KSP smoother, estimator = nullptr;
    PetscBool cheby;
    KSPConvergedReason reason;
    PetscCall(PCMGGetSmoother(pc, static_cast<PetscInt>(l), &smoother));
    PetscCall(PetscObjectTypeCompare((PetscObject)smoother, KSPCHEBYSHEV, &cheby));
    if (cheby) PetscCall(KSPChebyshevEstEigGetKSP(smoother, &estimator));
    if (!estimator) continue;  // eigenvalues given by option, or another smoother
    PetscCall(KSPGetConvergedReason(estimator, &reason));
    PetscCheck(reason != KSP_DIVERGED_INDEFINITE_MAT && reason != KSP_DIVERGED_INDEFINITE_PC && reason != KSP_DIVERGED_NANORINF && reason != KSP_DIVERGED_BREAKDOWN,
               PetscObjectComm((PetscObject)pc), PETSC_ERR_NOT_CONVERGED,
               "fem_gpu_pmg: level %zu (P%" PetscInt_FMT ", FP32 by -pc_fem_gpu_pmg_level_precision fp32) is not positive definite in FP32: its Chebyshev "
               "smoother's eigenvalue estimate stopped with %s; the form loses definiteness in single precision here (the operator and the coarse level are "
               "FP64). Use -pc_fem_gpu_pmg_level_precision fp64",
               l, degrees[l], KSPConvergedReasons[reason]);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
