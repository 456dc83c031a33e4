// What PETSc's solvers ask of a fem_gpu Mat beyond MatMult: the diagonal (Jacobi,
// Chebyshev), the transpose of a symmetric form, symmetry itself (CG, ICC, MatIsSymmetric),
// and MatDuplicate/MatCopy.
//
// The diagonal comes from the same lowered form as MatMult (the backend's diagonal(),
// by default the CPU reference on unit vectors, reference_diagonal.h), summed over
// ranks with ADD_VALUES like the action, and is kept: while the operator's values stay
// (operator_values_key.h), the next MatGetDiagonal copies it. Symmetry is either declared
// (-mat_fem_gpu_symmetric) or detected at setup: the cell matrices of two cells per
// rank, with random coefficient values, must equal their transposes to 1e-12 relative.
// A duplicate or copy shares the form text, constants, coefficient Vecs, backend and
// options prefix, and sets itself up on first use; it also takes MATSHELL's scalings and
// shifts and femgpu's record of them (mat_femgpu_shell_edits.h). MatMultAdd and
// MatMultTransposeAdd of a Mat so changed go through MatMult (MatMultTranspose), where
// MATSHELL applies them.
// Does not: transpose a non-symmetric form (an error says so).
#include <petsc/private/matimpl.h>

#include <algorithm>

#include "femgpu.h"
#include "petsc/base/petsc_errors.h"
#include "petsc/base/vec_checks.h"
#include "petsc/mat/mat_context.h"
#include "petsc/mat/mat_femgpu.h"
#include "petsc/mat/mat_femgpu_device.h"
#include "petsc/mat/mat_femgpu_facets.h"
#include "petsc/mat/mat_femgpu_fields.h"
#include "petsc/mat/mat_femgpu_fields_ops.h"
#include "petsc/mat/mat_femgpu_finite.h"
#include "petsc/mat/mat_femgpu_options.h"
#include "petsc/mat/mat_femgpu_setup.h"
#include "petsc/mat/mat_femgpu_shell_edits.h"
#include "petsc/mat/mat_femgpu_solver.h"
#include "petsc/mat/operator_values_key.h"
#include "petsc/plex/dm_scatter.h"
#include "reference/reference_diagonal.h"

