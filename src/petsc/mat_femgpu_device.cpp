// The GPU-resident MatMult: when the Vecs live on the GPU (VECCUDA) and the backend is
// CUDA with an FP64 schedule, the kernel reads and writes PETSc's device arrays
// directly, so a MatMult copies nothing between host and device.
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

PetscErrorCode MatFEMGPUApplyDevice(Mat A, MatFEMGPUContext *ctx, Vec xl, Vec yl, PetscBool *done)
{
  PetscFunctionBegin;
  *done = PETSC_FALSE;
#if FEMGPU_DEVICE_VECS
  auto *cuda_backend = dynamic_cast<CudaBackend *>(ctx->backend.get());
  if (!cuda_backend || ctx->schedule.precision != "fp64") PetscFunctionReturn(PETSC_SUCCESS);
  PetscBool x_dev, y_dev;
  PetscCall(on_device(xl, &x_dev));
  PetscCall(on_device(yl, &y_dev));
  for (const auto &kv : ctx->coefficients) {
    PetscBool w_dev;
    PetscCall(on_device(kv.second.local, &w_dev));
    x_dev = (PetscBool)(x_dev && w_dev);
  }
  if (!x_dev || !y_dev) PetscFunctionReturn(PETSC_SUCCESS);
  // Maps, coordinates and tables go up on the first call (host arrays); values stay on the GPU.
  Vec coords;
  const PetscScalar *ca, *dx;
  PetscScalar *dy;
  ActionArrays arrays;
  PetscCall(DMGetCoordinatesLocal(ctx->dm, &coords));
  PetscCall(VecGetArrayRead(coords, &ca));
  PetscCall(MatFEMGPUFillArrays(ctx, nullptr, ca, false, &arrays));
  std::vector<unsigned long long> coefficient_ptrs(ctx->ir->coefficients.size(), 0);
  std::vector<const PetscScalar *> held(ctx->ir->coefficients.size(), nullptr);
  for (size_t i = 0; i < ctx->ir->coefficients.size(); ++i) {
    auto it = ctx->coefficients.find(ctx->ir->coefficients[i].name);
    if (it == ctx->coefficients.end()) continue;
    PetscCall(VecCUDAGetArrayRead(it->second.local, &held[i]));
    coefficient_ptrs[i] = reinterpret_cast<unsigned long long>(held[i]);
  }
  PetscCall(VecCUDAGetArrayRead(xl, &dx));
  PetscCall(VecCUDAGetArray(yl, &dy));
  // PETSc may use its own stream: finish its work before ours, and ours before it goes on.
  FEMGPU_CXX(PetscObjectComm((PetscObject)A), {
    cuda::synchronize();
    cuda_backend->apply_device(arrays, static_cast<size_t>(ctx->maps.local_size), reinterpret_cast<unsigned long long>(dx),
                               coefficient_ptrs, reinterpret_cast<unsigned long long>(dy));
    cuda::synchronize();
  });
  PetscCall(VecCUDARestoreArray(yl, &dy));
  PetscCall(VecCUDARestoreArrayRead(xl, &dx));
  for (size_t i = 0; i < held.size(); ++i)
    if (held[i]) PetscCall(VecCUDARestoreArrayRead(ctx->coefficients.at(ctx->ir->coefficients[i].name).local, &held[i]));
  PetscCall(VecRestoreArrayRead(coords, &ca));
  *done = PETSC_TRUE;
#else
  (void)A, (void)ctx, (void)xl, (void)yl;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
