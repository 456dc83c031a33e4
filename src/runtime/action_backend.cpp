// What every ActionBackend has unless it overrides it: the diagonal and the cell
// matrices from the CPU reference on the host arrays, and no device-resident calls.
#include "runtime/action_backend.h"

#include <algorithm>
#include <stdexcept>

#include "reference/reference_diagonal.h"

namespace femgpu {

void ActionBackend::diagonal(const ActionArrays &arrays, std::size_t /*n_out*/, double *diag)
{
  reference_diagonal(action_ir_, action_tables_, arrays, diag);
}

void ActionBackend::cell_matrices(const ActionArrays &arrays, double *out)
{
  const std::size_t w = static_cast<std::size_t>(cell_width(action_ir_));
  for (int cell = 0; cell < arrays.n_cells; ++cell) {
    const std::vector<double> m = reference_cell_matrix(action_ir_, action_tables_, arrays, cell);
    std::copy(m.begin(), m.end(), out + static_cast<std::size_t>(cell) * w * w);
  }
}

void ActionBackend::apply_device(const ActionArrays &, std::size_t, unsigned long long, const std::vector<unsigned long long> &,
                                 unsigned long long)
{
  throw std::logic_error("the " + name() + " backend has no device-resident apply (on_device() is false)");
}

void ActionBackend::diagonal_device(const ActionArrays &, std::size_t, const std::vector<unsigned long long> &, unsigned long long)
{
  throw std::logic_error("the " + name() + " backend has no device-resident diagonal (on_device() is false)");
}

unsigned long long ActionBackend::cell_matrices_device(const ActionArrays &)
{
  throw std::logic_error("the " + name() + " backend has no device-resident cell matrices (on_device() is false)");
}

}  // namespace femgpu
