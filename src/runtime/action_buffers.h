// The host side of kernel_abi.h: every kernel argument as bytes in the kernel's
// precision, in signature order, ready for any runtime to upload.
//
// Takes: a Kernel (precision), the IR and tables, the reference's ActionArrays and the
// output (n_out entries). Returns: HostArgument per kernel parameter; array lengths come
// from the largest map entry, since ActionArrays carries pointers without sizes.
// Does not: touch a device.
#pragma once

#include <vector>

#include "fem/action_arrays.h"
#include "fem/action_tables.h"
#include "ir/action_ir.h"
#include "kernel/kernel_abi.h"
#include "kernel/kernel_ast.h"

namespace femgpu {

struct HostArgument {
  ArgKind kind = ArgKind::CellCount;
  int scalar = 0;                   // CellCount: the value
  std::vector<unsigned char> bytes;  // arrays: never empty
};

std::vector<HostArgument> host_arguments(const kernel::Kernel &k, const ActionIR &ir, const Tabulation &tab,
                                         const ActionArrays &arrays, const double *out, size_t n_out);
// The same for another argument list of kernel_abi.h (diagonal_arguments).
std::vector<HostArgument> host_arguments(const std::vector<KernelArg> &arguments, const kernel::Kernel &k, const ActionIR &ir,
                                         const Tabulation &tab, const ActionArrays &arrays, const double *out, size_t n_out);

// The output array read back from the device in the kernel's precision, as doubles.
void copy_out(const std::vector<unsigned char> &device_bytes, Precision p, double *out, size_t n_out);

size_t group_count(const kernel::Kernel &k, int n_cells);  // at least 1

}  // namespace femgpu
