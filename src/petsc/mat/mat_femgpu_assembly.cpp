// MatConvert of a fem_gpu Mat into an assembled matrix (aij, aijcusparse, or any type
// with its own MatSetPreallocationCOO): the cell matrices of the same lowered form,
// inserted in coordinate format. Rows are test DOFs, columns trial DOFs, both in the DM's
// global numbering; constrained DOFs get the index -1, which MatSetPreallocationCOO
// ignores, so the rows and columns of essential conditions are left out exactly as
// DMPlex assembly leaves them out.
//
// MAT_INITIAL_MATRIX builds the COO pattern from the closure maps (convert_pattern.h):
// each (row, column) once, sorted by row and column, which PETSc's
// MatSetPreallocationCOO takes without sorting every cell entry (issue #25), and the map
// from the cell matrices' entries to those unique ones; MAT_REUSE_MATRIX only computes the
// values again (a new linearization point, each Newton step: the p-multigrid coarse
// level). Either way the cell values are summed into the unique entries (the pattern,
// composed on the output Mat, knows which), then MatSetValuesCOO inserts them. On one
// rank into seqaij or seqaijcusparse the unique entries are the Mat's CSR
// (MatSeqAIJSetPreallocationCSR) and the sums are written into its values array
// (MatSeqAIJGetArrayWrite, or MatSeqAIJCUSPARSEGetArray for device sums): no COO map of
// PETSc's.
// The values come from the backend's cell_matrices() (the CPU reference by default, and
// always where the context says host_assembly: after a device failure). With
// the CUDA backend and an aijcusparse target they never leave the device: the kernel
// writes them into device memory, a device kernel sums them (runtime/entry_sum.h) into
// the CSR values on the device (one rank) or a buffer MatSetValuesCOO reads there
// (PETSC_MEMTYPE_CUDA).
// Coefficients are refreshed first (MatFEMGPURefreshCoefficients), as for MatMult. Then
// the Mat's MatScale, MatShift, MatDiagonalScale ... calls (mat_femgpu_shell_edits.h) are
// replayed on the assembled matrix: it is the operator MatMult applies, not the bare form.
#include <petsc/private/matimpl.h>
#include <petsctime.h>

#include <string>
#include <vector>

#include "femgpu.h"
#include "petsc/base/composed_object.h"
#include "petsc/base/petsc_device.h"
#include "petsc/base/petsc_errors.h"
#include "petsc/mat/convert_pattern.h"
#include "petsc/mat/mat_context.h"
#include "petsc/mat/mat_femgpu.h"
#include "petsc/mat/mat_femgpu_assembly.h"
#include "petsc/mat/mat_femgpu_facets.h"
#include "petsc/mat/mat_femgpu_setup.h"
#include "petsc/mat/mat_femgpu_shell_edits.h"

namespace femgpu {

PetscLogEvent FEMGPU_Assembly;

namespace {

constexpr const char *kPatternKey = "femgpu_convert_pattern";

// MAT_REUSE_MATRIX: B must be a MatConvert result of a fem_gpu Mat on the same DM, cells
// and cell width (the same COO pattern); its pattern, with which the values are summed.
PetscErrorCode reusable_pattern(Mat A, MatFEMGPUContext *ctx, Mat B, ConvertPattern **had)
{
  ConvertPattern now;
  MPI_Comm comm = PetscObjectComm((PetscObject)A);
  PetscFunctionBegin;
  PetscCall(query_owned((PetscObject)B, kPatternKey, had));
  PetscCheck(*had, comm, PETSC_ERR_ARG_WRONG,
             "MatConvert(MAT_REUSE_MATRIX) of a fem_gpu Mat: the target Mat was not made by MatConvert of a fem_gpu Mat (MAT_INITIAL_MATRIX)");
  PetscCall(convert_pattern_source(ctx, &now));
  PetscCheck((*had)->dm == now.dm && (*had)->n_cells == now.n_cells && (*had)->width == now.width, comm, PETSC_ERR_ARG_INCOMP,
             "MatConvert(MAT_REUSE_MATRIX) of a fem_gpu Mat: the target was assembled from another DM or element (%" PetscInt_FMT
             " cells of %" PetscInt_FMT " DOFs; this Mat has %" PetscInt_FMT " of %" PetscInt_FMT ")",
             (*had)->n_cells, (*had)->width, now.n_cells, now.width);
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
  PetscCount kept = 0, unique = 0;  // COO entries of unconstrained rows and columns; distinct ones
  PetscLogDouble pattern_s = 0, preallocation_s = 0, values_s = 0;
  bool device = false;  // the values went to M on the device
  bool csr = false;     // the pattern went in as M's CSR (csr_target), not by MatSetPreallocationCOO
};

// Whether M takes the unique pattern as its CSR: one rank, seqaij or seqaijcusparse. There
// MatSetPreallocationCOO would sort and count the unique entries again and keep (and for
// aijcusparse upload) a map from them to themselves: 0.3-0.5 s of host time at the 18M
// entries of a vector P1 level on 843k tetrahedra.
PetscErrorCode csr_target(Mat M, bool *yes)
{
  PetscMPIInt size;
  PetscBool seq;
  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)M), &size));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)M, &seq, MATSEQAIJ, MATSEQAIJCUSPARSE, ""));
  *yes = size == 1 && seq;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The device sums into M: its CSR values on the device (seqaijcusparse, csr), else by
