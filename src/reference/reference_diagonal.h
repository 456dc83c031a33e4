// Cell matrices, the diagonal and a symmetry check, all from the CPU reference action.
//
// Takes: an ActionIR of a bilinear form (rank 2), its Tabulation and the arrays of the
// reference action (reference_action.h); the trial function's element is the test
// function's, so a cell's trial and test DOFs are numbered alike (entry j*C + c).
// Returns: column i of a cell matrix is the action on the cell-local unit vector e_i
// (the same lowered IR that MatMult applies, so no second derivation can disagree);
// the diagonal sums each cell matrix's diagonal entry (j, c) into test_map[j*C + c],
// skipping negative (constrained) entries, as the assembled matrix's diagonal would be.
// Does not: use arrays.trial (cells get unit vectors), or handle a map that repeats a
// DOF within one cell (FE closures never do); cost is width actions per cell, an oracle.
#pragma once

#include <vector>

#include "reference/reference_action.h"

namespace femgpu {

// The width x width matrix of one cell, row-major: entry (i, j) = a(phi_j, phi_i), row i
// the test DOF. Coordinates and coefficients are read through the arrays' maps.
std::vector<double> reference_cell_matrix(const ActionIR &ir, const Tabulation &tab, const ActionArrays &arrays, int cell);

// diag[test_map[...]] += the cell matrices' diagonals, over arrays.n_cells cells.
void reference_diagonal(const ActionIR &ir, const Tabulation &tab, const ActionArrays &arrays, double *diag);

// max |A - A^T| / max |A| of the matrix of `cell`, with every coefficient replaced by
// random values in [0.25, 1.25] (seeded, so reproducible): a form whose symmetry
// depends on its coefficients' values is caught. 0 for a symmetric form up to rounding.
double reference_cell_asymmetry(const ActionIR &ir, const Tabulation &tab, const ActionArrays &arrays, int cell,
                                unsigned seed = 20261121u);

}  // namespace femgpu
