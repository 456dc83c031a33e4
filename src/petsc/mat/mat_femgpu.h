// The fem_gpu Mat type itself (mat_femgpu.cpp): MatCreate, the context it owns, and the
// apply every MatMult path runs, with the arrays it hands a backend.
//
// Takes: a Mat of type fem_gpu (MatFEMGPUGetContext errors on any other). Returns: its
// context (the structs of mat_context.h), the action y (+)= A x on global or local Vecs.
// Does not: register the type (solvers/femgpu_register.cpp does, with the PC and the SNES
// checker that live in the rooms above), set up the operator (mat_femgpu_setup.h).
#pragma once

#include <petscmat.h>

#include <vector>

#include "fem/action_arrays.h"
#include "ir/action_ir.h"
#include "petsc/plex/plex_maps.h"

namespace femgpu {

struct MatFEMGPUContext;  // mat_context.h

// MatRegister's constructor of MATFEMGPU: a MATSHELL with femgpu's operations.
PetscErrorCode MatCreate_FEMGPU(Mat A);
// The log events below (FEMGPU_Assembly's too), in the order -log_view lists them.
PetscErrorCode MatFEMGPURegisterLogEvents();

PetscErrorCode MatFEMGPUGetContext(Mat A, MatFEMGPUContext **ctx);

// Inside FEMGPUSetUp: FEMGPUMaps (closure maps from the DMPlex), FEMGPUTune (first
// MatMult's tuning, CUDA/OpenCL), FEMGPUSymmetry (the cell-matrix symmetry check).
// FEMGPUApply covers the backend's call alone, on every path: the ghost exchanges
// (DMGlobalToLocal, DMLocalToGlobal) show under PETSc's own events.
extern PetscLogEvent FEMGPU_SetUp, FEMGPU_Apply, FEMGPU_Diagonal, FEMGPU_Tune, FEMGPU_Maps, FEMGPU_Symmetry;

// Re-reads coefficient Vecs that changed; fills the action's arrays (pointers into the
// given local arrays, valid until they are restored).
PetscErrorCode MatFEMGPUApply(Mat A, Vec x, Vec y, bool add);  // y (+)= A x, no shell scaling
// z = y + A x (transpose: A^T x) through MatMult (MatMultTranspose), so that MATSHELL's
// scalings and shifts apply: MatMultAdd's path once the Mat has shell edits.
PetscErrorCode MatFEMGPUMultAddEdited(Mat A, Vec x, Vec y, Vec z, bool transpose);
// y_local += the action on local vectors of the DM (no ghost exchange): the residual's path.
PetscErrorCode MatFEMGPUApplyLocal(Mat A, Vec x_local, Vec y_local);
PetscErrorCode MatFEMGPURefreshCoefficients(MatFEMGPUContext *ctx);
// Host arrays of one apply; host_coefficients false leaves coefficient values null
// (they stay on the device).
PetscErrorCode MatFEMGPUFillArrays(MatFEMGPUContext *ctx, const PetscScalar *trial, const PetscScalar *coords, bool host_coefficients,
                                   ActionArrays *a);
// The same for one operator: its IR, maps and cell subset (empty: every cell);
// own-element coefficient maps are cut to the subset into *scratch.
PetscErrorCode MatFEMGPUFillOperatorArrays(MatFEMGPUContext *ctx, const ActionIR &ir, const PlexMaps &maps, const std::vector<PetscInt> &cells,
                                           std::vector<std::vector<int>> *scratch, const PetscScalar *trial, const PetscScalar *coords,
                                           bool host_coefficients, ActionArrays *a);
// One backend call of MatMult took `seconds` (wall time): counts it for MatView's time
// per apply (the caller logs the action's FLOPs: PetscLogFlops or PetscLogGpuFlops).
PetscErrorCode MatFEMGPURecordApply(MatFEMGPUContext *ctx, PetscLogDouble seconds);

// The operator's linearization point becomes a copy of x_local (a local Vec of the DM,
// boundary values inserted), as SNES and TS give it at each evaluation; a zeroed Mat
// (MatZeroEntries) is its operator again, and the Mat's state is bumped.
PetscErrorCode MatFEMGPUSetLinearizationPoint(Mat A, Vec x_local);

}  // namespace femgpu
