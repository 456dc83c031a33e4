// The fields a coefficient in its own element can be read from (coefficient_fields.h).
#include "petsc/plex/coefficient_fields.h"

#include <petscdmplex.h>
#include <petscfe.h>

#include "fem/tabulation.h"
#include "petsc/plex/plex_closure.h"

namespace femgpu {

namespace {

// The Lagrange dual space of `fe` (newer PETSc builds vector Lagrange as a sum of scalar
// ones: its first part), or null when it is not Lagrange.
PetscErrorCode lagrange_dual(PetscFE fe, PetscInt Nc, PetscDualSpace *lagrange)
{
  PetscDualSpace dual;
  PetscBool is;
  PetscFunctionBegin;
  *lagrange = nullptr;
  PetscCall(PetscFEGetDualSpace(fe, &dual));
  PetscCall(PetscObjectTypeCompare((PetscObject)dual, PETSCDUALSPACELAGRANGE, &is));
#if !PETSC_VERSION_LT(3, 19, 0)
  if (!is && Nc > 1) {
    PetscCall(PetscObjectTypeCompare((PetscObject)dual, PETSCDUALSPACESUM, &is));
    if (is) PetscCall(PetscDualSpaceSumGetSubspace(dual, 0, &dual));
    if (is) PetscCall(PetscObjectTypeCompare((PetscObject)dual, PETSCDUALSPACELAGRANGE, &is));
  }
#else
  (void)Nc;
#endif
  if (is) *lagrange = dual;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Field `f`'s element: continuous P_k (k >= 1) and DG0 are what the tables can
// tabulate in the basis order of the closure; a discontinuous P_k (k >= 1) orders its
// DOFs as cell-interior ones, so it is refused rather than read in the wrong order.
PetscErrorCode field_element(DM dm, PetscInt f, FieldElement *out)
{
  PetscObject obj;
  PetscClassId id;
  PetscInt dim, Nc, degree, closure;
  PetscFunctionBegin;
  PetscCall(DMGetDimension(dm, &dim));
  PetscCall(DMGetField(dm, f, nullptr, &obj));
  out->name = obj && obj->name ? obj->name : "";  // not PetscObjectGetName: it would invent one
  const std::string head = "field " + std::to_string(f) + " '" + out->name + "': ";
  PetscCall(PetscObjectGetClassId(obj, &id));
  if (id != PETSCFE_CLASSID) {
    out->text = head + "not a PetscFE";
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscFE fe = (PetscFE)obj;
  PetscSpace space;
  PetscDualSpace dual;
  PetscBool continuous = PETSC_FALSE;
  PetscCall(PetscFEGetNumComponents(fe, &Nc));
  PetscCall(PetscFEGetBasisSpace(fe, &space));
  PetscCall(PetscSpaceGetDegree(space, &degree, nullptr));
  PetscCall(PetscFEGetDimension(fe, &closure));
  PetscCall(lagrange_dual(fe, Nc, &dual));
  if (dual) PetscCall(PetscDualSpaceLagrangeGetContinuity(dual, &continuous));
  const bool simplex_size = degree >= 0 && degree <= 8 && closure == lagrange_dimension(static_cast<int>(dim), static_cast<int>(degree)) * Nc;
  out->element = Element{static_cast<int>(degree), static_cast<int>(Nc)};
  out->supported = dual && simplex_size && Nc <= 9 && (degree == 0 || continuous);
  const CellType cell = dim == 2 ? CellType::Triangle : CellType::Tetrahedron;
  if (out->supported) out->text = head + describe_element(out->element, cell);
  else if (!dual) out->text = head + "not a Lagrange element";
  else
    out->text = head + (continuous ? "P" : "DG") + std::to_string(degree) + " with " + std::to_string(Nc) + " components (" +
                std::to_string(closure) + " basis functions): not an element femgpu evaluates (continuous P1-P8 or DG0 on simplices)";
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode plex_field_elements(DM dm, std::vector<FieldElement> *fields)
{
  PetscInt nf;
  PetscFunctionBegin;
  PetscCall(DMGetNumFields(dm, &nf));
  fields->assign(static_cast<size_t>(nf), FieldElement{});
  for (PetscInt f = 0; f < nf; ++f) PetscCall(field_element(dm, f, &(*fields)[static_cast<size_t>(f)]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode plex_auxiliary_vec(DM dm, Vec *aux)
{
  PetscFunctionBegin;
  // PETSc 3.17 added the `part` argument (PetscDS with several parts per region).
#if PETSC_VERSION_LT(3, 17, 0)
  PetscCall(DMGetAuxiliaryVec(dm, nullptr, 0, aux));
#else
  PetscCall(DMGetAuxiliaryVec(dm, nullptr, 0, 0, aux));
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscInt coefficient_field(const std::vector<FieldElement> &fields, const std::string &name, bool sole_coefficient)
{
  for (size_t f = 0; f < fields.size(); ++f)
    if (fields[f].name == name) return static_cast<PetscInt>(f);
  return fields.size() == 1 && sole_coefficient ? 0 : -1;
}

std::string describe_fields(const std::vector<FieldElement> &fields)
{
  std::string s;
  for (const FieldElement &f : fields) s += (s.empty() ? "" : "; ") + f.text;
  return s.empty() ? "none" : s;
}

PetscErrorCode plex_field_map(DM dm, PetscInt field, PetscInt *n_cells, PetscInt *width, std::vector<int> *map, PetscInt *local_size)
{
  PetscSection section;
  PetscInt cStart, cEnd, total, offset = 0;
  IndexArray all;
  PetscFunctionBegin;
  PetscCall(DMPlexGetHeightStratum(dm, 0, &cStart, &cEnd));
  *n_cells = cEnd - cStart;
  PetscCall(DMGetLocalSection(dm, &section));
  PetscCall(PetscSectionGetStorageSize(section, local_size));
  // A cell's closure lists its fields one after the other (DMPlexVecGetClosure's order):
  // field f's DOFs are the PetscFE dimension of f after those of the fields before it.
  PetscCall(plex_closure_indices(dm, section, cStart, cEnd, &total, &all));
  for (PetscInt f = 0; f <= field; ++f) {
    PetscObject obj;
    PetscInt n;
    PetscCall(DMGetField(dm, f, nullptr, &obj));
    PetscCall(PetscFEGetDimension((PetscFE)obj, &n));
    if (f < field) offset += n;
    else *width = n;
  }
  PetscCheck(*n_cells == 0 || offset + *width <= total, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "fem_gpu: field %" PetscInt_FMT "'s closure DOFs end at %" PetscInt_FMT ", past the cell's %" PetscInt_FMT, field, offset + *width, total);
  map->resize(static_cast<size_t>(*n_cells * *width));
  for (PetscInt c = 0; c < *n_cells; ++c)
    for (PetscInt j = 0; j < *width; ++j) (*map)[static_cast<size_t>(c * *width + j)] = all[static_cast<size_t>(c * total + offset + j)];
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
