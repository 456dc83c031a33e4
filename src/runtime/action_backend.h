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
// A backend whose on_device() is true also applies on device pointers (PETSc's GPU
// Vecs); occupancy() describes a GPU kernel's residency. The reference is included by
// action_backend.cpp only, so the interface depends on the arrays' contract
// (fem/action_arrays.h), not on the oracle.
// Does not: know PETSc; src/petsc/ owns vectors and communication.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "fem/action_arrays.h"
#include "fem/action_tables.h"
#include "schedule/schedule.h"

namespace femgpu {

class ActionBackend {
 public:
  virtual ~ActionBackend() = default;
  virtual std::string name() const = 0;      // "cpu", "opencl", "cuda"
  virtual std::string schedule() const = 0;  // how it runs, for MatView
  virtual void apply(const ActionArrays &arrays, std::size_t n_out, double *out) = 0;
  virtual std::string source() const { return ""; }  // generated kernel source, if any
  virtual void diagonal(const ActionArrays &arrays, std::size_t n_out, double *diag);
  // Every cell's matrix, row-major (test DOF rows, trial DOF columns), cell after cell:
  // out[cell * w * w + i * w + j], w = cell_width(ir). By default the CPU reference.
  virtual void cell_matrices(const ActionArrays &arrays, double *out);

  // Whether the backend also runs on FP64 arrays that already live in device memory
  // (CUDA memory of the current context, as PETSc's VECCUDA and aijcusparse hold it),
  // copying nothing between host and device. Only then may the two calls below be
  // made; the others throw std::logic_error (a caller's mistake, not a device fault).
  virtual bool on_device() const { return false; }
  // out (device) += action, with the trial and coefficient values (one pointer per
  // ActionIR coefficient) on the device; maps, coordinates and constants from arrays.
  virtual void apply_device(const ActionArrays &arrays, std::size_t n_out, unsigned long long trial,
                            const std::vector<unsigned long long> &coefficients, unsigned long long out);
  // out (device) += the diagonal, likewise (the coefficient values on the device).
  virtual void diagonal_device(const ActionArrays &arrays, std::size_t n_out, const std::vector<unsigned long long> &coefficients,
                               unsigned long long out);
  // cell_matrices() left on the device: the returned pointer holds n_cells * w^2 FP64
  // entries in cell_matrices()'s order, owned by the backend and valid until its next
  // cell-matrix call or its end; 0 when arrays has no cells.
  virtual unsigned long long cell_matrices_device(const ActionArrays &arrays);

  // One line for MatView: how many groups of the compiled kernel one multiprocessor
  // holds and what limits them; "" where the backend has no such notion.
  virtual std::string occupancy() const { return ""; }
  // The nonzeros of the matrix an assembled operator applies (its SpMV does two flops a
  // nonzero and reads no map); < 0: the backend applies the form's own kernel.
  virtual long long assembled_nonzeros() const { return -1; }

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
void check_opencl_schedule(const ActionIR &ir, const Tabulation &tab, const Schedule &schedule);

// Generated kernels through OpenCL (the first device: PoCL on a CPU, or a GPU).
std::unique_ptr<ActionBackend> make_opencl_backend(const ActionIR &ir, const Tabulation &tab, const Schedule &schedule);

#ifdef FEMGPU_HAVE_CUDA
// Generated kernels through NVRTC and the CUDA driver on device `ordinal` (cuda_backend.h).
std::unique_ptr<ActionBackend> make_cuda_backend(const ActionIR &ir, const Tabulation &tab, const Schedule &schedule, int ordinal);
class CudaKernel;
// The same around a kernel already compiled for device `ordinal` (the CUDA tuner's
// winner, cuda_tuner.h): loaded if it is not, never compiled again.
std::unique_ptr<ActionBackend> make_cuda_backend(const ActionIR &ir, const Tabulation &tab, std::unique_ptr<CudaKernel> kernel, int ordinal);
#endif

}  // namespace femgpu
