// The p-multigrid falling back to the host after a device failure (src/petsc/pmg/
// pmg_device_failure.h): CG with fem_gpu_pmg on a field of -degree (a vector one with
// -components 0) with a zero essential condition on "left", solved twice from the same
// random right-hand side: once as it is, then with a new PC under an injected fault
// (runtime/device_faults.h), -fault
//   coarse_memory: one device allocation larger than the coarse level's cell matrices less
//                  one byte fails, so the coarse assembly runs out of device memory and
//                  nothing else does (pmg_coarse.h's fallback);
//   compile:       every kernel compile fails, so the levels below the operator cannot be
//                  built on the device (the operator's kernels were built in the first
//                  solve): they are built again on the cpu backend (pc_femgpu_pmg.cpp).
// The second solve must take the same iterations and give the same solution; that it fell
// back, and only it, is read from -info :pc by the ctest (the PetscInfo lines after
// "solve 2"). Needs a backend with device buffers (-mat_fem_gpu_backend opencl or cuda).
// Exit 1 on a failure.
#include <petscdmplex.h>
#include <petscksp.h>


#include "femgpu.h"
#include "left_constrained_field.h"
#include "runtime/device_faults.h"

static const char help[] = "Checks that the p-multigrid falls back to the host after a device failure.\n"
                           "  -degree K -components 1|0 (0: the mesh's dimension) -form_file F.ufl -fault coarse_memory|compile\n";

namespace {

// Solves A x = b with CG and a new fem_gpu_pmg.
PetscErrorCode solve(Mat A, Vec b, Vec x, PetscInt *its)
{
  KSP ksp;
  PC pc;
  PetscFunctionBegin;
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)A), &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPSetTolerances(ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, 200));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, "fem_gpu_pmg"));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(VecSet(x, 0.0));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

int main(int argc, char **argv)
{
  DM dm;
  Mat A;
  Vec b, x0, x1;
  PetscInt degree = 2, components = 1, its0 = 0, its1 = 0, dim, cStart, cEnd;
  char form_file[PETSC_MAX_PATH_LEN] = "";
  const char *faults[] = {"coarse_memory", "compile"};
  PetscInt fault = 0;
  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, nullptr, help));
  PetscCall(MatFEMGPURegister());
  MPI_Comm comm = PETSC_COMM_WORLD;
  PetscOptionsBegin(comm, nullptr, "p-multigrid fallback check", nullptr);
  PetscCall(PetscOptionsInt("-degree", "the operator's degree", nullptr, degree, &degree, nullptr));
  PetscCall(PetscOptionsInt("-components", "field components (0: the mesh's dimension)", nullptr, components, &components, nullptr));
  PetscCall(PetscOptionsString("-form_file", "form of the operator", nullptr, form_file, form_file, sizeof(form_file), nullptr));
  PetscCall(PetscOptionsEList("-fault", "the injected device failure", nullptr, faults, 2, faults[fault], &fault, nullptr));
  PetscOptionsEnd();
  PetscCall(CreateLeftConstrainedField(comm, degree, &components, &dm));
  PetscCall(DMSetMatType(dm, MATFEMGPU));
  PetscCall(DMCreateMatrix(dm, &A));
  PetscCall(MatFEMGPUSetFormFile(A, form_file));
  PetscCall(MatSetFromOptions(A));
  PetscCall(MatCreateVecs(A, &x0, &b));
  PetscCall(VecDuplicate(x0, &x1));
  PetscCall(VecSetRandom(b, nullptr));

  PetscCall(PetscPrintf(comm, "solve 1\n"));
  PetscCall(solve(A, b, x0, &its0));
  // The coarse level's cell matrices: (dim + 1) * components rows and columns a P1 cell.
  PetscCall(DMGetDimension(dm, &dim));
  PetscCall(DMPlexGetHeightStratum(dm, 0, &cStart, &cEnd));
  const size_t w = static_cast<size_t>((dim + 1) * components);
  if (fault == 0) femgpu::injected_faults().largest_buffer_bytes = static_cast<size_t>(cEnd - cStart) * w * w * sizeof(double) - 1;
  else femgpu::injected_faults().compile = true;
  PetscCall(PetscPrintf(comm, "solve 2, with the fault (%s)\n", faults[fault]));
  PetscCall(solve(A, b, x1, &its1));
  femgpu::injected_faults() = femgpu::InjectedFaults();

  PetscReal diff, norm;
  PetscCall(VecNorm(x0, NORM_INFINITY, &norm));
  PetscCall(VecAXPY(x1, -1.0, x0));
  PetscCall(VecNorm(x1, NORM_INFINITY, &diff));
  const bool ok = its0 == its1 && diff <= 1e-8 * norm;
  PetscCall(PetscPrintf(comm, "P%" PetscInt_FMT ", %" PetscInt_FMT " components: iterations %" PetscInt_FMT " then %" PetscInt_FMT
                        ", |x1 - x0| / |x0| = %.3g: %s\n",
                        degree, components, its0, its1, (double)(diff / norm), ok ? "ok" : "FAIL"));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x0));
  PetscCall(VecDestroy(&x1));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&dm));
  PetscCall(PetscFinalize());
  return ok ? 0 : 1;
}
