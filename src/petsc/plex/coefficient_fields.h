// Where a coefficient's values come from when it lives in its own element: the field of
// a DM (the DM of the Vec given with MatFEMGPUSetCoefficient, or the DM of the trial
// DM's auxiliary vector, DMGetAuxiliaryVec) whose PetscFE is that element.
//
// Takes: a DMPlex with PetscFE fields on the same cells as the Mat's DM.
// Returns: each field's femgpu element (or why it has none), the field a coefficient
// binds to, and its closure map (n_cells x width, indices into the DM's local vector, in
// the PetscFE basis order the tables use).
// Does not: read values (mat_femgpu.cpp refreshes the local copies).
#pragma once

#include <petscdm.h>

#include <string>
#include <vector>

#include "form/form.h"
#include "petsc/base/petsc_compat.h"

namespace femgpu {

struct FieldElement {
  std::string name;      // the PetscFE's name ("" when unnamed)
  bool supported = false;  // continuous Lagrange P_k (k >= 1) or DG0
  Element element;
  std::string text;      // "field 1 'kappa': P1 scalar on triangles", for messages
};

// Every field of `dm` (a DMPlex), with its element when femgpu can evaluate it.
PetscErrorCode plex_field_elements(DM dm, std::vector<FieldElement> *fields);

// The trial DM's auxiliary vector (DMGetAuxiliaryVec with no label, value 0, part 0), or
// null when it has none.
PetscErrorCode plex_auxiliary_vec(DM dm, Vec *aux);

// The field of `fields` coefficient `name` binds to: the one whose PetscFE has the
// coefficient's name, else the only field when the form has one coefficient
// (sole_coefficient); -1 when none.
PetscInt coefficient_field(const std::vector<FieldElement> &fields, const std::string &name, bool sole_coefficient);

// "field 0 'kappa': P1 scalar on triangles; field 1 ...": every field, for errors.
std::string describe_fields(const std::vector<FieldElement> &fields);

// The closure map of field `field` of `dm` on its cells (all DOFs, constrained ones
// included: a coefficient reads them), and its local section's storage size.
PetscErrorCode plex_field_map(DM dm, PetscInt field, PetscInt *n_cells, PetscInt *width, std::vector<int> *map, PetscInt *local_size);

}  // namespace femgpu
