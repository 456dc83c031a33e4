// Prolongation, restriction and coefficient injection between p-multigrid levels
// (pmg_transfer.h): tables from PETSc's own Lagrange elements, weights from the maps,
// kernels from the fine Mat's backend.
#include "petsc/pmg/pmg_transfer.h"

#include <petscdmplex.h>
#include <petscfe.h>

#include "petsc/mat/mat_context.h"
#include "petsc/mat/mat_femgpu.h"
#include "petsc/base/petsc_device.h"
#include "petsc/base/petsc_errors.h"
#include "fem/quadrature.h"
#if FEMGPU_DEVICE_VECS
  #include "runtime/cuda_driver.h"
#endif

namespace femgpu {

PetscLogEvent FEMGPU_Transfer, FEMGPU_TransferData;

namespace {

// T[i * n_col + j]: the column space's scalar basis function j at node i of the row
// space, both PETSc Lagrange elements on the reference simplex, so that the closure maps
// (PETSc's basis order and orientations) index T directly.
PetscErrorCode transfer_table(PetscInt dim, PetscInt row_degree, PetscInt col_degree, TransferData *d)
{
  PetscFE row_fe, col_fe;
  PetscDualSpace space;
  PetscInt n_row, n_col;
  PetscTabulation values;
  PetscFunctionBegin;
  PetscCall(PetscFECreateLagrange(PETSC_COMM_SELF, dim, 1, PETSC_TRUE, row_degree, PETSC_DETERMINE, &row_fe));
  PetscCall(PetscFECreateLagrange(PETSC_COMM_SELF, dim, 1, PETSC_TRUE, col_degree, PETSC_DETERMINE, &col_fe));
  PetscCall(PetscFEGetDualSpace(row_fe, &space));
  PetscCall(PetscDualSpaceGetDimension(space, &n_row));
  PetscCall(PetscFEGetDimension(col_fe, &n_col));
  std::vector<PetscReal> nodes(static_cast<size_t>(n_row * dim));
  for (PetscInt i = 0; i < n_row; ++i) {
    PetscQuadrature functional;
    PetscInt qdim, qnc, n_points;
    const PetscReal *x, *w;
    PetscCall(PetscDualSpaceGetFunctional(space, i, &functional));
    PetscCall(PetscQuadratureGetData(functional, &qdim, &qnc, &n_points, &x, &w));
    PetscCheck(n_points == 1, PETSC_COMM_SELF, PETSC_ERR_SUP, "fem_gpu_pmg: the P%" PetscInt_FMT " element's functional %" PetscInt_FMT
               " is not a point evaluation (%" PetscInt_FMT " points); p-multigrid needs nodal Lagrange elements", row_degree, i, n_points);
    for (PetscInt k = 0; k < dim; ++k) nodes[static_cast<size_t>(i * dim + k)] = x[k];
  }
  PetscCall(PetscFECreateTabulation(col_fe, 1, n_row, nodes.data(), 0, &values));
  d->shape.row_basis = static_cast<int>(n_row);
  d->shape.col_basis = static_cast<int>(n_col);
  d->table.assign(values->T[0], values->T[0] + n_row * n_col);
  PetscCall(PetscTabulationDestroy(&values));
  PetscCall(PetscFEDestroy(&row_fe));
  PetscCall(PetscFEDestroy(&col_fe));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Maps of more entries than this are counted on threads (8.4M at 3D P2 on 843k cells).
constexpr size_t kThreadedEntries = size_t(1) << 20;

// How many of `map`'s entries hold each index in [0, n) (negative entries: none).
std::vector<int> entries_per_index(const IndexArray &map, size_t n)
{
  std::vector<int> count(n, 0);
#pragma omp parallel for schedule(static) if (map.size() > kThreadedEntries)
  for (size_t k = 0; k < map.size(); ++k) {
    const int index = map[k];
    if (index < 0) continue;
#pragma omp atomic
    ++count[static_cast<size_t>(index)];
  }
  return count;
}

// 1 / (number of cells whose closure holds the entry), for each entry of the DM's local
// vector; over_ranks: cells of every rank (a DOF on a partition boundary), else this
// rank's cells (entries are then complete on every rank that holds them).
PetscErrorCode inverse_multiplicity(DM dm, const PlexMaps &maps, bool over_ranks, std::vector<double> *weight)
{
  Vec local;
  PetscScalar *a;
  PetscFunctionBegin;
  PetscCall(DMCreateLocalVector(dm, &local));
  const std::vector<int> count = entries_per_index(maps.all, static_cast<size_t>(maps.local_size));
  PetscCall(VecGetArray(local, &a));
  for (PetscInt i = 0; i < maps.local_size; ++i) a[i] = count[static_cast<size_t>(i)];
  PetscCall(VecRestoreArray(local, &a));
  if (over_ranks) {
    Vec global;
    PetscCall(DMGetGlobalVector(dm, &global));
    PetscCall(VecSet(global, 0.0));
    PetscCall(DMLocalToGlobal(dm, local, ADD_VALUES, global));
    PetscCall(DMGlobalToLocal(dm, global, INSERT_VALUES, local));
    PetscCall(DMRestoreGlobalVector(dm, &global));
  }
  PetscCall(VecGetArray(local, &a));
  weight->resize(static_cast<size_t>(maps.local_size));
  for (PetscInt i = 0; i < maps.local_size; ++i) (*weight)[static_cast<size_t>(i)] = PetscRealPart(a[i]) > 0 ? 1.0 / PetscRealPart(a[i]) : 0.0;
  PetscCall(VecRestoreArray(local, &a));
  PetscCall(VecDestroy(&local));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// 1 / (number of cells whose closure holds the entry) for each entry of a global Vec on
// one rank, from the maps in the global numbering (constrained entries, -1, have none).
std::vector<double> inverse_multiplicity_global(const PlexMaps &maps)
{
  const size_t rows = static_cast<size_t>(maps.global_size);
  const std::vector<int> count = entries_per_index(maps.global_free, rows);
  std::vector<double> weight(rows);
#pragma omp parallel for schedule(static) if (rows > kThreadedEntries)
  for (size_t i = 0; i < rows; ++i) weight[i] = count[i] > 0 ? 1.0 / count[i] : 0.0;
  return weight;
}

// How a transfer's vectors are numbered: the DMs' local Vecs (ghosts included; the
// prolongation then scatters with DMGlobalToLocal/DMLocalToGlobal), or, on one rank, the
// global Vecs themselves through the maps in the global numbering (PlexMaps::global_free),
// so that no scatter runs and the levels' section star forests are never built.
enum class Numbering { Local, Global };

// The transfer from `cols` (a set-up fem_gpu Mat) to `rows`, on the row Mat's backend, or on
// the host where either Mat runs on the cpu backend (levels built on the host after a
// device failure, pc_femgpu_pmg.cpp).
// constrained: the maps of free DOFs (prolongation) or of all (coefficients); Global
// numbering takes the free DOFs.
PetscErrorCode make_transfer(Mat rows, Mat cols, bool constrained, Numbering numbering, std::unique_ptr<TransferBackend> *t)
{
  MatFEMGPUContext *r, *c;
  TransferData d;
  PetscFunctionBegin;
  PetscCall(MatFEMGPUGetContext(rows, &r));
  PetscCall(MatFEMGPUGetContext(cols, &c));
  PetscCall(PetscLogEventBegin(FEMGPU_TransferData, rows, cols, 0, 0));
  PetscCall(transfer_table(r->op.ir->dim, r->op.signature.element.degree, c->op.signature.element.degree, &d));
  d.shape.components = r->op.signature.element.components;
  d.n_cells = static_cast<int>(r->op.mesh_maps().n_cells);
  // The maps are read where they are (shared with the Mats' maps), not copied.
  const std::shared_ptr<const PlexMaps> row_maps = r->op.mesh_maps_shared(), col_maps = c->op.mesh_maps_shared();
  PetscCheck(row_maps && col_maps, PetscObjectComm((PetscObject)rows), PETSC_ERR_ARG_WRONGSTATE, "fem_gpu_pmg: a transfer between fem_gpu Mats that are not set up");
  auto shared = [](const std::shared_ptr<const PlexMaps> &owner, const IndexArray &map) {
    return SharedIndices{owner, map.data(), map.size(), owner->device_copies};
  };
  if (numbering == Numbering::Global) {
    d.row_map = shared(row_maps, row_maps->global_free);
    d.col_map = shared(col_maps, col_maps->global_free);
    d.n_rows = static_cast<size_t>(r->op.mesh_maps().global_size);
    d.n_cols = static_cast<size_t>(c->op.mesh_maps().global_size);
    d.row_weight = inverse_multiplicity_global(r->op.mesh_maps());
  } else {
    d.row_map = shared(row_maps, constrained ? row_maps->free : row_maps->all);
    d.col_map = shared(col_maps, constrained ? col_maps->free : col_maps->all);
    d.n_rows = static_cast<size_t>(r->op.mesh_maps().local_size);
    d.n_cols = static_cast<size_t>(c->op.mesh_maps().local_size);
    PetscCall(inverse_multiplicity(r->op.dm, r->op.mesh_maps(), constrained, &d.row_weight));
  }
  PetscCall(PetscLogEventEnd(FEMGPU_TransferData, rows, cols, 0, 0));
  const std::string backend = c->device.backend->name() == "cpu" ? "cpu" : r->device.backend->name();
  FEMGPU_CXX(PetscObjectComm((PetscObject)rows), *t = make_transfer_backend(backend, std::move(d), r->device.cuda_ordinal));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// out_local += the transfer of in_local, on the device when both live there.
PetscErrorCode transfer_local(TransferBackend &t, TransferDirection direction, Vec in, Vec out)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)out);
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(FEMGPU_Transfer, in, out, 0, 0));
#if FEMGPU_DEVICE_VECS
  PetscBool in_dev = PETSC_FALSE, out_dev = PETSC_FALSE;
  if (t.on_device()) {
    PetscCall(vec_on_cuda(in, &in_dev));
    PetscCall(vec_on_cuda(out, &out_dev));
  }
  if (in_dev && out_dev) {
    const PetscScalar *a;
    PetscScalar *b;
    PetscBool default_stream;
    PetscCall(petsc_on_default_stream(&default_stream));
    PetscCall(VecCUDAGetArrayRead(in, &a));
    PetscCall(VecCUDAGetArray(out, &b));
    // On PETSc's default stream the launch is ordered with PETSc's kernels (as MatMult's,
    // mat_femgpu_device.cpp); on a stream of its own, PETSc may still be writing `in`,
    // and reads `out` after, so the host waits on both sides.
    PetscCall(PetscLogGpuTimeBegin());  // -log_view_gpu_time: the kernel's time in FEMGPUTransfer
    FEMGPU_CXX(comm, {
      if (!default_stream) cuda::synchronize();
      t.apply_device(direction, reinterpret_cast<unsigned long long>(a), reinterpret_cast<unsigned long long>(b));
      if (!default_stream) cuda::synchronize();
    });
    PetscCall(PetscLogGpuTimeEnd());
    PetscCall(VecCUDARestoreArray(out, &b));
    PetscCall(VecCUDARestoreArrayRead(in, &a));
    PetscCall(PetscLogEventEnd(FEMGPU_Transfer, in, out, 0, 0));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#endif
  const PetscScalar *a;
  PetscScalar *b;
  PetscCall(VecGetArrayRead(in, &a));
  PetscCall(VecGetArray(out, &b));
  FEMGPU_CXX(comm, t.apply(direction, a, b));
  PetscCall(VecRestoreArray(out, &b));
  PetscCall(VecRestoreArrayRead(in, &a));
  PetscCall(PetscLogEventEnd(FEMGPU_Transfer, in, out, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

struct Prolongation {
  DM coarse = nullptr, fine = nullptr;
  Numbering numbering = Numbering::Local;
  std::unique_ptr<TransferBackend> transfer;
};

PetscErrorCode prolongation_of(Mat P, Prolongation **p)
{
  PetscFunctionBegin;
  PetscCall(MatShellGetContext(P, p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// y (+)= op(P) x: on one rank the kernel on the global Vecs; else ghosts in, the kernel
// on local Vecs, sums out.
PetscErrorCode apply(Mat P, Vec x, Vec y, bool transpose, bool add)
{
  Prolongation *p;
  Vec xl, yl;
  PetscFunctionBegin;
  PetscCall(prolongation_of(P, &p));
  const TransferDirection direction = transpose ? TransferDirection::Transpose : TransferDirection::Forward;
  if (p->numbering == Numbering::Global) {
    if (!add) PetscCall(VecSet(y, 0.0));
    PetscCall(transfer_local(*p->transfer, direction, x, y));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  DM from = transpose ? p->fine : p->coarse, to = transpose ? p->coarse : p->fine;
  PetscCall(DMGetLocalVector(from, &xl));
  PetscCall(DMGetLocalVector(to, &yl));
  PetscCall(DMGlobalToLocal(from, x, INSERT_VALUES, xl));
  PetscCall(VecSet(yl, 0.0));
  PetscCall(transfer_local(*p->transfer, direction, xl, yl));
  if (!add) PetscCall(VecSet(y, 0.0));
  PetscCall(DMLocalToGlobal(to, yl, ADD_VALUES, y));
  PetscCall(DMRestoreLocalVector(to, &yl));
  PetscCall(DMRestoreLocalVector(from, &xl));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatMult_Prolongation(Mat P, Vec x, Vec y) { return apply(P, x, y, false, false); }
PetscErrorCode MatMultTranspose_Prolongation(Mat P, Vec x, Vec y) { return apply(P, x, y, true, false); }

PetscErrorCode MatMultAdd_Prolongation(Mat P, Vec x, Vec y, Vec z)
{
  PetscFunctionBegin;
  if (z != y) PetscCall(VecCopy(y, z));
  PetscCall(apply(P, x, z, false, true));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatMultTransposeAdd_Prolongation(Mat P, Vec x, Vec y, Vec z)
{
  PetscFunctionBegin;
  if (z != y) PetscCall(VecCopy(y, z));
  PetscCall(apply(P, x, z, true, true));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatDestroy_Prolongation(Mat P)
{
  Prolongation *p;
  PetscFunctionBegin;
  PetscCall(prolongation_of(P, &p));
  PetscCall(DMDestroy(&p->coarse));
  PetscCall(DMDestroy(&p->fine));
  delete p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// One restriction and one prolongation of zeros, at the PC's setup: what a transfer does
// the first time (on several ranks the coarse DM's section SF, the DMs' local Vecs; the
// indices on the device) is done here rather than in the first V-cycle, inside KSPSolve
// (150 ms of a P2 solve at 843k cells, where the P1 level's first DMLocalToGlobal built
// its SF before transfers on one rank took the global numbering).
PetscErrorCode warm(Mat P, DM coarse, DM fine)
{
  Vec xc, xf;
  PetscFunctionBegin;
  PetscCall(DMGetGlobalVector(coarse, &xc));
  PetscCall(DMGetGlobalVector(fine, &xf));
  PetscCall(VecSet(xf, 0.0));
  PetscCall(MatMultTranspose(P, xf, xc));
  PetscCall(MatMult(P, xc, xf));
  PetscCall(DMRestoreGlobalVector(fine, &xf));
  PetscCall(DMRestoreGlobalVector(coarse, &xc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode PMGCreateProlongation(Mat coarse, Mat fine, Mat *P)
{
  MatFEMGPUContext *c, *f;
  PetscInt mf, mc, Mf, Mc;
  VecType vtype;
  PetscFunctionBegin;
  PetscCall(MatFEMGPUGetContext(coarse, &c));
  PetscCall(MatFEMGPUGetContext(fine, &f));
  auto *p = new Prolongation;
  p->coarse = c->op.dm;
  p->fine = f->op.dm;
  PetscCall(PetscObjectReference((PetscObject)p->coarse));
  PetscCall(PetscObjectReference((PetscObject)p->fine));
  const bool one_rank = !f->op.mesh_maps().global_free.empty() && !c->op.mesh_maps().global_free.empty();
  p->numbering = one_rank ? Numbering::Global : Numbering::Local;
  PetscCall(make_transfer(fine, coarse, true, p->numbering, &p->transfer));
  PetscCall(MatGetLocalSize(fine, &mf, nullptr));
  PetscCall(MatGetLocalSize(coarse, &mc, nullptr));
  PetscCall(MatGetSize(fine, &Mf, nullptr));
  PetscCall(MatGetSize(coarse, &Mc, nullptr));
  PetscCall(MatCreateShell(PetscObjectComm((PetscObject)fine), mf, mc, Mf, Mc, p, P));
  PetscCall(MatShellSetOperation(*P, MATOP_MULT, (void (*)(void))MatMult_Prolongation));
  PetscCall(MatShellSetOperation(*P, MATOP_MULT_TRANSPOSE, (void (*)(void))MatMultTranspose_Prolongation));
  PetscCall(MatShellSetOperation(*P, MATOP_MULT_ADD, (void (*)(void))MatMultAdd_Prolongation));
  PetscCall(MatShellSetOperation(*P, MATOP_MULT_TRANSPOSE_ADD, (void (*)(void))MatMultTransposeAdd_Prolongation));
  PetscCall(MatShellSetOperation(*P, MATOP_DESTROY, (void (*)(void))MatDestroy_Prolongation));
  PetscCall(DMGetVecType(f->op.dm, &vtype));
  PetscCall(MatShellSetVecType(*P, vtype));
  PetscCall(PetscObjectSetName((PetscObject)*P, "fem_gpu_pmg prolongation"));
  PetscCall(warm(*P, c->op.dm, f->op.dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PMGCreateInjection(Mat fine, Mat coarse, PMGInjection *injection)
{
  PetscFunctionBegin;
  PetscCall(make_transfer(coarse, fine, false, Numbering::Local, &injection->backend));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PMGInject(const PMGInjection &injection, Vec fine_local, Vec coarse_local)
{
  PetscFunctionBegin;
  PetscCall(VecSet(coarse_local, 0.0));
  PetscCall(transfer_local(*injection.backend, TransferDirection::Forward, fine_local, coarse_local));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
