// The arrays of a transfer between two Lagrange spaces on the same cells (p-multigrid
// levels, a coefficient moved to a lower degree): the contract shared by the transfer
// kernel (kernel/build_transfer.h), its CPU reference (reference/reference_transfer.h)
// and the transfer backends (runtime/transfer_backend.h).
//
// Takes and returns: plain values and pointers the caller owns.
// Does not: build tables (src/petsc/pmg/pmg_transfer.cpp does) or apply anything.
#pragma once

#include <vector>

namespace femgpu {

struct TransferShape {
  int row_basis = 0, col_basis = 0;  // scalar basis functions per cell
  int components = 1;
};

// Forward: column space -> row space (out = T in); Transpose: row -> column (T^T).
enum class TransferDirection { Forward, Transpose };

struct TransferArrays {
  TransferShape shape;
  std::vector<double> table;  // row_basis x col_basis, row-major
  int n_cells = 0;
  const int *row_map = nullptr, *col_map = nullptr;  // n_cells x (basis * components)
  const double *row_weight = nullptr;                // indexed like the row vector
};

}  // namespace femgpu
