// A PetscSection's storage layout as the arrays PETSc keeps (read-only).
//
// Closure maps read the DOF count and offset of every point of a mesh with millions of
// points; the public getters (PetscSectionGetDof/GetOffset) cost a call each, which
// dominated the setup of a fem_gpu Mat. PETSc's own DMPlex code reads the section's atlas
// arrays directly; femgpu does the same here, in this one place, for PETSc 3.18 to 3.26
// (the fields are the same there). Nothing is ever written through these pointers.
#pragma once

#include <petscsection.h>
#include <petsc/private/sectionimpl.h>

#include "petsc/base/petsc_compat.h"  // PETSC_SUCCESS on PETSc 3.18

namespace femgpu {

struct SectionArrays {
  PetscInt pStart = 0, pEnd = 0;
  const PetscInt *dofs = nullptr, *offsets = nullptr;  // by point - pStart
  // Constraints (Dirichlet): each point's count, wherever the section has a constraint
  // section, and, where it also has their indices (a local section), each point's offset
  // into `constraint_indices`: the constrained DOFs' indices within the point, ascending.
  const PetscInt *constraint_dofs = nullptr, *constraint_offsets = nullptr, *constraint_indices = nullptr;
  PetscInt n_constrained(PetscInt p) const { return constraint_dofs ? constraint_dofs[p - pStart] : 0; }
  const PetscInt *constrained(PetscInt p) const { return constraint_indices + constraint_offsets[p - pStart]; }  // needs the indices
  bool contains(PetscInt p) const { return p >= pStart && p < pEnd; }
  PetscInt dof(PetscInt p) const { return contains(p) ? dofs[p - pStart] : 0; }
  PetscInt offset(PetscInt p) const { return offsets[p - pStart]; }
};

// The section's (field < 0) or its field's arrays; they must exist (set up; DMPlex's cone
// section keeps its offsets without the set-up flag).
inline PetscErrorCode section_arrays(PetscSection section, PetscInt field, SectionArrays *out)
{
  PetscSection s = section;
  PetscFunctionBegin;
  if (field >= 0) PetscCall(PetscSectionGetField(section, field, &s));
  PetscCheck(s->pEnd <= s->pStart || (s->atlasDof && s->atlasOff), PetscObjectComm((PetscObject)section), PETSC_ERR_ARG_WRONGSTATE, "fem_gpu: the section has no layout (not set up)");
  out->pStart = s->pStart;
  out->pEnd = s->pEnd;
  out->dofs = s->atlasDof;
  out->offsets = s->atlasOff;
  if (s->bc && s->bc->pEnd > s->bc->pStart) {  // the constraint section shares the chart
    PetscCheck(s->bc->pStart == s->pStart && s->bc->pEnd == s->pEnd, PETSC_COMM_SELF, PETSC_ERR_PLIB, "fem_gpu: the constraint section has another chart");
    out->constraint_dofs = s->bc->atlasDof;
    if (s->bcIndices) out->constraint_offsets = s->bc->atlasOff, out->constraint_indices = s->bcIndices;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
