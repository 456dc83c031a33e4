// What the Mat type drives: a backend that applies one lowered action.
//
// Takes (at construction): the ActionIR and its Tabulation. apply() takes the arrays
// (maps, coordinates and values); maps and coordinates are the same on every call of one
// backend, values may change, so device backends upload them once.
// Returns: out += action, FP64 on the host side of the interface; diagonal() adds the
// diagonal of the operator's matrix (reference_diagonal.h) into `diag` the same way.
// By default it runs the CPU reference on the host arrays, so every backend has one;
// a backend with a diagonal kernel overrides it. cell_matrices() gives every cell's
// matrix (MatConvert to assembled types), also from the reference by default.
// Does not: know PETSc; src/petsc/ owns vectors and communication.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>

#include "fem/action_tables.h"
#include "reference/reference_action.h"
#include "reference/reference_diagonal.h"
#include "schedule/schedule.h"

namespace femgpu {

class ActionBackend {
 public:
  virtual ~ActionBackend() = default;
  virtual std::string name() const = 0;      // "cpu", "opencl", "cuda"
  virtual std::string schedule() const = 0;  // how it runs, for MatView
  virtual void apply(const ActionArrays &arrays, std::size_t n_out, double *out) = 0;
  virtual std::string source() const { return ""; }  // generated kernel source, if any
  virtual void diagonal(const ActionArrays &arrays, std::size_t /*n_out*/, double *diag)
  {
    reference_diagonal(action_ir_, action_tables_, arrays, diag);
  }
  // Every cell's matrix, row-major (test DOF rows, trial DOF columns), cell after cell:
  // out[cell * w * w + i * w + j], w = cell_width(ir). By default the CPU reference.
  virtual void cell_matrices(const ActionArrays &arrays, double *out)
  {
    const std::size_t w = static_cast<std::size_t>(cell_width(action_ir_));
    for (int cell = 0; cell < arrays.n_cells; ++cell) {
      const std::vector<double> m = reference_cell_matrix(action_ir_, action_tables_, arrays, cell);
      std::copy(m.begin(), m.end(), out + static_cast<std::size_t>(cell) * w * w);
    }
  }

 protected:
  ActionBackend(const ActionIR &ir, const Tabulation &tab) : action_ir_(ir), action_tables_(tab) {}

 private:
  const ActionIR &action_ir_;
  const Tabulation &action_tables_;
};

// The CPU reference action (Algorithm 2, FP64): runs everywhere.
std::unique_ptr<ActionBackend> make_reference_backend(const ActionIR &ir, const Tabulation &tab);

// Throws std::invalid_argument when the OpenCL backend cannot run `schedule` on this
// form: validate() with its shared-memory limit, then the kernel built and printed in
// OpenCL C, which refuses what the dialect lacks (mma, scatter=warp). The backend's
// constructor makes the same checks; the tuning cache asks this before trusting an entry.
void check_opencl_schedule(const ActionIR &ir, const Tabulation &tab, const Schedule &schedule, const std::string &share_dir);

// Generated kernels through OpenCL (the first device: PoCL on a CPU, or a GPU).
std::unique_ptr<ActionBackend> make_opencl_backend(const ActionIR &ir, const Tabulation &tab, const Schedule &schedule,
                                                   const std::string &share_dir);

}  // namespace femgpu
