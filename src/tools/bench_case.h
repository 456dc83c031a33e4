// One benchmark case of femgpu-bench and its studies: a shipped operator lowered for a
// dimension and degree (CPU only), and its operands on the paper's lattice mesh on the
// device (random FP64 trial values, coefficients 0.1 times random).
//
// Takes: operator name (share/femgpu/forms/<op>.ufl), dimension, degree; then the
// mesh's intervals per side.
// Returns: the IR and tables (lower_case), the mesh and device-resident operands
// (upload_operands). Both are pinned in memory: DeviceActionData and CudaKernel keep
// references to the IR.
// Does not: tune or time anything.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "fem/action_tables.h"
#include "fem/lattice_mesh.h"
#include "ir/action_ir.h"
#include "runtime/cuda_action.h"

namespace femgpu {

struct BenchCase {
  std::string op;
  int dim = 2, degree = 1;
  ActionIR ir;
  Tabulation tab;
  std::string name() const;  // "mass P3 2D"
};

struct BenchOperands {
  LatticeMesh mesh;
  std::vector<double> trial, coefficient;
  ActionArrays arrays;
  std::unique_ptr<DeviceActionData> data;
};

std::unique_ptr<BenchCase> lower_case(const std::string &op, int dim, int degree, Points points = Points::Compressed);
// `intervals` squares/cubes per side (paper: 1280 in 2D, 56 in 3D).
std::unique_ptr<BenchOperands> upload_operands(const BenchCase &c, int intervals);
// The same operands on the host only (data stays null): the SpMV baseline's mesh.
std::unique_ptr<BenchOperands> host_operands(const BenchCase &c, int intervals);

}  // namespace femgpu
