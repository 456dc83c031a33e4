// FEMGPUDeviceMemoryInUse: how much memory the GPU this rank works on has in use, so an
// example can report what each matrix type costs on the device (femgpu.h).
#include "femgpu.h"
#include "petsc/base/petsc_compat.h"
#include "petsc/base/petsc_errors.h"
#include "petsc/base/petsc_device.h"
#ifdef FEMGPU_HAVE_CUDA
  #include "runtime/cuda_driver.h"
#endif

PetscErrorCode FEMGPUDeviceMemoryInUse(MPI_Comm comm, PetscReal *mib)
{
  PetscReal local = -1;
  PetscFunctionBegin;
  PetscAssertPointer(mib, 2);
#ifdef FEMGPU_HAVE_CUDA
  if (femgpu::cuda::device_available()) {
    PetscInt ordinal;
    PetscCall(femgpu::petsc_cuda_ordinal(&ordinal));
    if (ordinal < 0) {
      PetscMPIInt rank;
      PetscCallMPI(MPI_Comm_rank(comm, &rank));
      ordinal = rank % femgpu::cuda::device_count();
    }
    FEMGPU_CXX(comm, {
      femgpu::cuda::open_device(static_cast<int>(ordinal));  // makes its context current
      local = static_cast<PetscReal>(femgpu::cuda::total_memory() - femgpu::cuda::free_memory()) / (1024.0 * 1024.0);
    });
  }
#endif
  PetscCallMPI(MPIU_Allreduce(&local, mib, 1, MPIU_REAL, MPIU_MAX, comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}
