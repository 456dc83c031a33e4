// The physical limit of one application (physical_bound.h).
#include "tune/physical_bound.h"

#include <algorithm>

namespace femgpu {

PhysicalLimits probed_limits(const DeviceParams &probed, const std::string &probe_source)
{
  const PhysicalLimits h200;
  PhysicalLimits l;
  l.dram_bytes_per_second = probed.beta_global;
  l.fp64_flops_per_second = probed.flops_peak;
  l.fp64_tensor_flops_per_second = probed.flops_peak * (h200.fp64_tensor_flops_per_second / h200.fp64_flops_per_second);
  l.source = "DRAM read and FP64 FMA peak probed (" + probe_source + "), tensor-core peak scaled from the FMA peak as measured on an H200";
  return l;
}

OperatorTraffic lattice_traffic(const LatticeMesh &mesh, int coefficients)
{
  OperatorTraffic t;
  t.dofs_in = t.dofs_out = static_cast<long long>(mesh.n_dofs());
  t.coefficient_dofs = t.dofs_in * coefficients;
  t.map_entries = static_cast<long long>(mesh.map.size());
  t.coordinate_values = static_cast<long long>(mesh.coordinates.size());
  t.coordinate_map_entries = static_cast<long long>(mesh.coordinate_map.size());
  return t;
}

OperatorTraffic assembled_traffic(long long n_rows, long long n_columns, long long nonzeros)
{
  OperatorTraffic t;
  t.dofs_in = n_columns;
  t.dofs_out = n_rows;
  t.matrix_entries = nonzeros;
  return t;
}

double minimal_bytes(const OperatorTraffic &t)
{
  const double values = static_cast<double>(t.dofs_in + t.dofs_out + t.coefficient_dofs + t.matrix_entries) * t.value_bytes;
  const double indices = 4.0 * static_cast<double>(t.map_entries + t.coordinate_map_entries + t.matrix_entries);
  return values + indices + 8.0 * static_cast<double>(t.coordinate_values);
}

PhysicalBound physical_bound(const OperatorTraffic &t, double flops, bool tensor_cores, const PhysicalLimits &limits)
{
  PhysicalBound b;
  b.bytes = minimal_bytes(t);
  b.flops = flops;
  b.dram_seconds = b.bytes / limits.dram_bytes_per_second;
  b.fp64_seconds = flops / (tensor_cores ? limits.fp64_tensor_flops_per_second : limits.fp64_flops_per_second);
  b.seconds = std::max(b.dram_seconds, b.fp64_seconds);
  b.bound = b.fp64_seconds > b.dram_seconds ? "fp64" : "dram";
  return b;
}

}  // namespace femgpu
