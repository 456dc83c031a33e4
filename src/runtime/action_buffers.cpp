// Host arrays in the kernel's precision, in the order of kernel_arguments().
#include "runtime/action_buffers.h"

#include <algorithm>
#include <cstring>

namespace femgpu {

namespace {

template <class T>
std::vector<unsigned char> bytes_of(const T *data, size_t n)
{
  std::vector<unsigned char> b(std::max<size_t>(1, n) * sizeof(T), 0);
  if (n) std::memcpy(b.data(), data, n * sizeof(T));
  return b;
}

std::vector<unsigned char> reals(const double *data, size_t n, Precision p)
{
  if (p == Precision::FP64) return bytes_of(data, n);
  std::vector<float> f(data, data + n);
  return bytes_of(f.data(), n);
}

// Entries a map addresses: its largest entry + 1.
size_t extent(const int *map, size_t entries)
{
  int top = -1;
  for (size_t i = 0; i < entries; ++i) top = std::max(top, map[i]);
  return static_cast<size_t>(top + 1);
}

const FunctionArrays &function_arrays(const ActionArrays &a, int function)
{
  if (function == kCoordinates) return a.coordinates;
  if (function == kTrialFunction) return a.trial;
  return a.coefficients.at(static_cast<size_t>(function - 2));
}

}  // namespace

std::vector<HostArgument> host_arguments(const kernel::Kernel &k, const ActionIR &ir, const Tabulation &tab,
                                         const ActionArrays &arrays, const double *out, size_t n_out)
{
  return host_arguments(kernel_arguments(ir), k, ir, tab, arrays, out, n_out);
}

std::vector<HostArgument> host_arguments(const std::vector<KernelArg> &arguments, const kernel::Kernel &k, const ActionIR &ir,
                                         const Tabulation &tab, const ActionArrays &arrays, const double *out, size_t n_out)
{
  const Precision p = k.precision;
  const size_t cells = static_cast<size_t>(arrays.n_cells);
  const size_t test_width = static_cast<size_t>(ir.n_test_basis * ir.signature.element.components);
  const TableLayout tables = pack_tables(ir, tab);
  std::vector<HostArgument> host;
  for (const KernelArg &a : arguments) {
    HostArgument h;
    h.kind = a.kind;
    const bool function = a.kind == ArgKind::Values || a.kind == ArgKind::Map;
    const FunctionArrays *f = function ? &function_arrays(arrays, a.function) : nullptr;
    const size_t width = function ? static_cast<size_t>(map_width(ir, a.function)) : 0;
    // A coordinate map entry is a node's first component: the last node adds DIM values.
    const size_t tail = function && a.function == kCoordinates ? static_cast<size_t>(ir.dim) - 1 : 0;
    switch (a.kind) {
      case ArgKind::CellCount: h.scalar = arrays.n_cells; break;
      case ArgKind::Values:  // null: a coefficient the form does not use (the kernel never reads it)
        h.bytes = f->values ? reals(f->values, extent(f->map, cells * width) + tail, p) : reals(nullptr, 0, p);
        break;
      case ArgKind::Map: h.bytes = bytes_of(f->map, cells * width); break;
      case ArgKind::TestMap: h.bytes = bytes_of(arrays.test_map, cells * test_width); break;
      case ArgKind::Tables: h.bytes = reals(tables.data.data(), tables.data.size(), p); break;
      case ArgKind::Weights: h.bytes = reals(tab.weights.data(), tab.weights.size(), p); break;
      case ArgKind::Constants: h.bytes = reals(arrays.constants.data(), arrays.constants.size(), p); break;
      case ArgKind::Out: h.bytes = reals(out, n_out, p); break;
    }
    host.push_back(std::move(h));
  }
  return host;
}

void copy_out(const std::vector<unsigned char> &device_bytes, Precision p, double *out, size_t n_out)
{
  if (p == Precision::FP64) {
    std::memcpy(out, device_bytes.data(), n_out * sizeof(double));
    return;
  }
  std::vector<float> f(n_out);
  std::memcpy(f.data(), device_bytes.data(), n_out * sizeof(float));
  std::copy(f.begin(), f.end(), out);
}

size_t group_count(const kernel::Kernel &k, int n_cells)
{
  const size_t per = static_cast<size_t>(k.cells_per_group);
  return std::max<size_t>(1, (static_cast<size_t>(std::max(n_cells, 0)) + per - 1) / per);
}

}  // namespace femgpu
