// The matrix of an operator assembled from its cell matrices on a lattice mesh, as CSR:
// the SpMV baseline's matrix (bench_spmv.h).
//
// Takes: a LatticeMesh (no constrained DOFs) and every cell's matrix, row-major, cell after
// cell (ActionBackend::cell_matrices' order). Returns: row offsets (n_dofs + 1), sorted
// column indices and the summed values. Rows are built independently (OpenMP where the
// caller links it): a row's columns are the DOFs of the cells that hold it.
// Throws: when the matrix has 2^31 nonzeros or more (its offsets are int).
// Does not: drop explicit zeros, or know PETSc (the caller converts the index type).
#pragma once

#include <vector>

#include "fem/lattice_mesh.h"

namespace femgpu {

struct Csr {
  std::vector<int> rows, columns;
  std::vector<double> values;
};

Csr lattice_csr(const LatticeMesh &mesh, const std::vector<double> &cell_matrices);

}  // namespace femgpu
