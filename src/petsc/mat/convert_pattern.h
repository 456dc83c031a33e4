// The COO pattern a MatConvert of a fem_gpu Mat gave its assembled Mat, kept with that Mat
// (PetscObjectCompose) for MAT_REUSE_MATRIX: what it was built from, and how the cell
// matrices' entries sum into its unique entries (coo_pattern.h), on the host or, for the
// CUDA backend's device values, on the device.
//
// Takes: the fem_gpu Mat's context (its operator's cells, then each facet part's: the
// order of MatFEMGPUCellMatrices), and the cell matrices' values.
// Returns: the unique (row, column) entries for MatSetPreallocationCOO (or, on one rank,
// an AIJ Mat's CSR), then their values. Errors name the Mat operation and what did not match.
// Does not: create or fill the Mat (mat_femgpu_assembly.cpp).
#pragma once

#include <petscmat.h>

#include <memory>
#include <vector>

#include "petsc/plex/coo_pattern.h"
#include "runtime/entry_sum.h"

namespace femgpu {

struct MatFEMGPUContext;  // mat_context.h

struct ConvertPattern {
  PetscObjectId dm = 0;  // MAT_REUSE_MATRIX: the same DM, cells and cell width
  PetscInt n_cells = 0, width = 0;
  CooPattern coo;  // rows and cols are dropped once PETSc has them
  std::unique_ptr<DeviceEntrySum> device;  // made at the first insert of device values
  // On one rank into seqaij or seqaijcusparse: the Mat's CSR is the unique pattern itself
  // (MatSeqAIJSetPreallocationCSR), and the sums are written into its values array (on
  // the device for seqaijcusparse and device values) in place of MatSetValuesCOO
  // (mat_femgpu_assembly.cpp).
  bool csr = false;
};

PetscErrorCode convert_pattern_build(MatFEMGPUContext *ctx, ConvertPattern *pattern);

// The fem_gpu Mat's DM, cell count and width: what MAT_REUSE_MATRIX compares.
PetscErrorCode convert_pattern_source(MatFEMGPUContext *ctx, ConvertPattern *pattern);

// unique (n_unique values) = the sums of the host cell matrices (pattern.coo.n_entries values).
PetscErrorCode convert_pattern_sum_host(const ConvertPattern &pattern, const std::vector<PetscScalar> &cells, PetscScalar *unique);

// *unique = the device pointer of the sums of the device cell matrices (the CUDA backend's
// cell_matrices_device), on CUDA device `ordinal`: `into` where it is not 0 (a device array
// of the n_unique values, e.g. a seqaijcusparse Mat's CSR values), else a buffer of the
// pattern's own.
PetscErrorCode convert_pattern_sum_device(MPI_Comm comm, ConvertPattern *pattern, int ordinal, unsigned long long cells, unsigned long long into,
                                          unsigned long long *unique);

}  // namespace femgpu
