// MatConvert of a fem_gpu Mat into an assembled matrix (aij, aijcusparse, or any type
// with its own MatSetPreallocationCOO): the cell matrices of the same lowered form,
// inserted in coordinate format. Rows are test DOFs, columns trial DOFs, both in the DM's
// global numbering; constrained DOFs get the index -1, which MatSetPreallocationCOO
// ignores, so the rows and columns of essential conditions are left out exactly as
// DMPlex assembly leaves them out.
//
// MAT_INITIAL_MATRIX builds the pattern (one pass over the closure maps, no PETSc call
// per cell) and hands it to MatSetPreallocationCOO, then inserts the values;
// MAT_REUSE_MATRIX only computes the values again and calls MatSetValuesCOO (a new
// linearization point, each Newton step: the p-multigrid coarse level). The output Mat
// keeps the pattern (PETSc's COO maps), so the index arrays are not kept here: they are
// 2 x n_cells x width^2 integers, the size of the values.
// The values come from the backend's cell_matrices() (the CPU reference by default). With
// the CUDA backend and an aijcusparse target they never leave the device: the kernel
// writes them into device memory that MatSetValuesCOO reads (PETSC_MEMTYPE_CUDA).
// Coefficients are refreshed first (MatFEMGPURefreshCoefficients), as for MatMult.
#include <petsc/private/matimpl.h>
#include <petsctime.h>

#include <string>
#include <vector>

#include "femgpu.h"
#include "petsc/composed_object.h"
#include "petsc/mat_femgpu_impl.h"
#include "petsc/petsc_errors.h"

