// The GPU-resident MatMult: when the Vecs live on the GPU (VECCUDA) and the backend is
// CUDA with an FP64 schedule, the kernel reads and writes PETSc's device arrays
// directly, so a MatMult copies nothing between host and device (one rank: the kernel
// works in the global numbering; with several ranks the host path runs).
#include <petscconf.h>

#include "femgpu.h"
#include "petsc/mat_femgpu_impl.h"
#include "petsc/petsc_errors.h"
#if defined(FEMGPU_HAVE_CUDA) && defined(PETSC_HAVE_CUDA)
  #include <petscdevice_cuda.h>

  #include "runtime/cuda_backend.h"
  #define FEMGPU_DEVICE_VECS 1
#endif

namespace femgpu {

#if FEMGPU_DEVICE_VECS
static PetscErrorCode on_device(Vec v, PetscBool *yes)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)v, yes, VECSEQCUDA, VECMPICUDA, ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

PetscErrorCode MatFEMGPUApplyDevice(Mat A, MatFEMGPUContext *ctx, Vec x, Vec y, bool add, PetscBool *done)
{
  PetscFunctionBegin;
  *done = PETSC_FALSE;
#if FEMGPU_DEVICE_VECS
  auto *cuda_backend = dynamic_cast<CudaBackend *>(ctx->backend.get());
  if (!cuda_backend || ctx->schedule.precision != "fp64" || ctx->maps.global_free.empty()) PetscFunctionReturn(PETSC_SUCCESS);
  PetscBool x_dev, y_dev;
  PetscCall(on_device(x, &x_dev));
  PetscCall(on_device(y, &y_dev));
  for (const auto &kv : ctx->coefficients) {
    PetscBool w_dev;
    PetscCall(on_device(kv.second.local, &w_dev));
    x_dev = (PetscBool)(x_dev && w_dev);
  }
  if (!x_dev || !y_dev) PetscFunctionReturn(PETSC_SUCCESS);
  // One rank: the kernel reads x and adds into y through maps in the global numbering,
  // so neither DMGlobalToLocal nor DMLocalToGlobal (which stage through the host when
  // MPI is not GPU-aware) runs. Maps, coordinates and tables go up on the first call.
  Vec coords;
  const PetscScalar *ca, *dx;
  PetscScalar *dy;
  ActionArrays arrays;
  if (!add) PetscCall(VecSet(y, 0.0));
  PetscCall(DMGetCoordinatesLocal(ctx->dm, &coords));
  PetscCall(VecGetArrayRead(coords, &ca));
  PetscCall(MatFEMGPUFillArrays(ctx, nullptr, ca, false, &arrays));
  arrays.trial.map = ctx->maps.global_free.data();
  arrays.test_map = ctx->maps.global_free.data();
  std::vector<unsigned long long> coefficient_ptrs(ctx->ir->coefficients.size(), 0);
  std::vector<const PetscScalar *> held(ctx->ir->coefficients.size(), nullptr);
  for (size_t i = 0; i < ctx->ir->coefficients.size(); ++i) {
    auto it = ctx->coefficients.find(ctx->ir->coefficients[i].name);
    if (it == ctx->coefficients.end()) continue;
    PetscCall(VecCUDAGetArrayRead(it->second.local, &held[i]));
    coefficient_ptrs[i] = reinterpret_cast<unsigned long long>(held[i]);
  }
  PetscCall(VecCUDAGetArrayRead(x, &dx));
  PetscCall(VecCUDAGetArray(y, &dy));
  // PETSc may use its own stream: finish its work before ours, and ours before it goes on.
  FEMGPU_CXX(PetscObjectComm((PetscObject)A), {
    cuda::synchronize();
    cuda_backend->apply_device(arrays, static_cast<size_t>(ctx->maps.global_size), reinterpret_cast<unsigned long long>(dx),
                               coefficient_ptrs, reinterpret_cast<unsigned long long>(dy));
    cuda::synchronize();
  });
  PetscCall(VecCUDARestoreArray(y, &dy));
  PetscCall(VecCUDARestoreArrayRead(x, &dx));
  for (size_t i = 0; i < held.size(); ++i)
    if (held[i]) PetscCall(VecCUDARestoreArrayRead(ctx->coefficients.at(ctx->ir->coefficients[i].name).local, &held[i]));
  PetscCall(VecRestoreArrayRead(coords, &ca));
  *done = PETSC_TRUE;
#else
  (void)A, (void)ctx, (void)x, (void)y, (void)add;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
