// The COO pattern MatConvert hands PETSc: every (row, column) of the cells' matrices once,
// sorted by global row and then global column, and the map from those unique entries
// back to the cell-matrix entries that sum into them.
//
// Why: given the raw cell entries (n_cells x width^2, each (row, column) repeated once per
// cell that shares it), MatSetPreallocationCOO sorts all of them by row (a quicksort over
// every entry: SeqAIJ when they are not sorted by row, MPIAIJ always) and then each row
// by column; that host sort was most of MatConvert (issue #25). Unique, sorted entries
// take PETSc's linear paths (SeqAIJ: "strictly sorted" rows), and the sum over the
// repeats, which MatSetValuesCOO did, is done here before it (coo_pattern_sum, or the
// CUDA entry sum on device values).
//
// Takes: blocks of closure maps (n_cells x width local-vector indices, -1 for a DOF left
// out: constrained), appended in the order their cell matrices are (the operator's cells,
// then each facet part), and the global index of every local-vector index.
// Returns: the unique entries (rows, cols), and jmap/perm in PETSc's own COO layout: the
// entries of unique u are perm[jmap[u] .. jmap[u+1]), indices into the appended cell
// matrices (row-major within a cell), ascending, so the sum's order is fixed; perm is 32-bit
// (half the bytes to write and upload: 12M entries at a P1 level of 843k tetrahedra), so
// the cell matrices may have at most 2^31 - 1 entries on a process (an error beyond; the
// CUDA cell-matrix kernel has the same bound).
// Cost: O(entries) plus a sort of each row's unique columns and of the rows; no sort of
// all entries.
// Does not: call PETSc's Mat functions (mat_femgpu_assembly.cpp does).
#pragma once

#include <petscsys.h>

#include "petsc/base/petsc_compat.h"  // PETSC_SUCCESS on PETSc 3.18

#include <vector>

#include "petsc/plex/index_array.h"

namespace femgpu {

struct CooBlock {
  const int *local = nullptr;  // n_cells x width local-vector indices, -1: left out
  PetscInt n_cells = 0, width = 0;
};

struct CooPattern {
  DefaultInitVector<PetscInt> rows, cols;  // unique (global row, global column), sorted
  DefaultInitVector<PetscCount> jmap;      // n_unique + 1
  IndexArray perm;                   // the kept cell-matrix entries, grouped by unique entry
  PetscCount n_entries = 0;          // all cell-matrix entries (the values' length)

  PetscCount n_unique() const { return static_cast<PetscCount>(jmap.size()) - 1; }
};

// global_of_local: n_local entries (the DM's local-to-global map applied to 0..n_local-1).
PetscErrorCode coo_pattern_build(const std::vector<CooBlock> &blocks, PetscInt n_local, const PetscInt *global_of_local, CooPattern *pattern);

// unique[u] = sum of cell_values[perm[k]] over k in [jmap[u], jmap[u+1]).
void coo_pattern_sum(const CooPattern &pattern, const PetscScalar *cell_values, PetscScalar *unique);

}  // namespace femgpu
