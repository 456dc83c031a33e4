// A p-multigrid setup step with its fallback decision (pmg_device_failure.h).
#include "petsc/pmg/pmg_device_failure.h"

#include <string>

#include "petsc/base/petsc_compat.h"  // PETSC_SUCCESS on PETSc 3.18

namespace femgpu {

namespace {

// The first error raised while the handler is pushed: its code and message.
struct Caught {
  PetscErrorCode code = PETSC_SUCCESS;
  std::string message;
};

PetscErrorCode catch_first(MPI_Comm, int, const char *, const char *, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
{
  auto *caught = static_cast<Caught *>(ctx);
  if (p == PETSC_ERROR_INITIAL && caught->code == PETSC_SUCCESS) {
    caught->code = n;
    caught->message = mess ? mess : "";
  }
  return n;
}

bool device_failure(PetscErrorCode e) { return e == PETSC_ERR_GPU || e == PETSC_ERR_GPU_RESOURCE || e == PETSC_ERR_MEM || e == PETSC_ERR_LIB; }

}  // namespace

PetscErrorCode PMGTryOnDevice(PC pc, const char *what, const std::function<PetscErrorCode()> &step, bool *failed)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)pc);
  Caught caught;
  PetscFunctionBegin;
  *failed = false;
  PetscCall(PetscPushErrorHandler(catch_first, &caught));
  PetscErrorCode e = step();
  PetscCall(PetscPopErrorHandler());
  if (e && !caught.code) caught.code = e;
  // 0: done; 1: a device failure; 2: another error. Every rank takes the worst.
  int local = !e ? 0 : device_failure(caught.code) ? 1 : 2, worst = 0;
  PetscCallMPI(MPI_Allreduce(&local, &worst, 1, MPI_INT, MPI_MAX, comm));
  if (local == 2) SETERRQ(PETSC_COMM_SELF, caught.code, "%s", caught.message.c_str());
  PetscCheck(worst < 2, comm, PETSC_ERR_LIB, "fem_gpu_pmg: %s failed on another rank", what);
  if (worst == 0) PetscFunctionReturn(PETSC_SUCCESS);
  if (local == 1)
    PetscCall(PetscInfo(pc, "fem_gpu_pmg: %s failed on the device (PETSc error %d: %s); it is built again on the host\n", what, static_cast<int>(caught.code),
                        caught.message.c_str()));
  *failed = true;
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
