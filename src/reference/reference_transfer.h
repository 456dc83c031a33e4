// The CPU reference of the transfer kernels (kernel/build_transfer.h): the same
// contract, plain loops, FP64.
//
// Takes: the table, the maps and row weights of n_cells cells (TransferArrays), an input
// and an output array. Returns: out += the forward or transposed transfer.
// Does not: know PETSc, levels or devices.
#pragma once

#include <vector>

#include "kernel/build_transfer.h"

namespace femgpu {

struct TransferArrays {
  kernel::TransferShape shape;
  std::vector<double> table;  // row_basis x col_basis, row-major
  int n_cells = 0;
  const int *row_map = nullptr, *col_map = nullptr;  // n_cells x (basis * components)
  const double *row_weight = nullptr;                // indexed like the row vector
};

void reference_transfer(const TransferArrays &a, kernel::TransferDirection direction, const double *in, double *out);

}  // namespace femgpu
