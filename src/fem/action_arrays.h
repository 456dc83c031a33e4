// The mesh and function arrays one action reads: the contract shared by the CPU
// reference (src/reference) and every backend (src/runtime), so that the runtime's
// interface does not depend on the oracle that checks it.
//
// Takes and returns: pointers the caller owns (src/petsc fills them from the DM).
// Does not: own or check the arrays; the action's IR says how many there are.
#pragma once

#include <memory>
#include <vector>

#include "fem/device_copies.h"

namespace femgpu {

// A function's global values and its cell-to-DOF map: n_cells x (n_basis * components),
// entry j*C + c for basis function j, component c. Negative entries are constrained or
// absent DOFs: they read as zero and receive nothing.
struct FunctionArrays {
  const double *values = nullptr;
  const int *map = nullptr;
};

struct ActionArrays {
  int n_cells = 0;
  FunctionArrays coordinates;                 // map: one entry per node (P1 or P2), the offset of its dim contiguous values
  FunctionArrays trial;                       // used when rank == 2
  std::vector<FunctionArrays> coefficients;   // one per ActionIR::coefficients
  const int *test_map = nullptr;              // where each cell's output goes
  std::vector<double> constants;              // one per ActionIR::constants
  // The device copies of the maps above that their owner shares among backends (null:
  // each backend uploads its own): device_copies.h.
  std::shared_ptr<DeviceCopies> device_copies;
};

}  // namespace femgpu