namespace femgpu {

namespace {

const double kSymmetryTolerance = 1e-12;

// The diagonal: zero local Vec, backend diagonal on the local arrays, sum into d.
PetscErrorCode MatGetDiagonal_FEMGPU(Mat A, Vec d)
{
  MatFEMGPUContext *ctx;
  Vec dl, coords;
  const PetscScalar *ca;
  PetscScalar *da;
  ActionArrays arrays;
  bool multi = false;
  PetscFunctionBegin;
  PetscCall(check_vec_layout(A, "MatGetDiagonal()", "d", d, MatSide::rows));
  PetscCall(MatFEMGPUGetContext(A, &ctx));
  if (ctx->zeroed) {  // MatZeroEntries, and not bound again
    PetscCall(VecSet(d, 0.0));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatFEMGPUSetUpFields(A, ctx, &multi));  // a DM with several fields: the diagonal blocks'
  if (multi) {
    PetscCall(MatFEMGPUFieldsDiagonal(ctx, d));
    PetscCall(MatFEMGPUCheckFinite(A, ctx, "MatGetDiagonal()", {}, d, &ctx->diagonal_finite_checked));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatFEMGPUSetUp(A));
  std::vector<double> key;  // the same values as last time: the same diagonal
  PetscCall(MatFEMGPUOperatorValuesKey(A, &key));
  if (ctx->diagonal && key == ctx->diagonal_key) {
    PetscCall(VecCopy(ctx->diagonal, d));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatFEMGPURefreshCoefficients(ctx));
  PetscBool on_device;
  PetscCall(MatFEMGPUDiagonalDevice(A, ctx, d, &on_device));
  if (on_device) {
    PetscCall(MatFEMGPUCheckFinite(A, ctx, "MatGetDiagonal()", {}, d, &ctx->diagonal_finite_checked));
    if (!ctx->diagonal) PetscCall(PetscInfo(A, "fem_gpu: MatGetDiagonal on the device, into the Vec's device array through the maps in the global numbering\n"));
    if (!ctx->diagonal) PetscCall(VecDuplicate(d, &ctx->diagonal));
    PetscCall(VecCopy(d, ctx->diagonal));
    ctx->diagonal_key = key;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DMGetLocalVector(ctx->op.dm, &dl));
  PetscCall(VecSet(dl, 0.0));
  PetscCall(DMGetCoordinatesLocal(ctx->op.dm, &coords));
  PetscCall(VecGetArrayRead(coords, &ca));
  PetscCall(VecGetArray(dl, &da));
  PetscCall(MatFEMGPUFillArrays(ctx, nullptr, ca, true, &arrays));
  PetscCall(PetscLogEventBegin(FEMGPU_Diagonal, A, d, 0, 0));
  FEMGPU_CXX(PetscObjectComm((PetscObject)A), ctx->device.backend->diagonal(arrays, static_cast<size_t>(ctx->op.maps().local_size), da));
  PetscCall(MatFEMGPUApplyFacets(A, ctx, nullptr, ca, da, true));
  PetscCall(PetscLogEventEnd(FEMGPU_Diagonal, A, d, 0, 0));
  PetscCall(VecRestoreArray(dl, &da));
  PetscCall(VecRestoreArrayRead(coords, &ca));
  PetscCall(VecSet(d, 0.0));
  PetscCall(plex_local_to_global_add(ctx->op.dm, ctx->op.mesh_maps_shared(), dl, d));
  PetscCall(DMRestoreLocalVector(ctx->op.dm, &dl));
  PetscCall(MatFEMGPUCheckFinite(A, ctx, "MatGetDiagonal()", {}, d, &ctx->diagonal_finite_checked));
  if (!ctx->diagonal) PetscCall(VecDuplicate(d, &ctx->diagonal));
  PetscCall(VecCopy(d, ctx->diagonal));
  ctx->diagonal_key = key;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Declared not symmetric (-mat_fem_gpu_symmetric false), nothing was measured: the
// message says so instead of quoting an asymmetry.
PetscErrorCode check_transpose(Mat A, MatFEMGPUContext *ctx)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)A);
  PetscFunctionBegin;
  if (ctx->op.symmetric) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(ctx->op.asymmetry >= 0, comm, PETSC_ERR_SUP,
             "fem_gpu: MatMultTranspose() needs a symmetric form, and form %s was declared not symmetric by -mat_fem_gpu_symmetric false "
             "(its symmetry was not measured); the transpose action of a non-symmetric form is not implemented. If the form is symmetric, "
             "declare it with -mat_fem_gpu_symmetric true, or leave the option out to have it detected",
             ctx->op.form_source.c_str());
  SETERRQ(comm, PETSC_ERR_SUP,
          "fem_gpu: MatMultTranspose() needs a symmetric form, and form %s is not symmetric (a cell matrix with random coefficients has "
          "max |A - A^T| / max |A| = %g); the transpose action of a non-symmetric form is not implemented. If the form is symmetric, "
          "declare it with -mat_fem_gpu_symmetric true",
          ctx->op.form_source.c_str(), ctx->op.asymmetry);
}

