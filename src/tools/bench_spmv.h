// The baseline a PETSc user would run instead of femgpu: the same operator assembled into
// a CSR matrix and applied by cuSPARSE SpMV (PETSc's MatMult on aijcusparse), timed in
// femgpu-bench's process on its device, on the same kind of mesh and numbering.
//
// Takes: a bench case, the intervals per side of its mesh, a backend of the case (its
// cell-matrix kernel gives the values, FP64) and a cap on the cell-matrix entries the host
// may hold. The mesh is the case's own when its cell matrices fit the cap, else the
// largest lattice mesh that does (SpMV's GDoF/s do not depend on the size once the
// matrix is far larger than the L2 cache; femgpu-bench's default cap of 1e8 entries keeps
// capped matrices at 0.19-1.1 GB, 4-22x the 50 MB L2: femgpu_bench_options.h). The row
// says which mesh. A case's own matrix can be smaller than the L2 (3D P1 on the paper's
// mesh: 185k DOFs, about 2.7 million nonzeros, 33 MB), and SpMVs run back to back may then
// read it from there, as femgpu's kernels may their own data.
// Returns: DOFs, nonzeros and two times of one SpMV, each with its GDoF/s (output DOFs
// per second):
//   ms, gdofs: cuSPARSE's SpMV kernel on the Mat's device arrays, timed with CUDA events
//     as femgpu's kernels are (cusparse_spmv.h): the headline, like for like with femgpu's
//     own time_ms;
//   matmult_ms, matmult_gdofs: PETSc's MatMult, the median over 10 batches of 20 between
//     device synchronisations (host clock around each batch), so with the host's launch
//     cost of MatMult in it (3D P1 on the paper's mesh, 185k DOFs: 17 us a MatMult).
// spmv_unavailable says first whether it can run at all.
// Does not: count assembly in the time; it is reported apart (assembly_seconds).
#pragma once

#include <string>

#include "runtime/action_backend.h"
#include "tools/bench_case.h"

namespace femgpu {

struct SpmvBaseline {
  std::string skipped;  // empty: measured
  int intervals = 0;
  long long dofs = 0, nonzeros = 0;
  double ms = 0, gdofs = 0;                // cuSPARSE's kernel (CUDA events)
  double matmult_ms = 0, matmult_gdofs = 0;  // PETSc's MatMult (host clock)
  double assembly_seconds = 0;
};

// Why the baseline cannot run here (a PETSc without CUDA, a build without cuSPARSE, a cap
// of 0); empty when it can.
std::string spmv_unavailable(double max_cell_entries);
SpmvBaseline time_spmv(const BenchCase &c, int intervals, ActionBackend &backend, double max_cell_entries);

}  // namespace femgpu
