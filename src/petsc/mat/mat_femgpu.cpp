// The `fem_gpu` Mat type: a MATSHELL whose MatMult applies a lowered form.
//
// MatMult reads as five steps: global-to-local, get arrays, apply the action, restore,
// local-to-global with ADD_VALUES. Setup (parse, lower, tabulate, closure maps,
// backend) happens on first use, once the DM and the form are both known.
#include <petscdmplex.h>
#include <petsctime.h>
#include <petsc/private/matimpl.h>

#include <algorithm>
#include <cstring>

#include "femgpu.h"
#include "petsc/base/composed_object.h"
#include "petsc/base/petsc_errors.h"
#include "petsc/base/setup_phase_events.h"
#include "petsc/base/vec_checks.h"
#include "petsc/mat/mat_context.h"
#include "petsc/mat/mat_femgpu.h"
#include "petsc/mat/mat_femgpu_assembly.h"
#include "petsc/mat/mat_femgpu_device.h"
#include "petsc/mat/mat_femgpu_facets.h"
#include "petsc/mat/mat_femgpu_fields.h"
#include "petsc/mat/mat_femgpu_fields_ops.h"
#include "petsc/mat/mat_femgpu_finite.h"
#include "petsc/mat/mat_femgpu_options.h"
#include "petsc/mat/mat_femgpu_setup.h"
#include "petsc/mat/mat_femgpu_shell_edits.h"
#include "petsc/mat/mat_femgpu_solver.h"
#include "petsc/plex/dm_scatter.h"
#include "petsc/plex/dm_work_vecs.h"

PETSC_EXTERN PetscErrorCode MatCreate_Shell(Mat);  // exported by PETSc, not declared in its headers

