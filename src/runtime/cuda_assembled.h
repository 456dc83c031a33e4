// The assembled operator on the device (Strategy::Assembled, schedule.h): the form's
// cell matrices (the cell-matrix kernel, FP64) summed into a sliced ELLPACK matrix
// (fem/sliced_pattern.h) that the assembled kernel (kernel/sliced_spmv.h) applies.
//
// Takes: the IR and tables, the host arrays of the action (maps, coordinates, constants;
// the ActionBackend contract: the same maps and coordinates on every call), the output's
// length (the rows; the trial vector has the same length) and the device's architecture;
// the device's context must be current.
// Returns: multiply_add(spmv, x, y): y += A x on device pointers. reassemble() recomputes
// the values for new constants on the same pattern. The values are summed by MatConvert's
// COO entry sum (entry_sum.h) over the pattern's jmap/perm.
// Throws: std::runtime_error when the matrix and its summation map do not fit in the
// device's free memory (saying how much they need), so that tuning goes on without it.
// Does not: decide whether to assemble (the tuner times it) or compile the SpMV (the
// CudaKernel of the assembled schedule holds it).
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "fem/action_arrays.h"
#include "fem/action_tables.h"
#include "ir/action_ir.h"
#include "runtime/cuda_driver.h"

namespace femgpu {

class CudaDiagonalKernel;
class DeviceEntrySum;

class CudaAssembledMatrix {
 public:
  CudaAssembledMatrix(const ActionIR &ir, const Tabulation &tab, const ActionArrays &arrays, std::size_t n_rows, const std::string &arch);
  ~CudaAssembledMatrix();
  // Whether it was built for these maps, coordinates and rows (not the constants).
  bool built_for(const ActionArrays &arrays, std::size_t n_rows) const;
  bool holds_constants(const std::vector<double> &constants) const { return constants == constants_; }
  void reassemble(const ActionArrays &arrays);
  void multiply_add(const cuda::Module &spmv, unsigned long long x, unsigned long long y) const;

  long long nonzeros() const { return nonzeros_; }
  std::size_t stored() const { return stored_; }
  std::size_t device_bytes() const;
  double setup_seconds() const { return setup_seconds_; }  // pattern, first cell matrices and sum

 private:
  void assemble(const ActionArrays &arrays);
  const ActionIR &ir_;
  const Tabulation &tab_;
  std::string arch_;
  int n_cells_ = 0;
  std::size_t n_rows_ = 0, stored_ = 0, perm_entries_ = 0;
  long long nonzeros_ = 0;
  const int *test_map_ = nullptr, *trial_map_ = nullptr, *coordinate_map_ = nullptr;
  const double *coordinates_ = nullptr;
  std::vector<double> constants_;
  double setup_seconds_ = 0;
  cuda::Buffer slice_start_, columns_;
  std::unique_ptr<CudaDiagonalKernel> matrix_kernel_;
  std::unique_ptr<DeviceEntrySum> sum_;  // MatConvert's COO entry sum: the values are its sums
  unsigned long long values_ = 0;        // sum_'s buffer
};

}  // namespace femgpu