// MatSetValuesCOO from the pattern's own buffer.
PetscErrorCode insert_device_sums(MPI_Comm comm, MatFEMGPUContext *ctx, Mat M, ConvertPattern *pattern, unsigned long long cells)
{
  unsigned long long unique = 0;
  PetscFunctionBegin;
#if FEMGPU_DEVICE_VECS
  if (pattern->csr) {
    PetscScalar *values;
    // ...GetArray, not ...GetArrayWrite: the latter needs the CSR on the device already,
    // and this one puts it there (the pattern, with zeros, the first time).
    PetscCall(MatSeqAIJCUSPARSEGetArray(M, &values));
    PetscCall(convert_pattern_sum_device(comm, pattern, ctx->device.cuda_ordinal, cells, reinterpret_cast<unsigned long long>(values), &unique));
    PetscCall(MatSeqAIJCUSPARSERestoreArray(M, &values));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#endif
  PetscCall(convert_pattern_sum_device(comm, pattern, ctx->device.cuda_ordinal, cells, 0, &unique));
  PetscCall(MatSetValuesCOO(M, reinterpret_cast<const PetscScalar *>(unique), INSERT_VALUES));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// M's nonzero pattern = the unique entries (sorted by row, then column: CSR order).
PetscErrorCode preallocate_csr(Mat M, const CooPattern &coo)
{
  PetscInt m;
  PetscFunctionBegin;
  PetscCall(MatGetLocalSize(M, &m, nullptr));
  std::vector<PetscInt> row_start(static_cast<size_t>(m) + 1, 0);
  for (PetscCount u = 0; u < coo.n_unique(); ++u) {
    const PetscInt row = coo.rows[static_cast<size_t>(u)];
    PetscCheck(row >= 0 && row < m && (u == 0 || row >= coo.rows[static_cast<size_t>(u) - 1]), PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "MatConvert of a fem_gpu Mat: unique entry %" PetscCount_FMT " has row %" PetscInt_FMT " (of %" PetscInt_FMT ", sorted)", u, row, m);
    ++row_start[static_cast<size_t>(row) + 1];
  }
  for (PetscInt r = 0; r < m; ++r) row_start[static_cast<size_t>(r) + 1] += row_start[static_cast<size_t>(r)];
  PetscCall(MatSeqAIJSetPreallocationCSR(M, row_start.data(), coo.cols.data(), nullptr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MAT_INITIAL_MATRIX: the target with its COO pattern (values not yet set), the pattern
// composed on it for the values and for MAT_REUSE_MATRIX.
PetscErrorCode create_with_pattern(Mat A, MatFEMGPUContext *ctx, MatType type, Mat *M, ConvertPattern **pattern, Record *record)
{
  PetscLogDouble t0, t1, t2;
  PetscFunctionBegin;
  PetscCall(create_target(A, type, M));
  *pattern = new ConvertPattern();
  PetscCall(compose_owned((PetscObject)*M, kPatternKey, *pattern));
  CooPattern &coo = (*pattern)->coo;
  PetscCall(PetscTime(&t0));
  PetscCall(convert_pattern_build(ctx, *pattern));
  PetscCall(PetscTime(&t1));
  PetscCall(csr_target(*M, &(*pattern)->csr));
  if ((*pattern)->csr) PetscCall(preallocate_csr(*M, coo));
  else PetscCall(MatSetPreallocationCOO(*M, coo.n_unique(), coo.rows.data(), coo.cols.data()));
  PetscCall(PetscTime(&t2));
  decltype(coo.rows)().swap(coo.rows);  // PETSc keeps its own copy of the pattern
  decltype(coo.cols)().swap(coo.cols);
  record->kept = static_cast<PetscCount>(coo.perm.size());
  record->unique = coo.n_unique();
  record->csr = (*pattern)->csr;
  record->pattern_s = t1 - t0;
  record->preallocation_s = t2 - t1;
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
  *yes = cusparse && ctx->device.backend->on_device() && ctx->op.facets.empty() && !ctx->host_assembly;  // facet parts: host values
#else
  (void)ctx, (void)M, (void)cusparse;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

// M's values = the cell matrices summed into the pattern's unique entries (on the device
// for device values), then MatSetValuesCOO; *device says where they were.
PetscErrorCode insert_values(Mat A, MatFEMGPUContext *ctx, Mat M, ConvertPattern *pattern, bool *device)
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
  static const PetscScalar none = 0;  // a rank without entries: a valid host pointer
  *device = *device && pattern->coo.n_unique() > 0;
  if (*device) {
    unsigned long long cells = 0;
    FEMGPU_CXX(comm, cells = ctx->device.backend->cell_matrices_device(arrays));
    PetscCall(insert_device_sums(comm, ctx, M, pattern, cells));
  } else {
    std::vector<PetscScalar> cells, unique;
    PetscCall(MatFEMGPUCellMatrices(A, ctx, ca, &cells));
    if (pattern->csr) {
      PetscScalar *values;
      PetscCall(MatSeqAIJGetArrayWrite(M, &values));
      PetscCall(convert_pattern_sum_host(*pattern, cells, values));
      PetscCall(MatSeqAIJRestoreArrayWrite(M, &values));
    } else {
      unique.resize(static_cast<size_t>(pattern->coo.n_unique()));
      PetscCall(convert_pattern_sum_host(*pattern, cells, unique.data()));
      PetscCall(MatSetValuesCOO(M, unique.empty() ? &none : unique.data(), INSERT_VALUES));
    }
  }
  PetscCall(VecRestoreArrayRead(coords, &ca));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// "N nonzeros" of M on this rank, from MatGetInfo() where M's type has it (hypre has not).
PetscErrorCode describe_nonzeros(Mat M, MatType type, std::string *text)
{
  MatInfo info;
  PetscFunctionBegin;
  if (!M->ops->getinfo) {
    *text = std::string("nonzeros not reported (type ") + type + " has no MatGetInfo())";
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatGetInfo(M, MAT_LOCAL, &info));
  *text = std::to_string(static_cast<long long>(info.nz_used)) + " nonzeros on this rank";
  PetscFunctionReturn(PETSC_SUCCESS);
}

// One PetscInfo line: what was assembled, how, and how long it took.
PetscErrorCode report(Mat A, MatFEMGPUContext *ctx, Mat M, MatReuse reuse, const Record &r)
{
  MatType type;
  std::string nonzeros;
  PetscFunctionBegin;
  PetscCall(MatGetType(M, &type));
  const size_t w = static_cast<size_t>(ctx->op.maps().width), entries = static_cast<size_t>(ctx->op.maps().n_cells) * w * w;
  const std::string backend = ctx->host_assembly ? "the CPU reference for the values, not the " + ctx->device.backend->name() : ctx->device.backend->name();
  const char *where = r.device ? "device" : "host";
  if (reuse == MAT_REUSE_MATRIX) {
    PetscCall(PetscInfo(A, "fem_gpu: MatConvert to %s (reuse): values of %zu COO entries on this rank, %g s (%s backend, values on the %s)\n",
                        type, entries, r.values_s, backend.c_str(), where));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(describe_nonzeros(M, type, &nonzeros));
  PetscCall(PetscInfo(A,
                      "fem_gpu: MatConvert to %s: %" PetscInt_FMT " cell matrices of %zu x %zu, %zu COO entries (%" PetscCount_FMT
                      " not constrained) summed into %" PetscCount_FMT " unique ones, %s; COO pattern %g s, "
                      "%s %g s, values %g s (%s backend, values on the %s)\n",
                      type, ctx->op.maps().n_cells, w, w, entries, r.kept, r.unique, nonzeros.c_str(), r.pattern_s,
                      r.csr ? "MatSeqAIJSetPreallocationCSR" : "MatSetPreallocationCOO", r.preallocation_s, r.values_s,
                      backend.c_str(), where));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatConvert_FEMGPU(Mat A, MatType type, MatReuse reuse, Mat *B)
{
  MatFEMGPUContext *ctx;
  Mat M = nullptr;
  ConvertPattern *pattern = nullptr;
  Record record;
  PetscLogDouble t0, t1;
  PetscFunctionBegin;
  PetscCall(MatFEMGPUGetContext(A, &ctx));
  PetscCheck(!ctx->op.residual, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG,
             "MatConvert: this fem_gpu Mat applies a residual (rank-1 form %s), which has no matrix to assemble", ctx->op.form_source.c_str());
  PetscCheck(!ctx->zeroed, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONGSTATE,
             "MatConvert: this fem_gpu Mat was zeroed by MatZeroEntries() and its operator (form %s) not bound again (by a linearization point, "
             "as SNES and TS set at each Jacobian): its assembled matrix would be zero, not the form's",
             ctx->op.form_source.c_str());
  PetscCall(MatFEMGPUSetUp(A));
  PetscCall(PetscLogEventBegin(FEMGPU_Assembly, A, 0, 0, 0));
  if (reuse == MAT_REUSE_MATRIX) {
    PetscCall(reusable_pattern(A, ctx, *B, &pattern));
    M = *B;
  } else PetscCall(create_with_pattern(A, ctx, type, &M, &pattern, &record));
  PetscCall(PetscTime(&t0));
  PetscCall(insert_values(A, ctx, M, pattern, &record.device));
  bool symmetric = ctx->op.symmetric;
  PetscCall(MatFEMGPUReplayShellEdits(A, ctx->shell_edits, M, &symmetric));  // MatScale, MatShift ... as MatMult applies them
  if (symmetric) PetscCall(MatSetOption(M, MAT_SYMMETRIC, PETSC_TRUE));
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
