// Faults a device can have, injected (runtime/device_faults.h), through the fem_gpu Mat on
// the OpenCL backend: a kernel that does not compile, a launch the runtime refuses and
// device memory that runs out each stop MatMult with a PETSc error of the right code and
// a message that says what failed; once the fault is gone the same Mat computes the
// operator that the CPU reference computes. Prints one line per check; exit 1 on a failure.
#include <petscdmplex.h>

#include <cstring>
#include <string>

#include "femgpu.h"
#include "lagrange_box.h"
#include "runtime/device_faults.h"

static const char help[] = "Checks the fem_gpu Mat's errors and recovery under injected device faults (OpenCL backend).\n";

namespace {

int failures = 0;

// The first message of the error being raised (the one that says what failed).
PetscErrorCode capture(MPI_Comm, int, const char *, const char *, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
{
  if (p == PETSC_ERROR_INITIAL) *static_cast<std::string *>(ctx) = mess ? mess : "";
  return n;
}

void report(bool ok, const std::string &what)
{
  failures += ok ? 0 : 1;
  PetscPrintf(PETSC_COMM_WORLD, "%s %s\n", what.c_str(), ok ? "ok" : "FAIL");
}

// A Laplacian on P2 with a forced SCPWI kernel (no tuning: the faults hit one kernel).
PetscErrorCode create(DM dm, const char *backend, Mat *A)
{
  PetscFunctionBegin;
  PetscCall(DMCreateMatrix(dm, A));
  PetscCall(MatFEMGPUSetFormFile(*A, FEMGPU_FORMS_DIR "/laplace.ufl"));
  PetscCall(PetscOptionsSetValue(nullptr, "-mat_fem_gpu_backend", backend));
  if (std::strcmp(backend, "cpu") == 0) PetscCall(PetscOptionsClearValue(nullptr, "-mat_fem_gpu_strategy"));
  else PetscCall(PetscOptionsSetValue(nullptr, "-mat_fem_gpu_strategy", "scpwi"));
  PetscCall(MatSetFromOptions(*A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MatMult under `fault` fails with `code` and a message containing `says`; without it the
// same Mat gives y_ref.
PetscErrorCode check_fault(DM dm, Vec x, Vec y_ref, const char *name, femgpu::InjectedFaults fault, PetscErrorCode code, const char *says)
{
  Mat A;
  Vec y;
  std::string message;
  PetscReal diff, ref;
  PetscFunctionBegin;
  PetscCall(create(dm, "opencl", &A));
  PetscCall(VecDuplicate(x, &y));
  PetscCall(VecSet(y, NAN));  // poisoned: a failed MatMult must not leave a plausible result
  femgpu::injected_faults() = fault;
  PetscCall(PetscPushErrorHandler(capture, &message));
  const PetscErrorCode got = MatMult(A, x, y);
  PetscCall(PetscPopErrorHandler());
  femgpu::injected_faults() = femgpu::InjectedFaults();
  report(got == code && message.find(says) != std::string::npos,
         std::string(name) + ": MatMult fails with error " + std::to_string(got) + " (expected " + std::to_string(code) + "): " + message.substr(0, 160));
  PetscCall(MatMult(A, x, y));
  PetscCall(VecAXPY(y, -1.0, y_ref));
  PetscCall(VecNorm(y, NORM_INFINITY, &diff));
  PetscCall(VecNorm(y_ref, NORM_INFINITY, &ref));
  report(diff <= 1e-12 * ref, std::string(name) + ": afterwards the same Mat matches the reference (|y - y_ref| / |y_ref| = " +
                                  std::to_string(diff / ref) + ")");
  PetscCall(VecDestroy(&y));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode run()
{
  DM dm;
  Mat ref;
  Vec x, y_ref;
  PetscRandom rng;
  PetscFunctionBegin;
  PetscCall(CreateLagrangeBox(PETSC_COMM_WORLD, 2, 3, 1, 2, &dm));
  PetscCall(DMSetMatType(dm, MATFEMGPU));
  PetscCall(DMCreateGlobalVector(dm, &x));
  PetscCall(VecDuplicate(x, &y_ref));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rng));
  PetscCall(PetscRandomSetInterval(rng, -1, 1));
  PetscCall(VecSetRandom(x, rng));
  PetscCall(create(dm, "cpu", &ref));
  PetscCall(MatMult(ref, x, y_ref));
  femgpu::InjectedFaults compile, launch, memory;
  compile.compile = true;
  launch.launch = true;
  memory.device_memory_bytes = 64;
  PetscCall(check_fault(dm, x, y_ref, "OpenCL compile failure", compile, PETSC_ERR_LIB, "OpenCL build failed"));
  PetscCall(check_fault(dm, x, y_ref, "kernel launch failure", launch, PETSC_ERR_LIB, "clEnqueueNDRangeKernel"));
  PetscCall(check_fault(dm, x, y_ref, "device out of memory", memory, PETSC_ERR_MEM, "device out of memory"));
  PetscCall(PetscRandomDestroy(&rng));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y_ref));
  PetscCall(MatDestroy(&ref));
  PetscCall(DMDestroy(&dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, nullptr, help));
  PetscCall(MatFEMGPURegister());
  PetscCall(PetscOptionsSetValue(nullptr, "-mat_fem_gpu_tune_cache", "none"));
  PetscCall(run());
  PetscCall(PetscFinalize());
  return failures ? 1 : 0;
}
