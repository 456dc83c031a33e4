// The mass matrix of a DM whose matrix type is fem_gpu.
//
// TS's explicit methods with a DM mass (DMTSCreateRHSMassMatrix, e.g. PETSc's ts ex45
// -explicit) invert DMCreateMassMatrix(dm, dm) at every stage with the KSP of prefix
// "mass_". DMPlex assembles that matrix on the host with MatSetValues into a Mat of the
// DM's matrix type, which a fem_gpu Mat does not take. femgpu registers DMPlex's creator
// anew: PETSc's own, then DMCreateMassMatrix choosing at each call by the DM's matrix
// type: for fem_gpu and one finite-element field, the fem_gpu Mat of the form
// inner(u, v)*dx on the DM's element (nothing assembled; -mass_ksp_type cg
// -mass_pc_type jacobi solve with it on the device); for fem_gpu and anything else
// (several fields, the mass between two DMs), PETSc's assembly into an AIJ Mat, with a
// PetscInfo line; for any other matrix type, PETSc's own.
// A lumped mass (DMCreateMassMatrixLumped, ex45 -lumped) is PETSc's: it makes no Mat.
// DMPlex resets a DM's operations where it replaces its mesh in place (DMSetFromOptions)
// and in DMClone; femgpu installs its own again after both.
// Does not: change DMs created before the registration (MatFEMGPURegister, -dll_append).
#pragma once

#include <petscdm.h>

namespace femgpu {

// Registers DMPlex's creator with femgpu's DMCreateMassMatrix (once).
PetscErrorCode DMFEMGPURegisterMassMatrix();

}  // namespace femgpu