PetscErrorCode MatMultTranspose_FEMGPU(Mat A, Vec x, Vec y)
{
  MatFEMGPUContext *ctx;
  PetscFunctionBegin;
  PetscCall(check_vec_layout(A, "MatMultTranspose()", "x", x, MatSide::rows));
  PetscCall(check_vec_layout(A, "MatMultTranspose()", "y", y, MatSide::columns));
  PetscCall(MatFEMGPUSetUp(A));
  PetscCall(MatFEMGPUGetContext(A, &ctx));
  PetscCall(check_transpose(A, ctx));
  PetscCall(MatFEMGPUApply(A, x, y, false));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatMultTransposeAdd_FEMGPU(Mat A, Vec x, Vec y, Vec z)
{
  MatFEMGPUContext *ctx;
  PetscFunctionBegin;
  PetscCall(check_vec_layout(A, "MatMultTransposeAdd()", "x", x, MatSide::rows));
  PetscCall(check_vec_layout(A, "MatMultTransposeAdd()", "y", y, MatSide::columns));
  PetscCall(check_vec_layout(A, "MatMultTransposeAdd()", "z", z, MatSide::columns));
  PetscCall(MatFEMGPUSetUp(A));
  PetscCall(MatFEMGPUGetContext(A, &ctx));
  PetscCall(check_transpose(A, ctx));
  if (!ctx->shell_edits.list.empty()) {
    PetscCall(MatFEMGPUMultAddEdited(A, x, y, z, true));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (y != z) PetscCall(VecCopy(y, z));
  PetscCall(MatFEMGPUApply(A, x, z, true));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatIsSymmetric_FEMGPU(Mat A, PetscReal, PetscBool *symmetric)
{
  MatFEMGPUContext *ctx;
  PetscFunctionBegin;
  PetscCall(MatFEMGPUSetUp(A));
  PetscCall(MatFEMGPUGetContext(A, &ctx));
  *symmetric = ctx->op.symmetric ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Everything a user configures, from A's context into B's; B sets up again.
PetscErrorCode copy_configuration(Mat A, Mat B)
{
  MatFEMGPUContext *a, *b;
  PetscFunctionBegin;
  PetscCall(MatFEMGPUGetContext(A, &a));
  PetscCall(MatFEMGPUGetContext(B, &b));
  if (a == b) PetscFunctionReturn(PETSC_SUCCESS);
  b->op.form_text = a->op.form_text;
  b->op.form_source = a->op.form_source;
  b->op.given_form = a->op.given_form;
  b->op.lowered = a->op.lowered;  // B's setup shares it where B lowers the same (mat_femgpu_setup.cpp)
  b->op.constants_set = a->op.constants_set;
  b->options = MatFEMGPUCopiedOptions(a->options, b->options);  // B keeps its own tuning options (mat_femgpu_options.h)
  for (auto &kv : b->op.coefficients) {
    PetscCall(VecDestroy(&kv.second.vec));
    PetscCall(VecDestroy(&kv.second.local));
  }
  b->op.coefficients.clear();
  for (const auto &kv : a->op.coefficients)  // auxiliary fields: B finds them on its DM at setup
    if (!kv.second.auxiliary) PetscCall(MatFEMGPUSetCoefficient(B, kv.first.c_str(), kv.second.vec));
  b->set_up = false;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Called by MATSHELL's MatCopy, which then copies its scalings and shifts: B's record of
// them (mat_femgpu_shell_edits.h) becomes A's.
PetscErrorCode MatCopy_FEMGPU(Mat A, Mat B, MatStructure)
{
  MatFEMGPUContext *a, *b;
  PetscFunctionBegin;
  PetscCall(copy_configuration(A, B));
  PetscCall(MatFEMGPUGetContext(A, &a));
  PetscCall(MatFEMGPUGetContext(B, &b));
  PetscCall(MatFEMGPUCopyShellEdits(a->shell_edits, &b->shell_edits));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The values of a fem_gpu matrix are its form, so every MatDuplicateOption shares the
// form; MAT_COPY_VALUES also copies MATSHELL's shifts and scalings (MatShift, MatScale).
PetscErrorCode MatDuplicate_FEMGPU(Mat A, MatDuplicateOption op, Mat *B)
{
  DM dm;
  const char *prefix;
  VecType vtype;
  PetscFunctionBegin;
  PetscCall(MatCreate(PetscObjectComm((PetscObject)A), B));
  PetscCall(MatSetSizes(*B, A->rmap->n, A->cmap->n, A->rmap->N, A->cmap->N));
  PetscCall(MatSetBlockSizesFromMats(*B, A, A));
  PetscCall(MatSetType(*B, MATFEMGPU));
  PetscCall(MatGetDM(A, &dm));
  if (dm) PetscCall(MatSetDM(*B, dm));
  PetscCall(MatGetOptionsPrefix(A, &prefix));
  PetscCall(MatSetOptionsPrefix(*B, prefix));
  PetscCall(MatGetVecType(A, &vtype));
  PetscCall(MatSetVecType(*B, vtype));
  if (op == MAT_COPY_VALUES) PetscCall(MatCopy(A, *B, SAME_NONZERO_PATTERN));
  else PetscCall(copy_configuration(A, *B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Largest relative asymmetry of the cell matrices of two cells of one operator.
PetscErrorCode operator_asymmetry(MatFEMGPUContext *ctx, const ActionIR &ir, const Tabulation &tab, const PlexMaps &maps, const PetscScalar *coords,
                                  double *asymmetry)
{
  PetscFunctionBegin;
  if (maps.n_cells == 0) PetscFunctionReturn(PETSC_SUCCESS);
  ActionArrays arrays;
  arrays.n_cells = static_cast<int>(maps.n_cells);
  arrays.coordinates = {coords, maps.coordinates->data()};
  arrays.constants = ctx->op.constants;  // coefficients: random values, set by the check
  const int cells[2] = {0, arrays.n_cells / 2};
  for (int cell : cells)
    FEMGPU_CXX(PETSC_COMM_SELF, *asymmetry = std::max(*asymmetry, reference_cell_asymmetry(ir, tab, arrays, cell)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The same over the Mat's operator and its exterior facet parts (a Robin term with a
// normal flux is not symmetric where the cell integrals are).
PetscErrorCode local_asymmetry(MatFEMGPUContext *ctx, double *asymmetry)
{
  Vec coords;
  const PetscScalar *ca;
  PetscFunctionBegin;
  *asymmetry = 0.0;
  PetscCall(DMGetCoordinatesLocal(ctx->op.dm, &coords));
  PetscCall(VecGetArrayRead(coords, &ca));
  PetscCall(operator_asymmetry(ctx, *ctx->op.ir, *ctx->op.tab, ctx->op.maps(), ca, asymmetry));
  for (const FacetPart &p : ctx->op.facets) PetscCall(operator_asymmetry(ctx, *p.ir, *p.tab, p.maps, ca, asymmetry));
  PetscCall(VecRestoreArrayRead(coords, &ca));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode MatFEMGPUDetectSymmetry(Mat A, MatFEMGPUContext *ctx)
{
  PetscFunctionBegin;
  if (ctx->options.symmetric_declared >= 0) {
    ctx->op.symmetric = ctx->options.symmetric_declared == 1;
    ctx->op.asymmetry = -1;
  } else {
    double local;
    PetscCall(local_asymmetry(ctx, &local));
    PetscCallMPI(MPI_Allreduce(&local, &ctx->op.asymmetry, 1, MPI_DOUBLE, MPI_MAX, PetscObjectComm((PetscObject)A)));
    ctx->op.symmetric = ctx->op.asymmetry <= kSymmetryTolerance;
  }
  // A property of the form, not of coefficient values or assembly: it stays.
  PetscCall(MatSetOption(A, MAT_SYMMETRIC, ctx->op.symmetric ? PETSC_TRUE : PETSC_FALSE));
  PetscCall(MatSetOption(A, MAT_SYMMETRY_ETERNAL, PETSC_TRUE));
  if (ctx->op.asymmetry < 0)
    PetscCall(PetscInfo(A, "fem_gpu: form %s is %ssymmetric (declared by -mat_fem_gpu_symmetric, not measured)\n", ctx->op.form_source.c_str(),
                        ctx->op.symmetric ? "" : "not "));
  else
    PetscCall(PetscInfo(A, "fem_gpu: form %s is %ssymmetric (detected, asymmetry %g)\n", ctx->op.form_source.c_str(), ctx->op.symmetric ? "" : "not ",
                        ctx->op.asymmetry));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatFEMGPUSetSolverOperations(Mat A)
{
  PetscFunctionBegin;
  PetscCall(MatShellSetOperation(A, MATOP_GET_DIAGONAL, (void (*)(void))MatGetDiagonal_FEMGPU));
  PetscCall(MatShellSetOperation(A, MATOP_MULT_TRANSPOSE, (void (*)(void))MatMultTranspose_FEMGPU));
  PetscCall(MatShellSetOperation(A, MATOP_MULT_TRANSPOSE_ADD, (void (*)(void))MatMultTransposeAdd_FEMGPU));
  PetscCall(MatShellSetOperation(A, MATOP_IS_SYMMETRIC, (void (*)(void))MatIsSymmetric_FEMGPU));
  PetscCall(MatShellSetOperation(A, MATOP_DUPLICATE, (void (*)(void))MatDuplicate_FEMGPU));
  PetscCall(MatShellSetOperation(A, MATOP_COPY, (void (*)(void))MatCopy_FEMGPU));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
