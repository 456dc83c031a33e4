// The CPU reference of the transfer kernels (kernel/build_transfer.h): the same
// contract, plain loops, FP64.
//
// Takes: the table, the maps and row weights of n_cells cells (TransferArrays,
// fem/transfer_arrays.h), an input and an output array. Returns: out += the forward or transposed transfer.
// Does not: know PETSc, levels or devices.
#pragma once

#include "fem/transfer_arrays.h"

namespace femgpu {

void reference_transfer(const TransferArrays &a, TransferDirection direction, const double *in, double *out);

}  // namespace femgpu
