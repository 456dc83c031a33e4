// The physical limit of one operator application: the time no kernel of this operator
// can beat on the device, femgpu's measure of how good a kernel is. It is
//   t_phys = max(minimal DRAM bytes / DRAM bandwidth, flops / FP64 peak),
// where the minimal bytes read the input x and write the output y once per DOF, read each
// coefficient vector once, the DOF map once (4 bytes per cell-local DOF), and the
// coordinates with their map once (4 bytes per cell vertex: femgpu's operands, like a
// PETSc section, keep the coordinates apart from the DOFs). The peak is the FP64
// tensor-core peak for a tensor-core (mma) kernel and the CUDA-core peak otherwise; the
// flops are the kernel's own count (ir/flops).
//
// The assembled operator (Strategy::Assembled) reads neither map nor coordinates when it
// applies but its matrix: its minimal bytes are x, y and each nonzero's value and column
// once (assembled_traffic), and its flops two a nonzero.
//
// The paper's Eq. 16 roofline (cost_model.h's Roofline) models caches and shared memory
// and can be exceeded; this bound cannot, so a fraction of it above 1 is a bug.
//
// Takes: the operator's sizes, its flops and the device's limits. Returns: the bound.
// Does not: measure the device (the probe does; the defaults below are an H200's).
#pragma once

#include <string>

#include "fem/lattice_mesh.h"
#include "tune/cost_model.h"

namespace femgpu {

struct PhysicalLimits {
  // Defaults: an NVIDIA H200 as measured 2026-11-21 (docs/results.md): a 4 GiB D2D
  // copy (read + write counted), FP64 FMAs on CUDA cores, cuBLAS DGEMM 8192^3.
  double dram_bytes_per_second = 4.27e12;
  double fp64_flops_per_second = 33.3e12;
  double fp64_tensor_flops_per_second = 56.5e12;
  std::string source = "H200 measured 2026-11-21 (docs/results.md)";
};

// What one application must move, counted in entries (not bytes).
struct OperatorTraffic {
  long long dofs_in = 0;            // x
  long long dofs_out = 0;           // y
  long long coefficient_dofs = 0;   // all coefficient vectors together
  long long map_entries = 0;        // cells x cell-local DOFs
  long long coordinate_values = 0;  // vertices x dim
  long long coordinate_map_entries = 0;  // cells x vertices per cell
  long long matrix_entries = 0;     // an assembled matrix's nonzeros (a value and a 4-byte column each)
  int value_bytes = 8;              // x, y and coefficients (8: FP64, 4: FP32)
};

struct PhysicalBound {
  double bytes = 0, flops = 0;
  double dram_seconds = 0, fp64_seconds = 0;
  double seconds = 0;          // the larger of the two
  const char *bound = "dram";  // "dram" or "fp64"
};

// The limits of a probed device (probe/: a streaming read kernel for the bandwidth, an FMA
// kernel for the CUDA-core peak). The probe does not time tensor cores: their peak is the
// probed FMA peak times the ratio measured on the H200 (56.5 / 33.3), and `source` says so.
PhysicalLimits probed_limits(const DeviceParams &probed, const std::string &probe_source);

// What one application on a lattice mesh (femgpu-bench's meshes) must move: the trial and
// test spaces are the mesh's DOFs, and each of `coefficients` lives in the trial element.
OperatorTraffic lattice_traffic(const LatticeMesh &mesh, int coefficients);

// What one SpMV of an assembled operator must move: x (n_columns), y (n_rows) and the
// matrix's nonzeros.
OperatorTraffic assembled_traffic(long long n_rows, long long n_columns, long long nonzeros);

// The minimal DRAM bytes of one application (coordinates are always FP64).
double minimal_bytes(const OperatorTraffic &t);
// flops: of one application; tensor_cores: the kernel runs its flops on FP64 tensor cores.
PhysicalBound physical_bound(const OperatorTraffic &t, double flops, bool tensor_cores, const PhysicalLimits &limits);

}  // namespace femgpu
