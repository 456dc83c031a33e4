// The plugin's registration: MatFEMGPURegister (include/femgpu.h) and the entry PETSc
// calls when it loads the library with -dll_append.
//
// It lives in the top room because it reaches every room: the Mat type and its log
// events (mat/), the DMPlex room's events (plex/), the p-multigrid PC (pmg/), the SNES
// options checker that makes an unchanged SNES or TS program's Jacobian and residual
// femgpu's, and DMPlex's mass matrix (solvers/). The rooms below know nothing of it.
#include <petscsnes.h>

#include "femgpu.h"
#include "petsc/mat/mat_femgpu.h"
#include "petsc/plex/plex_events.h"
#include "petsc/pmg/pc_femgpu_pmg.h"
#include "petsc/solvers/dm_mass_matrix.h"
#include "petsc/solvers/snes_jacobian.h"

PetscErrorCode MatFEMGPURegister(void)
{
  static PetscBool registered = PETSC_FALSE;
  PetscFunctionBegin;
  if (registered) PetscFunctionReturn(PETSC_SUCCESS);
  registered = PETSC_TRUE;
  PetscCall(MatRegister(MATFEMGPU, femgpu::MatCreate_FEMGPU));
  PetscCall(SNESAddOptionsChecker(femgpu::MatFEMGPUSNESOptionsChecker));  // unchanged SNES programs: snes_jacobian.cpp
  PetscCall(femgpu::PCFEMGPUPMGRegister());  // -pc_type fem_gpu_pmg: pc_femgpu_pmg.cpp
  PetscCall(femgpu::DMFEMGPURegisterMassMatrix());  // DMCreateMassMatrix of fem_gpu DMs (TS explicit methods): dm_mass_matrix.cpp
  PetscCall(femgpu::MatFEMGPURegisterLogEvents());  // after the PC's, as -log_view has always listed them
  PetscCall(femgpu::PlexRegisterLogEvents());        // the DMPlex room's (plex_events.h), after the Mat's
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Called by PETSc when the library is loaded with -dll_append /path/libfemgpu.so.
PETSC_EXTERN PetscErrorCode PetscDLLibraryRegister_femgpu(void)
{
  PetscFunctionBegin;
  PetscCall(MatFEMGPURegister());
  PetscFunctionReturn(PETSC_SUCCESS);
}
