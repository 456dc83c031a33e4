// cuSPARSE SpMV of the assembled operator (bench_spmv.h): cell matrices from the case's
// backend, summed into CSR on the host (lattice_csr.h), handed to PETSc as seqaij and
// converted to seqaijcusparse; cuSPARSE's SpMV then runs on that Mat's device arrays
// (cusparse_spmv.h) and PETSc's MatMult on the Mat itself.
#include "tools/bench_spmv.h"

#include <petscmat.h>
#include <petsctime.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "runtime/cuda_driver.h"
#include "tools/cusparse_spmv.h"
#include "tools/lattice_csr.h"

namespace femgpu {

namespace {

void check(PetscErrorCode e, const char *what)
{
  if (e) throw std::runtime_error(std::string("SpMV baseline: PETSc error in ") + what);
}

// The largest intervals per side <= `intervals` whose cell matrices hold <= cap entries.
int spmv_intervals(const BenchCase &c, int intervals, double cap)
{
  const double w = static_cast<double>(cell_width(c.ir));
  const double cells_per_cube = c.dim == 2 ? 2 : 6;
  int n = intervals;
  while (n > 1 && cells_per_cube * std::pow(n, c.dim) * w * w > cap) --n;
  return n;
}

// The CSR array as PETSc's type: itself where the types agree, else a converted copy
// (64-bit PetscInt, complex PetscScalar).
template <class To, class From> To *petsc_array(std::vector<From> &v, std::vector<To> *copy)
{
  if constexpr (std::is_same_v<To, From>) {
    return v.data();
  } else {
    copy->assign(v.begin(), v.end());
    return copy->data();
  }
}

// Median milliseconds of one MatMult over 10 synchronised batches of 20.
double time_mult(Mat A)
{
  Vec x, y;
  PetscRandom rnd;
  check(MatCreateVecs(A, &x, &y), "MatCreateVecs");
  check(PetscRandomCreate(PETSC_COMM_SELF, &rnd), "PetscRandomCreate");
  check(VecSetRandom(x, rnd), "VecSetRandom");
  check(PetscRandomDestroy(&rnd), "PetscRandomDestroy");
  for (int i = 0; i < 3; ++i) check(MatMult(A, x, y), "MatMult");
  std::vector<double> ms;
  for (int b = 0; b < 10; ++b) {
    PetscLogDouble t0, t1;
    cuda::synchronize();  // PETSc's streams live in the same primary context
    check(PetscTime(&t0), "PetscTime");
    for (int i = 0; i < 20; ++i) check(MatMult(A, x, y), "MatMult");
    cuda::synchronize();
    check(PetscTime(&t1), "PetscTime");
    ms.push_back((t1 - t0) * 1e3 / 20);
  }
  check(VecDestroy(&x), "VecDestroy");
  check(VecDestroy(&y), "VecDestroy");
  std::sort(ms.begin(), ms.end());
  return 0.5 * (ms[4] + ms[5]);
}

#if defined(PETSC_HAVE_CUDA) && defined(FEMGPU_HAVE_CUSPARSE)
// cuSPARSE's kernel time on the converted Mat's own device CSR arrays: the matrix MatMult
// multiplies, not a second copy of it. Every row holds its diagonal (a DOF lies in its own
// cells), so PETSc keeps no compressed rows and the device CSR has all n rows.
double time_kernel(Mat device, long long nonzeros)
{
  const PetscInt *rows, *columns;
  PetscScalar *values;
  PetscMemType memory;
  check(MatSeqAIJGetCSRAndMemType(device, &rows, &columns, &values, &memory), "MatSeqAIJGetCSRAndMemType");
  if (!PetscMemTypeCUDA(memory)) throw std::runtime_error("SpMV baseline: the seqaijcusparse Mat's CSR arrays are not in CUDA memory");
  if constexpr (!std::is_same_v<PetscScalar, double>) throw std::runtime_error("SpMV baseline: cuSPARSE is timed in FP64; this PETSc's scalars are not double");
  PetscInt m, n;
  check(MatGetSize(device, &m, &n), "MatGetSize");
  DeviceCsr a;
  a.rows = m, a.columns = n, a.nonzeros = nonzeros;
  a.row_offsets = const_cast<PetscInt *>(rows), a.column_indices = const_cast<PetscInt *>(columns);
  a.index_bytes = static_cast<int>(sizeof(PetscInt));  // aijcusparse keeps PetscInt indices on the device
  a.values = reinterpret_cast<double *>(values);
  return time_cusparse_spmv(a);
}
#endif

}  // namespace

std::string spmv_unavailable(double max_cell_entries)
{
#if !defined(PETSC_HAVE_CUDA)
  (void)max_cell_entries;
  return "this PETSc has no CUDA (aijcusparse)";
#elif !defined(FEMGPU_HAVE_CUSPARSE)
  (void)max_cell_entries;
  return "femgpu-bench was built without cuSPARSE";
#else
  return max_cell_entries > 0 ? "" : "off (-spmv_max_cell_entries 0)";
#endif
}

SpmvBaseline time_spmv(const BenchCase &c, int intervals, ActionBackend &backend, double max_cell_entries)
{
  SpmvBaseline s;
  PetscLogDouble t0, t1;
  check(PetscTime(&t0), "PetscTime");
  s.intervals = spmv_intervals(c, intervals, max_cell_entries);
  std::unique_ptr<BenchOperands> o = host_operands(c, s.intervals);
  const size_t w = static_cast<size_t>(cell_width(c.ir));
  std::vector<double> cell_matrices(static_cast<size_t>(o->mesh.n_cells) * w * w);
  backend.cell_matrices(o->arrays, cell_matrices.data());
  Csr a = lattice_csr(o->mesh, cell_matrices);
  cell_matrices = std::vector<double>();
  const PetscInt n = static_cast<PetscInt>(o->mesh.n_dofs());
  Mat host, device;
  std::vector<PetscInt> rows, columns;
  std::vector<PetscScalar> values;
  check(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, n, n, petsc_array(a.rows, &rows), petsc_array(a.columns, &columns), petsc_array(a.values, &values), &host),
        "MatCreateSeqAIJWithArrays");
  check(MatConvert(host, MATSEQAIJCUSPARSE, MAT_INITIAL_MATRIX, &device), "MatConvert to seqaijcusparse");
  check(MatDestroy(&host), "MatDestroy");
  check(PetscTime(&t1), "PetscTime");
  s.assembly_seconds = t1 - t0;
  s.dofs = n, s.nonzeros = a.rows.back();
#if defined(PETSC_HAVE_CUDA) && defined(FEMGPU_HAVE_CUSPARSE)
  s.ms = time_kernel(device, s.nonzeros);
#endif
  s.matmult_ms = time_mult(device);
  s.gdofs = static_cast<double>(n) / (s.ms * 1e-3) / 1e9;
  s.matmult_gdofs = static_cast<double>(n) / (s.matmult_ms * 1e-3) / 1e9;
  check(MatDestroy(&device), "MatDestroy");
  return s;
}

}  // namespace femgpu
