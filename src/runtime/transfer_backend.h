// Where a p-multigrid transfer runs: the CPU reference, OpenCL or CUDA, as the level
// operators do.
//
// Takes (at construction): the cells' transfer table, maps (shared, not copied) and row
// weights, which it keeps (device backends upload them once), and the lengths of the row and column
// vectors. Returns: apply(), out += the forward (column -> row) or transposed transfer on
// host arrays; the CUDA backend also takes device pointers (apply_device).
// Does not: know PETSc (src/petsc/pmg/pmg_transfer.cpp owns Vecs and ghost exchanges).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "fem/device_copies.h"
#include "fem/transfer_arrays.h"

namespace femgpu {

// Indices a transfer reads, held with their owner (the closure maps they belong to)
// instead of copied: a fine P2 level's map is 34 MB at 843k cells, and the copy (its
// pages' first touch on one thread) cost a large part of building the transfer.
struct SharedIndices {
  std::shared_ptr<const void> owner;  // keeps data alive
  const int *data = nullptr;
  std::size_t size = 0;
  std::shared_ptr<DeviceCopies> device_copies;  // the owner's, where it shares device copies (device_copies.h)
  static SharedIndices copy_of(std::vector<int> v)  // indices of its own
  {
    auto kept = std::make_shared<const std::vector<int>>(std::move(v));
    return {kept, kept->data(), kept->size(), nullptr};
  }
};

struct TransferData {
  TransferShape shape;
  std::vector<double> table;  // row_basis x col_basis
  int n_cells = 0;
  SharedIndices row_map, col_map;  // n_cells x (basis * components)
  std::vector<double> row_weight;     // n_rows entries
  std::size_t n_rows = 0, n_cols = 0;  // lengths of the row and column vectors

  TransferArrays arrays() const;  // pointers into this object
};

class TransferBackend {
 public:
  virtual ~TransferBackend() = default;
  virtual std::string name() const = 0;
  // Forward: out (n_rows) += T in (n_cols); Transpose: out (n_cols) += T^T in (n_rows).
  virtual void apply(TransferDirection direction, const double *in, double *out) = 0;
  // The same on device arrays (FP64); only device backends have it.
  virtual bool on_device() const { return false; }
  virtual void apply_device(TransferDirection, unsigned long long /*in*/, unsigned long long /*out*/);

 protected:
  explicit TransferBackend(TransferData data) : data_(std::move(data)) {}
  const TransferData data_;
};

// backend: "cpu", "opencl" or "cuda" (cuda_device: the ordinal). Throws
// std::invalid_argument for an unknown name or a backend this build lacks.
std::unique_ptr<TransferBackend> make_transfer_backend(const std::string &backend, TransferData data, int cuda_device);

}  // namespace femgpu
