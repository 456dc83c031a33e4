// Transfers between the levels of the p-multigrid (pc_femgpu_pmg.cpp), as PETSc objects.
//
// Takes: two set-up fem_gpu Mats on the same mesh whose elements differ only in degree.
// Returns: the prolongation coarse -> fine as a MATSHELL (its MatMultTranspose is the
// restriction, exactly P^T), and the interpolation of a coefficient from the fine
// level's local Vec to the coarse level's. Both run the generated transfer kernels
// (kernel/build_transfer.h) on the fine Mat's backend: cpu, opencl, or cuda on PETSc's
// device arrays when the Vecs live on the GPU.
// The prolongation interpolates the coarse function at the fine nodes: each cell computes
// its DOFs' values and adds them weighted by 1 / (number of cells sharing the DOF, over
// all ranks), so a shared DOF receives its value once in all. Constrained DOFs (essential
// boundary conditions) are neither read nor written: the levels' corrections vanish there.
// On one rank the prolongation reads and adds into the global Vecs through the maps in
// the global numbering (no DMGlobalToLocal/DMLocalToGlobal, no section star forest).
// Does not: assemble anything (no interpolation matrix exists).
#pragma once

#include <petscmat.h>

#include <memory>

#include "runtime/transfer_backend.h"

namespace femgpu {

extern PetscLogEvent FEMGPU_Transfer;  // registered with the PC (pc_femgpu_pmg.h)
// A transfer's host data at setup (its table, the rows' weights), registered there too.
extern PetscLogEvent FEMGPU_TransferData;

PetscErrorCode PMGCreateProlongation(Mat coarse, Mat fine, Mat *P);

// Coefficient values of `fine` (local Vec, constrained DOFs included) interpolated into
// the coarse level's local Vec: the kernel reads every DOF through the maps that include
// constrained ones, so boundary values move down too.
struct PMGInjection {
  std::unique_ptr<TransferBackend> backend;
};
PetscErrorCode PMGCreateInjection(Mat fine, Mat coarse, PMGInjection *injection);
PetscErrorCode PMGInject(const PMGInjection &injection, Vec fine_local, Vec coarse_local);

}  // namespace femgpu
