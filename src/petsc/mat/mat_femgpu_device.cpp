// The GPU-resident MatMult: when the Vecs live on the GPU (VECCUDA) and the backend is
// CUDA with an FP64 schedule, the kernels read and write PETSc's device arrays
// directly, so a MatMult copies nothing between host and device on one rank (the kernels
// work in the global numbering), and only ghost values on several ranks (the kernels
// work on ghosted local Vecs that live on the device). The kernels: the Mat's operator,
// then each exterior facet part (mat_femgpu_facets.cpp), adding into the same output.
#include "femgpu.h"
#include "petsc/base/petsc_device.h"
#include "petsc/base/petsc_errors.h"
#include "petsc/mat/mat_context.h"
#include "petsc/mat/mat_femgpu.h"
#include "petsc/mat/mat_femgpu_device.h"
#if FEMGPU_DEVICE_VECS
  #include "runtime/cuda_driver.h"  // cuda::synchronize
#endif

namespace femgpu {

#if FEMGPU_DEVICE_VECS
// Device pointers of the coefficient values (ghosted local Vecs) of one operator's IR;
// null where unbound.
struct HeldCoefficients {
  std::vector<unsigned long long> ptrs;
  std::vector<const PetscScalar *> held;
  std::vector<Vec> vecs;
};

static PetscErrorCode get_coefficients(MatFEMGPUContext *ctx, const ActionIR &ir, HeldCoefficients *h)
{
  PetscFunctionBegin;
  h->ptrs.assign(ir.coefficients.size(), 0);
  h->held.assign(ir.coefficients.size(), nullptr);
  h->vecs.assign(ir.coefficients.size(), nullptr);
  for (size_t i = 0; i < ir.coefficients.size(); ++i) {
    auto it = ctx->op.coefficients.find(ir.coefficients[i].name);
    if (it == ctx->op.coefficients.end()) continue;
    h->vecs[i] = it->second.local;
    PetscCall(VecCUDAGetArrayRead(h->vecs[i], &h->held[i]));
    h->ptrs[i] = reinterpret_cast<unsigned long long>(h->held[i]);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode restore_coefficients(HeldCoefficients *h)
{
  PetscFunctionBegin;
  for (size_t i = 0; i < h->held.size(); ++i)
    if (h->held[i]) PetscCall(VecCUDARestoreArrayRead(h->vecs[i], &h->held[i]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// One kernel of the Mat: its operator or a facet part, with the maps and cells it runs on.
struct DevicePart {
  const ActionIR *ir;
  const PlexMaps *maps;
  const std::vector<PetscInt> *cells;
  std::vector<std::vector<int>> *scratch;
  ActionBackend *backend;
};

static std::vector<DevicePart> device_parts(MatFEMGPUContext *ctx)
{
  std::vector<DevicePart> parts{{ctx->op.ir.get(), &ctx->op.maps(), &ctx->op.cells, &ctx->op.coefficient_maps, ctx->device.backend.get()}};
  for (FacetPart &p : ctx->op.facets)
    if (p.backend) parts.push_back({p.ir.get(), &p.maps, &p.cells, &p.coefficient_maps, p.backend.get()});
  return parts;
}

// -info: how many device copies of the DM's maps this Mat's kernels took from another reader
// (the DM's residual, Jacobian, a p-multigrid transfer) instead of uploading their own.
static PetscErrorCode info_shared_maps(Mat A, MatFEMGPUContext *ctx)
{
  PetscFunctionBegin;
  const std::shared_ptr<DeviceCopies> &copies = ctx->op.maps().device_copies;
  if (copies) PetscCall(PetscInfo(A, "fem_gpu: device copies of the DM's maps handed out again so far: %zu (one upload each, shared by every reader)\n", copies->reused()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MatView's time per apply is the mean of the first applies, each timed between two host
// waits; later applies on the default stream wait for nothing (a wait costs about as much
// as a P1 kernel), and -log_view_gpu_time times them with PETSc's GPU timer.
constexpr PetscInt kTimedApplies = 8;

// out (device) += A in (device), every part through its maps in the global numbering
// (one rank, `global`) or the local section's. On a stream of PETSc's own (not the
// default one) PETSc's work is finished before ours, and ours before it goes on.
static PetscErrorCode launch(Mat A, MatFEMGPUContext *ctx, bool global, size_t n_out, Vec in, Vec out)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)A);
  Vec coords;
  const PetscScalar *ca, *din;
  PetscScalar *dout;
  PetscBool default_stream = PETSC_FALSE;
  PetscLogDouble t0 = 0, t1 = 0;
  PetscFunctionBegin;
  PetscCall(petsc_on_default_stream(&default_stream));
  const bool wait = !default_stream || ctx->device.apply_count < kTimedApplies;
  PetscCall(DMGetCoordinatesLocal(ctx->op.dm, &coords));
  PetscCall(VecGetArrayRead(coords, &ca));  // host copy: uploaded once, on the first call
  PetscCall(VecCUDAGetArrayRead(in, &din));
  PetscCall(VecCUDAGetArray(out, &dout));
  PetscCall(PetscLogEventBegin(FEMGPU_Apply, A, in, out, 0));
  if (wait) {
    FEMGPU_CXX(comm, cuda::synchronize());
    PetscCall(PetscTime(&t0));
  }
  PetscCall(PetscLogGpuTimeBegin());
  for (const DevicePart &part : device_parts(ctx)) {
    ActionArrays arrays;
    HeldCoefficients coefficients;
    PetscCall(MatFEMGPUFillOperatorArrays(ctx, *part.ir, *part.maps, *part.cells, part.scratch, nullptr, ca, false, &arrays));
    arrays.trial.map = global ? part.maps->global_free.data() : part.maps->free.data();
    arrays.test_map = arrays.trial.map;
    PetscCall(get_coefficients(ctx, *part.ir, &coefficients));
    FEMGPU_CXX(comm, part.backend->apply_device(arrays, n_out, reinterpret_cast<unsigned long long>(din), coefficients.ptrs,
                                               reinterpret_cast<unsigned long long>(dout)));
    PetscCall(restore_coefficients(&coefficients));
  }
  PetscCall(PetscLogGpuTimeEnd());
  PetscCall(PetscLogGpuFlops(ctx->op.flops_per_cell * static_cast<PetscLogDouble>(ctx->op.maps().n_cells)));
  if (wait) {
    FEMGPU_CXX(comm, cuda::synchronize());
    PetscCall(PetscTime(&t1));
    PetscCall(MatFEMGPURecordApply(ctx, t1 - t0));
  }
  PetscCall(PetscLogEventEnd(FEMGPU_Apply, A, in, out, 0));
  if (ctx->device.apply_count == 1) PetscCall(info_shared_maps(A, ctx));
  PetscCall(VecCUDARestoreArray(out, &dout));
  PetscCall(VecCUDARestoreArrayRead(in, &din));
  PetscCall(VecRestoreArrayRead(coords, &ca));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

#if FEMGPU_DEVICE_VECS
// Whether the kernels can run on the device arrays of x, y and every bound coefficient:
// an FP64 schedule, every part on a CUDA backend, every Vec a CUDA one.
static PetscErrorCode device_eligible(MatFEMGPUContext *ctx, Vec x, Vec y, PetscBool *yes)
{
  PetscFunctionBegin;
  *yes = PETSC_FALSE;
  if (ctx->options.schedule.precision != "fp64") PetscFunctionReturn(PETSC_SUCCESS);
  for (const DevicePart &part : device_parts(ctx))
    if (!part.backend->on_device()) PetscFunctionReturn(PETSC_SUCCESS);
  PetscBool x_dev, y_dev;
  PetscCall(vec_on_cuda(x, &x_dev));
  PetscCall(vec_on_cuda(y, &y_dev));
  for (const auto &kv : ctx->op.coefficients) {
    PetscBool w_dev;
    PetscCall(vec_on_cuda(kv.second.local, &w_dev));
    x_dev = (PetscBool)(x_dev && w_dev);
  }
  *yes = (PetscBool)(x_dev && y_dev);
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

PetscErrorCode MatFEMGPUApplyLocalDevice(Mat A, MatFEMGPUContext *ctx, Vec x_local, Vec y_local, PetscBool *done)
{
  PetscFunctionBegin;
  *done = PETSC_FALSE;
#if FEMGPU_DEVICE_VECS
  PetscCall(device_eligible(ctx, x_local, y_local, done));
  if (*done) PetscCall(launch(A, ctx, false, static_cast<size_t>(ctx->op.maps().local_size), x_local, y_local));
#else
  (void)A, (void)ctx, (void)x_local, (void)y_local;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatFEMGPUDiagonalDevice(Mat A, MatFEMGPUContext *ctx, Vec d, PetscBool *done)
{
  PetscFunctionBegin;
  *done = PETSC_FALSE;
#if FEMGPU_DEVICE_VECS
  PetscBool eligible;
  PetscCall(device_eligible(ctx, d, d, &eligible));
  // Every coefficient the form reads is bound (one it declares but does not read, as w in
  // the Jacobian of a linear F(w), has no binding and no device pointer: the kernel never
  // reads it, as in MatMult).
  const ActionIR &ir = *ctx->op.ir;
  bool bound = true;
  for (size_t i = 0; i < ir.coefficients.size(); ++i)
    if (ir.group_of_function(coefficient_function(static_cast<int>(i))) >= 0) bound = bound && ctx->op.coefficients.count(ir.coefficients[i].name);
  if (!eligible || !bound || ctx->op.maps().global_free.empty() || !ctx->op.facets.empty()) PetscFunctionReturn(PETSC_SUCCESS);
  MPI_Comm comm = PetscObjectComm((PetscObject)A);
  Vec coords;
  const PetscScalar *ca;
  PetscScalar *dd;
  ActionArrays arrays;
  HeldCoefficients coefficients;
  PetscCall(VecSet(d, 0.0));
  PetscCall(DMGetCoordinatesLocal(ctx->op.dm, &coords));
  PetscCall(VecGetArrayRead(coords, &ca));  // host copy: uploaded with the device data, once
  PetscCall(MatFEMGPUFillOperatorArrays(ctx, ir, ctx->op.maps(), ctx->op.cells, &ctx->op.coefficient_maps, nullptr, ca, false, &arrays));
  arrays.trial.map = ctx->op.maps().global_free.data();
  arrays.test_map = arrays.trial.map;
  PetscCall(get_coefficients(ctx, ir, &coefficients));
  PetscCall(VecCUDAGetArray(d, &dd));
  PetscCall(PetscLogEventBegin(FEMGPU_Diagonal, A, d, 0, 0));
  PetscCall(PetscLogGpuTimeBegin());
  FEMGPU_CXX(comm, ctx->device.backend->diagonal_device(arrays, static_cast<size_t>(ctx->op.maps().global_size), coefficients.ptrs,
                                                        reinterpret_cast<unsigned long long>(dd)));
  PetscCall(PetscLogGpuTimeEnd());
  PetscCall(PetscLogEventEnd(FEMGPU_Diagonal, A, d, 0, 0));
  PetscCall(VecCUDARestoreArray(d, &dd));
  PetscCall(restore_coefficients(&coefficients));
  PetscCall(VecRestoreArrayRead(coords, &ca));
  *done = PETSC_TRUE;
#else
  (void)A, (void)ctx, (void)d;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatFEMGPUApplyDevice(Mat A, MatFEMGPUContext *ctx, Vec x, Vec y, bool add, PetscBool *done)
{
  PetscFunctionBegin;
  *done = PETSC_FALSE;
#if FEMGPU_DEVICE_VECS
  PetscBool eligible;
  PetscCall(device_eligible(ctx, x, y, &eligible));
  if (!eligible) PetscFunctionReturn(PETSC_SUCCESS);
  if (!ctx->op.maps().global_free.empty()) {
    // One rank: the kernel reads x and adds into y through maps in the global numbering,
    // so neither DMGlobalToLocal nor DMLocalToGlobal runs.
    if (!add) PetscCall(VecSet(y, 0.0));
    PetscCall(launch(A, ctx, true, static_cast<size_t>(ctx->op.maps().global_size), x, y));
    *done = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  // Several ranks: ghosted local Vecs on the device. PETSc's star forest packs and
  // unpacks on the GPU; only the ghost values cross MPI (staged through the host when
  // MPI is not GPU-aware), never the whole vector.
  Vec xl, yl;
  PetscBool local_dev;
  PetscCall(DMGetLocalVector(ctx->op.dm, &xl));
  PetscCall(vec_on_cuda(xl, &local_dev));
  if (!local_dev) {
    PetscCall(DMRestoreLocalVector(ctx->op.dm, &xl));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DMGetLocalVector(ctx->op.dm, &yl));
  PetscCall(DMGlobalToLocal(ctx->op.dm, x, INSERT_VALUES, xl));
  PetscCall(VecSet(yl, 0.0));
  PetscCall(launch(A, ctx, false, static_cast<size_t>(ctx->op.maps().local_size), xl, yl));
  if (!add) PetscCall(VecSet(y, 0.0));
  PetscCall(DMLocalToGlobal(ctx->op.dm, yl, ADD_VALUES, y));
  PetscCall(DMRestoreLocalVector(ctx->op.dm, &xl));
  PetscCall(DMRestoreLocalVector(ctx->op.dm, &yl));
  *done = PETSC_TRUE;
#else
  (void)A, (void)ctx, (void)x, (void)y, (void)add;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
