// DMCreateMassMatrix for fem_gpu DMs (dm_mass_matrix.h).
#include "petsc/solvers/dm_mass_matrix.h"

#include <petsc/private/dmimpl.h>
#include <petscdmplex.h>

#include <string>

#include "femgpu.h"
#include "petsc/base/petsc_compat.h"
#include "petsc/solvers/dm_preallocation.h"
#include "petsc/solvers/jacobian_compare.h"

namespace femgpu {

namespace {

// The form: u and v take the DM's element; inner is the product for a scalar field.
constexpr const char *kMassForm = "from ufl import *\n\na = inner(u, v)*dx\n";
constexpr const char *kMassFormName = "DMCreateMassMatrix (inner(u, v)*dx)";

// PETSc's DMPlex operations that femgpu's call.
PetscErrorCode (*plex_create)(DM) = nullptr;                           // DMCreate_Plex
PetscErrorCode (*plex_mass)(DM, DM, Mat *) = nullptr;                  // DMCreateMassMatrix_Plex
PetscErrorCode (*plex_clone)(DM, DM *) = nullptr;                      // DMClone_Plex
PetscErrorCode (*plex_set_from_options)(DM, OptionItems) = nullptr;  // DMSetFromOptions_Plex

PetscErrorCode install(DM dm);

// Whether the fem_gpu Mat of inner(u, v)*dx can be the DM's mass: one field, a PetscFE.
PetscErrorCode one_fe_field(DM dm, bool *yes, std::string *why)
{
  PetscInt n_fields;
  PetscObject field;
  PetscClassId id;
  PetscFunctionBegin;
  PetscCall(DMGetNumFields(dm, &n_fields));
  *yes = false;
  if (n_fields != 1) {
    *why = std::to_string(n_fields) + " fields";
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DMGetField(dm, 0, nullptr, &field));
  PetscCall(PetscObjectGetClassId(field, &id));
  *yes = id == PETSCFE_CLASSID;
  if (!*yes) *why = "a field that is not a PetscFE";
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CreateMassMatrix_FEMGPU(DM dmc, DM dmf, Mat *mass)
{
  MatType type;
  PetscBool ours;
  bool one_field = false;
  std::string why = "the mass between two DMs";
  PetscFunctionBegin;
  PetscCall(DMGetMatType(dmc, &type));
  PetscCall(PetscStrcmp(type, MATFEMGPU, &ours));
  if (!ours) {
    PetscCall(plex_mass(dmc, dmf, mass));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (dmc == dmf) PetscCall(one_fe_field(dmc, &one_field, &why));
  if (!one_field) {  // PETSc's assembly, into the matrix type its MatSetValues needs
    PetscCall(PetscInfo(dmc, "fem_gpu: DMCreateMassMatrix of %s is assembled by PETSc as %s (a fem_gpu mass takes one finite-element field on one DM)\n",
                        why.c_str(), MATAIJ));
    PetscCall(DMSetMatType(dmc, MATAIJ));
    PetscErrorCode ierr = plex_mass(dmc, dmf, mass);
    PetscCall(DMSetMatType(dmc, MATFEMGPU));
    PetscCall(ierr);
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatFEMGPUSkipDMPreallocation(dmc));  // DMCreateMatrix: no pattern for a fem_gpu Mat
  PetscCall(DMCreateMatrix(dmc, mass));          // the DM's layouts and options (backend, tuning)
  PetscCall(MatFEMGPUSetForm(*mass, kMassForm, kMassFormName));
  PetscCall(PetscObjectSetName((PetscObject)*mass, "fem_gpu mass"));
  PetscCall(PetscInfo(dmc, "fem_gpu: DMCreateMassMatrix is the fem_gpu Mat of inner(u, v)*dx on the DM's element\n"));
  PetscCall(MatViewFromOptions(*mass, nullptr, "-mass_mat_view"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// DMPlex resets its operations to PETSc's wherever it replaces a DM's mesh in place
// (DMSetFromOptions reading a file, refining, distributing) and in DMClone: femgpu's are
// installed again after each.
PetscErrorCode Clone_FEMGPUPlex(DM dm, DM *clone)
{
  PetscFunctionBegin;
  PetscCall(plex_clone(dm, clone));
  PetscCall(install(*clone));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SetFromOptions_FEMGPUPlex(DM dm, OptionItems items)
{
  PetscFunctionBegin;
  PetscCall(plex_set_from_options(dm, items));
  PetscCall(install(dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode install(DM dm)
{
  PetscFunctionBegin;
  if (dm->ops->createmassmatrix != CreateMassMatrix_FEMGPU) plex_mass = dm->ops->createmassmatrix;
  if (dm->ops->clone != Clone_FEMGPUPlex) plex_clone = dm->ops->clone;
  if (dm->ops->setfromoptions != SetFromOptions_FEMGPUPlex) plex_set_from_options = dm->ops->setfromoptions;
  dm->ops->createmassmatrix = CreateMassMatrix_FEMGPU;
  dm->ops->clone = Clone_FEMGPUPlex;
  dm->ops->setfromoptions = SetFromOptions_FEMGPUPlex;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode Create_FEMGPUPlex(DM dm)
{
  PetscFunctionBegin;
  PetscCall(plex_create(dm));
  PetscCall(install(dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode DMFEMGPURegisterMassMatrix()
{
  PetscErrorCode (*current)(DM) = nullptr;
  PetscFunctionBegin;
  PetscCall(DMInitializePackage());  // DMPlex's creator registered
  PetscCall(PetscFunctionListFind(DMList, DMPLEX, &current));
  PetscCheck(current, PETSC_COMM_SELF, PETSC_ERR_PLIB, "fem_gpu: PETSc has no DM type %s registered", DMPLEX);
  if (current == Create_FEMGPUPlex) PetscFunctionReturn(PETSC_SUCCESS);
  plex_create = current;
  PetscCall(DMRegister(DMPLEX, Create_FEMGPUPlex));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