namespace femgpu {

PetscLogEvent FEMGPU_Assembly;

namespace {

constexpr const char *kPatternKey = "femgpu_convert_pattern";

// What an assembled Mat's COO pattern was built from: MAT_REUSE_MATRIX checks it, since
// MatSetValuesCOO on any other pattern would put the values in the wrong places.
struct Pattern {
  PetscObjectId dm = 0;
  PetscInt n_cells = 0, width = 0;
};

PetscErrorCode pattern_of(MatFEMGPUContext *ctx, Pattern *p)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectGetId((PetscObject)ctx->op.dm, &p->dm));
  p->n_cells = ctx->op.maps().n_cells;
  p->width = ctx->op.maps().width;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode compose_pattern(Mat M, const Pattern &p)
{
  PetscFunctionBegin;
  PetscCall(compose_owned((PetscObject)M, kPatternKey, new Pattern(p)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MAT_REUSE_MATRIX: B must be a MatConvert result of a fem_gpu Mat on the same DM, cells
// and cell width (the same COO pattern).
PetscErrorCode check_reusable(Mat A, MatFEMGPUContext *ctx, Mat B)
{
  Pattern *had, now;
  MPI_Comm comm = PetscObjectComm((PetscObject)A);
  PetscFunctionBegin;
  PetscCall(query_owned((PetscObject)B, kPatternKey, &had));
  PetscCheck(had, comm, PETSC_ERR_ARG_WRONG,
             "MatConvert(MAT_REUSE_MATRIX) of a fem_gpu Mat: the target Mat was not made by MatConvert of a fem_gpu Mat (MAT_INITIAL_MATRIX)");
  PetscCall(pattern_of(ctx, &now));
  PetscCheck(had->dm == now.dm && had->n_cells == now.n_cells && had->width == now.width, comm, PETSC_ERR_ARG_INCOMP,
             "MatConvert(MAT_REUSE_MATRIX) of a fem_gpu Mat: the target was assembled from another DM or element (%" PetscInt_FMT
             " cells of %" PetscInt_FMT " DOFs; this Mat has %" PetscInt_FMT " of %" PetscInt_FMT ")",
             had->n_cells, had->width, now.n_cells, now.width);
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The COO rows and columns of one operator's cells, appended: cell by cell, row-major
// within the cell (cell_matrices()'s order). One ISLocalToGlobalMappingApply for all
// closure entries, then plain loops.
PetscErrorCode append_coo_indices(DM dm, const PlexMaps &maps, std::vector<PetscInt> *rows, std::vector<PetscInt> *cols)
{
  ISLocalToGlobalMapping ltog;
  const size_t width = static_cast<size_t>(maps.width), cells = static_cast<size_t>(maps.n_cells);
  std::vector<PetscInt> global(cells * width);
  PetscFunctionBegin;
  for (size_t i = 0; i < global.size(); ++i) global[i] = maps.free[i] < 0 ? 0 : maps.free[i];
  PetscCall(DMGetLocalToGlobalMapping(dm, &ltog));
  if (!global.empty()) PetscCall(ISLocalToGlobalMappingApply(ltog, static_cast<PetscInt>(global.size()), global.data(), global.data()));
  for (size_t i = 0; i < global.size(); ++i)
    if (maps.free[i] < 0) global[i] = -1;  // constrained: left out
  const size_t start = rows->size();
  rows->resize(start + cells * width * width);
  cols->resize(start + cells * width * width);
  for (size_t c = 0; c < cells; ++c) {
    const PetscInt *g = global.data() + c * width;
    PetscInt *r = rows->data() + start + c * width * width, *k = cols->data() + start + c * width * width;
    for (size_t i = 0; i < width; ++i)
      for (size_t j = 0; j < width; ++j) r[i * width + j] = g[i], k[i * width + j] = g[j];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The Mat's operator's cells, then each exterior facet part's (mat_femgpu_facets.cpp).
PetscErrorCode coo_indices(MatFEMGPUContext *ctx, std::vector<PetscInt> *rows, std::vector<PetscInt> *cols)
{
  PetscFunctionBegin;
  rows->clear();
  cols->clear();
  PetscCall(append_coo_indices(ctx->op.dm, ctx->op.maps(), rows, cols));
  for (const FacetPart &p : ctx->op.facets) PetscCall(append_coo_indices(ctx->op.dm, p.maps, rows, cols));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A Mat of `type` with A's sizes, block sizes and communicator, or an error naming the
// type when it has no COO insertion of its own. (MatConvert itself refuses a type this
// PETSc does not know, e.g. aijcusparse without CUDA, before calling us.)
PetscErrorCode create_target(Mat A, MatType type, Mat *M)
{
  PetscErrorCode (*coo)(Mat, PetscCount, PetscInt[], PetscInt[]) = nullptr;
  MPI_Comm comm = PetscObjectComm((PetscObject)A);
  PetscFunctionBegin;
  PetscCall(MatCreate(comm, M));
  PetscCall(MatSetSizes(*M, A->rmap->n, A->cmap->n, A->rmap->N, A->cmap->N));
  PetscCall(MatSetBlockSizesFromMats(*M, A, A));
  PetscCall(MatSetType(*M, type));
  PetscCall(PetscObjectQueryFunction((PetscObject)*M, "MatSetPreallocationCOO_C", &coo));
  if (!coo) {
    MatType got;
    PetscCall(MatGetType(*M, &got));
    const std::string name = got;  // the Mat's copy goes with it
    PetscCall(MatDestroy(M));
    SETERRQ(comm, PETSC_ERR_SUP,
            "MatConvert of a fem_gpu Mat to '%s' (%s): that type has no MatSetPreallocationCOO() of its own, which the assembly inserts "
            "with; use aij, aijcusparse or another type with COO assembly",
            type, name.c_str());
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// What one conversion did, for its PetscInfo line.
struct Record {
  PetscCount kept = 0;  // COO entries of unconstrained rows and columns (MAT_INITIAL_MATRIX)
  PetscLogDouble indices_s = 0, preallocation_s = 0, values_s = 0;
  bool device = false;  // the values went to M on the device
};

// MAT_INITIAL_MATRIX: the target with its COO pattern (values not yet set).
PetscErrorCode create_with_pattern(Mat A, MatFEMGPUContext *ctx, MatType type, Mat *M, Record *record)
{
  std::vector<PetscInt> rows, cols;
  Pattern p;
  PetscLogDouble t0, t1, t2;
  PetscFunctionBegin;
  PetscCall(create_target(A, type, M));
  PetscCall(PetscTime(&t0));
  PetscCall(coo_indices(ctx, &rows, &cols));
  for (size_t i = 0; i < rows.size(); ++i) record->kept += rows[i] >= 0 && cols[i] >= 0;
  PetscCall(PetscTime(&t1));
  PetscCall(MatSetPreallocationCOO(*M, static_cast<PetscCount>(rows.size()), rows.data(), cols.data()));
  PetscCall(PetscTime(&t2));
  record->indices_s = t1 - t0;
  record->preallocation_s = t2 - t1;
  PetscCall(pattern_of(ctx, &p));
  PetscCall(compose_pattern(*M, p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// True when the values can go from the CUDA backend straight to M on the device.
PetscErrorCode values_on_device(MatFEMGPUContext *ctx, Mat M, bool *yes)
{
  PetscBool cusparse = PETSC_FALSE;
  PetscFunctionBegin;
  *yes = false;
#ifdef FEMGPU_HAVE_CUDA
  PetscCall(PetscObjectTypeCompareAny((PetscObject)M, &cusparse, MATSEQAIJCUSPARSE, MATMPIAIJCUSPARSE, ""));
  *yes = cusparse && ctx->device.backend->on_device() && ctx->op.facets.empty();  // facet parts: host values
#else
  (void)ctx, (void)M, (void)cusparse;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

// M's values = the cell matrices, summed by MatSetValuesCOO; *device says where they were.
PetscErrorCode insert_values(Mat A, MatFEMGPUContext *ctx, Mat M, bool *device)
{
  Vec coords;
  const PetscScalar *ca;
  ActionArrays arrays;
  MPI_Comm comm = PetscObjectComm((PetscObject)A);
  PetscFunctionBegin;
  PetscCall(MatFEMGPURefreshCoefficients(ctx));
  PetscCall(DMGetCoordinatesLocal(ctx->op.dm, &coords));
  PetscCall(VecGetArrayRead(coords, &ca));
  PetscCall(values_on_device(ctx, M, device));
  PetscCall(MatFEMGPUFillArrays(ctx, nullptr, ca, true, &arrays));
  static const PetscScalar none = 0;  // a rank without cells: no entries, a valid host pointer
  if (*device) {
    unsigned long long values = 0;
    FEMGPU_CXX(comm, values = ctx->device.backend->cell_matrices_device(arrays));
    PetscCall(MatSetValuesCOO(M, values ? reinterpret_cast<const PetscScalar *>(values) : &none, INSERT_VALUES));
  } else {
    std::vector<PetscScalar> values;
    PetscCall(MatFEMGPUCellMatrices(A, ctx, ca, &values));
    PetscCall(MatSetValuesCOO(M, values.empty() ? &none : values.data(), INSERT_VALUES));
  }
  PetscCall(VecRestoreArrayRead(coords, &ca));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// One PetscInfo line: what was assembled, how, and how long it took.
PetscErrorCode report(Mat A, MatFEMGPUContext *ctx, Mat M, MatReuse reuse, const Record &r)
{
  MatType type;
  MatInfo info;
  PetscFunctionBegin;
  PetscCall(MatGetType(M, &type));
  const size_t w = static_cast<size_t>(ctx->op.maps().width), entries = static_cast<size_t>(ctx->op.maps().n_cells) * w * w;
  const std::string backend = ctx->device.backend->name();
  const char *where = r.device ? "device" : "host";
  if (reuse == MAT_REUSE_MATRIX) {
    PetscCall(PetscInfo(A, "fem_gpu: MatConvert to %s (reuse): values of %zu COO entries on this rank, %g s (%s backend, values on the %s)\n",
                        type, entries, r.values_s, backend.c_str(), where));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatGetInfo(M, MAT_LOCAL, &info));
  PetscCall(PetscInfo(A,
                      "fem_gpu: MatConvert to %s: %" PetscInt_FMT " cell matrices of %zu x %zu, %zu COO entries (%" PetscCount_FMT
                      " not constrained), %.0f nonzeros on this rank; COO indices %g s, MatSetPreallocationCOO %g s, values %g s (%s backend, "
                      "values on the %s)\n",
                      type, ctx->op.maps().n_cells, w, w, entries, r.kept, (double)info.nz_used, r.indices_s, r.preallocation_s, r.values_s,
                      backend.c_str(), where));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatConvert_FEMGPU(Mat A, MatType type, MatReuse reuse, Mat *B)
{
  MatFEMGPUContext *ctx;
  Mat M = nullptr;
  Record record;
  PetscLogDouble t0, t1;
  PetscFunctionBegin;
  PetscCall(MatFEMGPUGetContext(A, &ctx));
  PetscCheck(!ctx->op.residual, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG,
             "MatConvert: this fem_gpu Mat applies a residual (rank-1 form %s), which has no matrix to assemble", ctx->op.form_source.c_str());
  PetscCall(MatFEMGPUSetUp(A));
  PetscCall(PetscLogEventBegin(FEMGPU_Assembly, A, 0, 0, 0));
  if (reuse == MAT_REUSE_MATRIX) {
    PetscCall(check_reusable(A, ctx, *B));
    M = *B;
  } else PetscCall(create_with_pattern(A, ctx, type, &M, &record));
  PetscCall(PetscTime(&t0));
  PetscCall(insert_values(A, ctx, M, &record.device));
  if (ctx->op.symmetric) PetscCall(MatSetOption(M, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(PetscTime(&t1));
  record.values_s = t1 - t0;
  PetscCall(PetscLogEventEnd(FEMGPU_Assembly, A, 0, 0, 0));
  PetscCall(report(A, ctx, M, reuse, record));
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