namespace femgpu {

PetscLogEvent FEMGPU_SetUp, FEMGPU_Apply, FEMGPU_Tune, FEMGPU_Diagonal, FEMGPU_Maps, FEMGPU_Symmetry;

static const char kContextKey[] = "MatFEMGPUContext";

static PetscErrorCode free_context(void *ptr)
{
  PetscFunctionBegin;
  auto *ctx = static_cast<MatFEMGPUContext *>(ptr);
  PetscCall(MatFEMGPUClearShellEdits(&ctx->shell_edits));
  for (auto &kv : ctx->op.coefficients) {
    PetscCall(VecDestroy(&kv.second.vec));
    PetscCall(VecDestroy(&kv.second.local));
  }
  PetscCall(VecDestroy(&ctx->op.linearization));
  PetscCall(VecDestroy(&ctx->op.time_derivative));
  PetscCall(VecDestroy(&ctx->diagonal));
  delete ctx;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatFEMGPUGetContext(Mat A, MatFEMGPUContext **ctx)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscCall(query_owned((PetscObject)A, kContextKey, ctx));
  PetscCheck(*ctx, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG, "Mat is not of type %s (call MatSetType(A, MATFEMGPU) first)", MATFEMGPU);
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Local arrays for one apply: inputs gathered from Vecs the caller holds.
PetscErrorCode MatFEMGPUFillArrays(MatFEMGPUContext *ctx, const PetscScalar *trial, const PetscScalar *coords, bool host_coefficients,
                                   ActionArrays *a)
{
  PetscFunctionBegin;
  PetscCall(MatFEMGPUFillOperatorArrays(ctx, *ctx->op.ir, ctx->op.maps(), ctx->op.cells, &ctx->op.coefficient_maps, trial, coords,
                                        host_coefficients, a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatFEMGPUFillOperatorArrays(MatFEMGPUContext *ctx, const ActionIR &ir, const PlexMaps &maps, const std::vector<PetscInt> &cells,
                                           std::vector<std::vector<int>> *scratch, const PetscScalar *trial, const PetscScalar *coords,
                                           bool host_coefficients, ActionArrays *a)
{
  PetscFunctionBegin;
  a->n_cells = static_cast<int>(maps.n_cells);
  a->coordinates = {coords, maps.coordinates->data()};
  a->trial = {trial, maps.free.data()};
  a->test_map = maps.free.data();
  a->constants = ctx->op.constants;
  a->device_copies = maps.device_copies;
  a->coefficients.clear();
  scratch->assign(ir.coefficients.size(), {});
  for (size_t i = 0; i < ir.coefficients.size(); ++i) {
    auto it = ctx->op.coefficients.find(ir.coefficients[i].name);
    const PetscScalar *w = nullptr, *held = nullptr;  // null: unused by a, or values kept on the device
    if (it != ctx->op.coefficients.end() && host_coefficients) {
      PetscCall(VecGetArrayRead(it->second.local, &held));
      w = held;  // the restore below nulls `held`; host arrays of a sequential Vec stay valid
      PetscCall(VecRestoreArrayRead(it->second.local, &held));
    }
    const bool own_map = it != ctx->op.coefficients.end() && !it->second.map.empty();  // in its own element
    const int *map = maps.all.data();
    if (own_map && cells.empty()) map = it->second.map.data();
    if (own_map && !cells.empty()) {  // the subset's rows of the coefficient's map
      const size_t width = it->second.map.size() / static_cast<size_t>(std::max<PetscInt>(ctx->op.mesh_maps().n_cells, 1));
      for (PetscInt c : cells)
        (*scratch)[i].insert((*scratch)[i].end(), it->second.map.begin() + static_cast<long>(static_cast<size_t>(c) * width),
                             it->second.map.begin() + static_cast<long>(static_cast<size_t>(c + 1) * width));
      map = (*scratch)[i].data();
    }
    a->coefficients.push_back({w, map});
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Refreshes the ghosted copy of every coefficient whose Vec changed since last time.
PetscErrorCode MatFEMGPURefreshCoefficients(MatFEMGPUContext *ctx)
{
  PetscFunctionBegin;
  for (auto &kv : ctx->op.coefficients) {
    CoefficientBinding &b = kv.second;
    if (b.vec == b.local) continue;  // the linearization point: a local vector read in place
    PetscObjectState state;
    PetscCall(PetscObjectStateGet((PetscObject)b.vec, &state));
    if (b.local && state == b.state) continue;
    PetscInt n;
    PetscCall(VecGetSize(b.vec, &n));
    DM dm = b.dm ? b.dm : ctx->op.dm;  // a coefficient in its own element lives in its own DM
    const PetscInt local_size = b.dm ? b.local_size : ctx->op.maps().local_size;
    if (!b.local) PetscCall(DMCreateLocalVector(dm, &b.local));
    if (n == local_size && b.vec != b.local) {
      PetscMPIInt size;
      PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)b.vec), &size));
      if (size == 1) PetscCall(VecCopy(b.vec, b.local));  // already a local (ghosted) vector
      else PetscCall(DMGlobalToLocal(dm, b.vec, INSERT_VALUES, b.local));
    } else {
      PetscCall(VecSet(b.local, 0.0));
      PetscCall(plex_global_to_local(dm, b.dm ? nullptr : ctx->op.mesh_maps_shared(), b.vec, b.local));  // its own DM: PETSc's
    }
    b.state = state;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatFEMGPURecordApply(MatFEMGPUContext *ctx, PetscLogDouble seconds)
{
  PetscFunctionBegin;
  if (ctx->device.apply_count++ == 0) ctx->device.first_apply_seconds = seconds;
  ctx->device.apply_seconds += seconds;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// y_local += the action on local (ghosted) vectors, on the host arrays: no communication.
static PetscErrorCode apply_on_local(Mat A, MatFEMGPUContext *ctx, Vec xl, Vec yl)
{
  Vec coords;
  const PetscScalar *xa, *ca;
  PetscScalar *ya;
  ActionArrays arrays;
  PetscLogDouble t0, t1;
  PetscFunctionBegin;
  PetscCall(DMGetCoordinatesLocal(ctx->op.dm, &coords));
  PetscCall(VecGetArrayRead(xl, &xa));
  PetscCall(VecGetArrayRead(coords, &ca));
  PetscCall(VecGetArray(yl, &ya));
  PetscCall(MatFEMGPUFillArrays(ctx, xa, ca, true, &arrays));
  PetscCall(PetscLogEventBegin(FEMGPU_Apply, A, xl, yl, 0));
  PetscCall(PetscTime(&t0));  // the backend's call alone: MatView's time per apply
  FEMGPU_CXX(PetscObjectComm((PetscObject)A), ctx->device.backend->apply(arrays, static_cast<size_t>(ctx->op.maps().local_size), ya));
  PetscCall(MatFEMGPUApplyFacets(A, ctx, xa, ca, ya, false));
  PetscCall(PetscTime(&t1));
  PetscCall(MatFEMGPURecordApply(ctx, t1 - t0));
  PetscCall(PetscLogFlops(ctx->op.flops_per_cell * static_cast<PetscLogDouble>(ctx->op.maps().n_cells)));
  PetscCall(PetscLogEventEnd(FEMGPU_Apply, A, xl, yl, 0));
  PetscCall(VecRestoreArray(yl, &ya));
  PetscCall(VecRestoreArrayRead(coords, &ca));
  PetscCall(VecRestoreArrayRead(xl, &xa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatFEMGPUApplyLocal(Mat A, Vec x_local, Vec y_local)
{
  MatFEMGPUContext *ctx;
  PetscFunctionBegin;
  PetscCall(MatFEMGPUSetUp(A));
  PetscCall(MatFEMGPUGetContext(A, &ctx));
  PetscCall(MatFEMGPURefreshCoefficients(ctx));
  PetscBool on_device;
  PetscCall(MatFEMGPUApplyLocalDevice(A, ctx, x_local, y_local, &on_device));  // CUDA Vecs: no copies
  if (!on_device) PetscCall(apply_on_local(A, ctx, x_local, y_local));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// y = A x (add == false) or y = y + A x.
static PetscErrorCode apply(Mat A, MatFEMGPUContext *ctx, Vec x, Vec y, bool add)
{
  Vec xl, yl;
  bool multi = false;
  PetscFunctionBegin;
  if (ctx->zeroed) {  // MatZeroEntries, and not bound again
    if (!add) PetscCall(VecSet(y, 0.0));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatFEMGPUSetUpFields(A, ctx, &multi));  // a DM with several fields: the sum of the blocks
  if (multi) {
    PetscCall(MatFEMGPUFieldsApply(A, ctx, x, y, add));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatFEMGPUSetUp(A));
  PetscCall(MatFEMGPURefreshCoefficients(ctx));
  PetscBool on_device;
  PetscCall(MatFEMGPUApplyDevice(A, ctx, x, y, add, &on_device));  // records its own apply
  if (on_device) PetscFunctionReturn(PETSC_SUCCESS);
  // 1. global-to-local
  PetscCall(DMGetLocalVector(ctx->op.dm, &xl));
  PetscCall(DMGetLocalVector(ctx->op.dm, &yl));
  PetscCall(plex_global_to_local(ctx->op.dm, ctx->op.mesh_maps_shared(), x, xl));
  PetscCall(VecSet(yl, 0.0));
  // 2-4. the action on host arrays: get, apply, restore.
  PetscCall(apply_on_local(A, ctx, xl, yl));
  // 5. local-to-global, summing shared DOFs
  if (!add) PetscCall(VecSet(y, 0.0));
  PetscCall(plex_local_to_global_add(ctx->op.dm, ctx->op.mesh_maps_shared(), yl, y));
  PetscCall(DMRestoreLocalVector(ctx->op.dm, &xl));
  PetscCall(DMRestoreLocalVector(ctx->op.dm, &yl));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The apply, and under -mat_fem_gpu_check_finite the first y = A x checked (an add's
// output also holds y's values: not the operator's alone).
PetscErrorCode MatFEMGPUApply(Mat A, Vec x, Vec y, bool add)
{
  MatFEMGPUContext *ctx;
  PetscFunctionBegin;
  PetscCall(MatFEMGPUGetContext(A, &ctx));
  PetscCall(apply(A, ctx, x, y, add));
  if (!add) PetscCall(MatFEMGPUCheckFinite(A, ctx, "the first apply y = A x", {x}, y, &ctx->apply_finite_checked));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// z = y + A x (A^T x) with MATSHELL's scalings and shifts, which it applies in MatMult
// (MatMultTranspose) only, not in an add of our own.
PetscErrorCode MatFEMGPUMultAddEdited(Mat A, Vec x, Vec y, Vec z, bool transpose)
{
  Vec product;
  PetscFunctionBegin;
  PetscCall(VecDuplicate(z, &product));
  if (transpose) PetscCall(MatMultTranspose(A, x, product));
  else PetscCall(MatMult(A, x, product));
  if (y != z) PetscCall(VecWAXPY(z, 1.0, product, y));
  else PetscCall(VecAXPY(z, 1.0, product));
  PetscCall(VecDestroy(&product));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMult_FEMGPU(Mat A, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(check_vec_layout(A, "MatMult()", "x", x, MatSide::columns));
  PetscCall(check_vec_layout(A, "MatMult()", "y", y, MatSide::rows));
  PetscCall(MatFEMGPUApply(A, x, y, false));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultAdd_FEMGPU(Mat A, Vec x, Vec y, Vec z)
{
  MatFEMGPUContext *ctx;
  PetscFunctionBegin;
  PetscCall(check_vec_layout(A, "MatMultAdd()", "x", x, MatSide::columns));
  PetscCall(check_vec_layout(A, "MatMultAdd()", "y", y, MatSide::rows));
  PetscCall(check_vec_layout(A, "MatMultAdd()", "z", z, MatSide::rows));
  PetscCall(MatFEMGPUGetContext(A, &ctx));
  if (!ctx->shell_edits.list.empty()) {
    PetscCall(MatFEMGPUMultAddEdited(A, x, y, z, false));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (y != z) PetscCall(VecCopy(y, z));
  PetscCall(MatFEMGPUApply(A, x, z, true));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// DMCreateMatrix fills the nonzero pattern of any non-shell type with zeros; accept
// that, and refuse real values: a fem_gpu matrix is defined by its form.
static PetscErrorCode MatSetValues_FEMGPU(Mat A, PetscInt m, const PetscInt *, PetscInt n, const PetscInt *, const PetscScalar *v, InsertMode)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; v && i < m * n; ++i)
    PetscCheck(v[i] == 0.0, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP,
               "MatSetValues() on a %s matrix: its entries come from its form and cannot be set", MATFEMGPU);
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Vectors of the Mat's DM (so VECCUDA when -dm_vec_type cuda): PCs such as Jacobi make
// their work vectors here, and host ones would copy to and from the GPU every apply.
// Duplicates of a global Vec the DM has shown (dm_work_vecs.h), where it has, so that no
// call walks the chart as DMCreateGlobalVector does.
static PetscErrorCode MatCreateVecs_FEMGPU(Mat A, Vec *right, Vec *left)
{
  DM dm;
  PetscFunctionBegin;
  PetscCall(MatGetDM(A, &dm));
  if (dm) {
    if (right) PetscCall(dm_create_global_vec(dm, right));
    if (left) PetscCall(dm_create_global_vec(dm, left));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscInt m, n;  // no DM yet: standard vectors of the Mat's sizes
  PetscCall(MatGetLocalSize(A, &m, &n));
  if (right) PetscCall(VecCreateMPI(PetscObjectComm((PetscObject)A), n, PETSC_DETERMINE, right));
  if (left) PetscCall(VecCreateMPI(PetscObjectComm((PetscObject)A), m, PETSC_DETERMINE, left));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MatZeroEntries, as TS calls it before each IJacobian: the matrix is zero (MatMult and the
// diagonal give zeros, anything that would assemble it is refused) until its operator is
// bound again: a linearization point (as the SNES and TS wrappers set at each evaluation),
// a constant or a coefficient.
static PetscErrorCode MatZeroEntries_FEMGPU(Mat A)
{
  MatFEMGPUContext *ctx;
  PetscFunctionBegin;
  PetscCall(MatFEMGPUGetContext(A, &ctx));
  ctx->zeroed = true;
  // MATSHELL keeps an earlier MatScale/MatShift through MatZeroEntries (PETSc 3.18) and resets
  // them at final assembly: a zero matrix has neither.
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatFEMGPUSetLinearizationPoint(Mat A, Vec x_local)
{
  MatFEMGPUContext *ctx;
  PetscFunctionBegin;
  PetscCall(MatFEMGPUGetContext(A, &ctx));
  if (!ctx->op.linearization) {
    PetscCall(VecDuplicate(x_local, &ctx->op.linearization));
    // Without the DM a lent local Vec carries: the residual's Mat is held by its DM
    // (snes_residual.cpp), and a DM held by the Mat's copy would never be destroyed.
    PetscCall(VecSetDM(ctx->op.linearization, nullptr));
  }
  PetscCall(VecCopy(x_local, ctx->op.linearization));  // a new state: the action re-reads it
  ctx->zeroed = false;
  PetscCall(PetscObjectStateIncrease((PetscObject)A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDestroy_FEMGPU(Mat A)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectCompose((PetscObject)A, kContextKey, nullptr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatCreate_FEMGPU(Mat A)
{
  PetscFunctionBegin;
  PetscCall(MatCreate_Shell(A));
  PetscCall(PetscObjectChangeTypeName((PetscObject)A, MATFEMGPU));
  // Like MatCreateShell: defined by its operation, so usable without assembly.
  A->assembled = PETSC_TRUE;
  A->preallocated = PETSC_TRUE;
  PetscCall((compose_owned<MatFEMGPUContext, free_context>((PetscObject)A, kContextKey, new MatFEMGPUContext())));
  PetscCall(MatShellSetOperation(A, MATOP_MULT, (void (*)(void))MatMult_FEMGPU));
  PetscCall(MatShellSetOperation(A, MATOP_MULT_ADD, (void (*)(void))MatMultAdd_FEMGPU));
  PetscCall(MatShellSetOperation(A, MATOP_VIEW, (void (*)(void))MatView_FEMGPU));
  PetscCall(MatShellSetOperation(A, MATOP_DESTROY, (void (*)(void))MatDestroy_FEMGPU));
  PetscCall(MatShellSetOperation(A, MATOP_SET_VALUES, (void (*)(void))MatSetValues_FEMGPU));
  PetscCall(MatShellSetOperation(A, MATOP_ZERO_ENTRIES, (void (*)(void))MatZeroEntries_FEMGPU));
  PetscCall(MatShellSetOperation(A, MATOP_CREATE_VECS, (void (*)(void))MatCreateVecs_FEMGPU));
  PetscCall(MatShellSetOperation(A, MATOP_SET_FROM_OPTIONS, (void (*)(void))MatSetFromOptions_FEMGPU));
  PetscCall(MatShellSetOperation(A, MATOP_CREATE_SUBMATRIX, (void (*)(void))MatCreateSubMatrix_FEMGPU));  // multi-field DMs
  PetscCall(MatFEMGPUSetSolverOperations(A));
  PetscCall(MatFEMGPUSetAssemblyOperations(A));
  MatFEMGPUContext *ctx;
  PetscCall(MatFEMGPUGetContext(A, &ctx));
  PetscCall(MatFEMGPUWrapShellEdits(A, &ctx->shell_edits));  // last: it wraps MATSHELL's operations as they are now
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatFEMGPURegisterLogEvents()
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventRegister("FEMGPUSetUp", MAT_CLASSID, &FEMGPU_SetUp));
  PetscCall(PetscLogEventRegister("FEMGPUApply", MAT_CLASSID, &FEMGPU_Apply));
  PetscCall(PetscLogEventRegister("FEMGPUTune", MAT_CLASSID, &FEMGPU_Tune));
  PetscCall(PetscLogEventRegister("FEMGPUDiagonal", MAT_CLASSID, &FEMGPU_Diagonal));
  PetscCall(PetscLogEventRegister("FEMGPUMaps", MAT_CLASSID, &FEMGPU_Maps));
  PetscCall(PetscLogEventRegister("FEMGPUSymmetry", MAT_CLASSID, &FEMGPU_Symmetry));
  PetscCall(PetscLogEventRegister("FEMGPUAssembly", MAT_CLASSID, &FEMGPU_Assembly));
  PetscCall(RegisterSetupPhaseEvents());
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
