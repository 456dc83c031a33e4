// MatConvert of a fem_gpu Mat into an assembled matrix (aij, aijcusparse, or any type
// with MatSetPreallocationCOO): the cell matrices of the same lowered form, inserted in
// coordinate format. Rows are test DOFs, columns trial DOFs, both in the DM's global
// numbering; constrained DOFs get the index -1, which MatSetPreallocationCOO ignores, so
// the rows and columns of essential conditions are left out exactly as DMPlex assembly
// leaves them out. The pattern is set once (MAT_INITIAL_MATRIX); MAT_REUSE_MATRIX only
// computes the values again (a new linearization point, each Newton step).
// The cell matrices come from the backend's cell_matrices() (by default the CPU
// reference on unit vectors, reference_diagonal.h).
#include <petsc/private/matimpl.h>
#include <petsctime.h>

#include <string>
#include <vector>

#include "femgpu.h"
#include "petsc/mat_femgpu_impl.h"
#include "petsc/petsc_errors.h"

namespace femgpu {

PetscLogEvent FEMGPU_Assembly;

namespace {

// The COO rows and columns: cell by cell, row-major within the cell.
PetscErrorCode coo_indices(MatFEMGPUContext *ctx, std::vector<PetscInt> *rows, std::vector<PetscInt> *cols)
{
  ISLocalToGlobalMapping ltog;
  const PetscInt width = ctx->maps.width;
  std::vector<PetscInt> global(ctx->maps.free.size());
  PetscFunctionBegin;
  PetscCall(DMGetLocalToGlobalMapping(ctx->dm, &ltog));
  for (size_t i = 0; i < global.size(); ++i) global[i] = ctx->maps.free[i] < 0 ? 0 : ctx->maps.free[i];
  if (!global.empty()) PetscCall(ISLocalToGlobalMappingApply(ltog, static_cast<PetscInt>(global.size()), global.data(), global.data()));
  for (size_t i = 0; i < global.size(); ++i)
    if (ctx->maps.free[i] < 0) global[i] = -1;  // constrained: left out
  const size_t n = static_cast<size_t>(ctx->maps.n_cells * width * width);
  rows->resize(n);
  cols->resize(n);
  for (PetscInt c = 0; c < ctx->maps.n_cells; ++c) {
    const PetscInt *g = global.data() + c * width;
    PetscInt *r = rows->data() + c * width * width, *k = cols->data() + c * width * width;
    for (PetscInt i = 0; i < width; ++i)
      for (PetscInt j = 0; j < width; ++j) r[i * width + j] = g[i], k[i * width + j] = g[j];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode cell_matrices(Mat A, MatFEMGPUContext *ctx, std::vector<PetscScalar> *values)
{
  Vec coords;
  const PetscScalar *ca;
  ActionArrays arrays;
  PetscFunctionBegin;
  PetscCall(MatFEMGPURefreshCoefficients(ctx));
  PetscCall(DMGetCoordinatesLocal(ctx->dm, &coords));
  PetscCall(VecGetArrayRead(coords, &ca));
  PetscCall(MatFEMGPUFillArrays(ctx, nullptr, ca, true, &arrays));
  values->resize(static_cast<size_t>(ctx->maps.n_cells * ctx->maps.width * ctx->maps.width));
  FEMGPU_CXX(PetscObjectComm((PetscObject)A), ctx->backend->cell_matrices(arrays, values->data()));
  PetscCall(VecRestoreArrayRead(coords, &ca));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatConvert_FEMGPU(Mat A, MatType type, MatReuse reuse, Mat *B)
{
  MatFEMGPUContext *ctx;
  MPI_Comm comm = PetscObjectComm((PetscObject)A);
  std::vector<PetscScalar> values;
  Mat M;
  PetscFunctionBegin;
  PetscCall(MatFEMGPUSetUp(A));
  PetscCall(MatFEMGPUGetContext(A, &ctx));
  PetscCheck(!ctx->residual, comm, PETSC_ERR_ARG_WRONG, "MatConvert: this fem_gpu Mat applies a residual (rank-1 form), which has no matrix to assemble");
  PetscCall(PetscLogEventBegin(FEMGPU_Assembly, A, 0, 0, 0));
  PetscLogDouble t0, t1;
  PetscCall(PetscTime(&t0));
  if (reuse == MAT_REUSE_MATRIX) M = *B;
  else {
    std::vector<PetscInt> rows, cols;
    PetscCall(coo_indices(ctx, &rows, &cols));
    PetscCall(MatCreate(comm, &M));
    PetscCall(MatSetSizes(M, A->rmap->n, A->cmap->n, A->rmap->N, A->cmap->N));
    PetscCall(MatSetType(M, type));
    PetscCall(MatSetPreallocationCOO(M, static_cast<PetscCount>(rows.size()), rows.data(), cols.data()));
  }
  PetscCall(cell_matrices(A, ctx, &values));
  PetscCall(MatSetValuesCOO(M, values.data(), INSERT_VALUES));
  if (ctx->symmetric) PetscCall(MatSetOption(M, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(PetscTime(&t1));
  PetscCall(PetscLogEventEnd(FEMGPU_Assembly, A, 0, 0, 0));
  PetscCall(PetscInfo(A, "fem_gpu: assembled %s from %" PetscInt_FMT " cell matrices of %" PetscInt_FMT " x %" PetscInt_FMT " in %g s (%s)\n", type,
                      ctx->maps.n_cells, ctx->maps.width, ctx->maps.width, t1 - t0, ctx->backend->name().c_str()));
  if (reuse == MAT_INPLACE_MATRIX) PetscCall(MatHeaderReplace(A, &M));
  else *B = M;
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode MatFEMGPUSetAssemblyOperations(Mat A)
{
  PetscFunctionBegin;
  PetscCall(MatShellSetOperation(A, MATOP_CONVERT, (void (*)(void))MatConvert_FEMGPU));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
