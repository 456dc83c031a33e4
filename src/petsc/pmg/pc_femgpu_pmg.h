// -pc_type fem_gpu_pmg (pc_femgpu_pmg.cpp): p-multigrid for a fem_gpu operator on PETSc's PCMG.
#pragma once

#include <petscsys.h>

namespace femgpu {

// Registers the PC and its log events (FEMGPUPMGSetUp, FEMGPUPMGCoarse, FEMGPUPMGLevels,
// FEMGPUTransfer).
PetscErrorCode PCFEMGPUPMGRegister();

}  // namespace femgpu
