// Where PETSc's vectors live (petsc_device.h).
#include "petsc/base/petsc_device.h"

#include <petscdevice.h>

namespace femgpu {

PetscErrorCode vec_on_cuda(Vec v, PetscBool *yes)
{
  PetscFunctionBegin;
  *yes = PETSC_FALSE;
#if FEMGPU_DEVICE_VECS
  PetscCall(PetscObjectTypeCompareAny((PetscObject)v, yes, VECSEQCUDA, VECMPICUDA, ""));
#else
  (void)v;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode petsc_cuda_ordinal(PetscInt *ordinal)
{
  PetscFunctionBegin;
  *ordinal = -1;
#if FEMGPU_DEVICE_VECS
  PetscDeviceContext dctx;
  PetscDevice device;
  PetscDeviceType type;
  PetscCall(PetscDeviceContextGetCurrentContext(&dctx));
  PetscCall(PetscDeviceContextGetDevice(dctx, &device));
  PetscCall(PetscDeviceGetType(device, &type));
  if (type == PETSC_DEVICE_CUDA) PetscCall(PetscDeviceGetDeviceId(device, ordinal));
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if FEMGPU_DEVICE_VECS
PetscErrorCode petsc_on_default_stream(PetscBool *yes)
{
  PetscDeviceContext dctx;
  PetscStreamType type;
  PetscFunctionBegin;
  PetscCall(PetscDeviceContextGetCurrentContext(&dctx));
  PetscCall(PetscDeviceContextGetStreamType(dctx, &type));
  *yes = (PetscBool)(type == PETSC_STREAM_DEFAULT || type == PETSC_STREAM_DEFAULT_WITH_BARRIER);
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

}  // namespace femgpu
