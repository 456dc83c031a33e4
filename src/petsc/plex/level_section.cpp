#include "petsc/plex/level_section.h"

#include <petscdmplex.h>
#include <petscfe.h>

#include <algorithm>
#include <string>
#include <vector>

#include <petscsf.h>

#include "petsc/plex/section_arrays.h"

namespace femgpu {

namespace {

// Why the level's section cannot be derived from the fine one ("" where it can): the
// cases where PETSc's own build would lay it out otherwise.
PetscErrorCode why_not_derived(DM fine, DM level, PetscSection fine_section, std::string *why)
{
  PetscInt nf_fine, nf_level, nf_section, depth, dim, height, Nc_fine, Nc_level;
  DMLabel label_fine, label_level;
  PetscObject disc_fine, disc_level;
  PetscClassId id_fine, id_level;
  PetscSection anchors;
  IS perm;
  const PetscInt *n_dof;
  PetscFunctionBegin;
  *why = "";
  PetscCall(DMGetNumFields(fine, &nf_fine));
  PetscCall(DMGetNumFields(level, &nf_level));
  PetscCall(PetscSectionGetNumFields(fine_section, &nf_section));
  if (nf_fine != 1 || nf_level != 1 || nf_section != 1) {
    *why = "not one field";
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DMGetField(fine, 0, &label_fine, &disc_fine));
  PetscCall(DMGetField(level, 0, &label_level, &disc_level));
  PetscCall(PetscObjectGetClassId(disc_fine, &id_fine));
  PetscCall(PetscObjectGetClassId(disc_level, &id_level));
  if (label_fine || label_level) *why = "the field is on a label";
  else if (id_fine != PETSCFE_CLASSID || id_level != PETSCFE_CLASSID) *why = "the field is not a PetscFE";
  if (!why->empty()) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFEGetNumComponents((PetscFE)disc_fine, &Nc_fine));
  PetscCall(PetscFEGetNumComponents((PetscFE)disc_level, &Nc_level));
  PetscCall(DMPlexGetAnchors(fine, &anchors, nullptr));
  PetscCall(PetscSectionGetPermutation(fine_section, &perm));
  PetscCall(DMPlexGetDepth(fine, &depth));
  PetscCall(DMGetDimension(fine, &dim));
  PetscCall(DMPlexGetVTKCellHeight(fine, &height));
  PetscCall(PetscFEGetNumDof((PetscFE)disc_level, &n_dof));
  if (Nc_fine != Nc_level) *why = "the elements have different components";
  else if (anchors) *why = "the mesh has anchors (constraints between points)";
  else if (perm) *why = "the fine section is permuted (-dm_reorder_section)";
  else if (depth != dim) *why = "the mesh is not interpolated";
  else if (height != 0) *why = "the cell height is not 0";
  for (PetscInt d = 1; d <= dim && why->empty(); ++d)
    if (n_dof[d] > Nc_level) *why = "the level element has more than one node on a point of dimension " + std::to_string(d) + " (orientation permutations)";
  DMLabel types;
  PetscCall(DMPlexGetCellTypeLabel(fine, &types));
  for (DMPolytopeType ct : {DM_POLYTOPE_POINT_PRISM_TENSOR, DM_POLYTOPE_SEG_PRISM_TENSOR, DM_POLYTOPE_TRI_PRISM_TENSOR, DM_POLYTOPE_QUAD_PRISM_TENSOR,
                            DM_POLYTOPE_FV_GHOST}) {
    PetscInt n;
    PetscCall(DMLabelGetStratumSize(types, static_cast<PetscInt>(ct), &n));
    if (n > 0 && why->empty()) *why = "the mesh has tensor-product or ghost cells";
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The depths where the level element has DOFs: each one's points (the fine DM's depth
// stratum; the level is a clone on the same mesh) and the element's DOFs on each point.
struct Stratum {
  PetscInt start, end, dof;
};

PetscErrorCode level_strata(DM fine, PetscFE fe, std::vector<Stratum> *out)
{
  const PetscInt *n_dof;
  PetscInt dim;
  PetscFunctionBegin;
  out->clear();
  PetscCall(PetscFEGetNumDof(fe, &n_dof));
  PetscCall(DMGetDimension(fine, &dim));
  for (PetscInt d = 0; d <= dim; ++d) {
    Stratum st{0, 0, n_dof[d]};
    if (st.dof == 0) continue;
    PetscCall(DMPlexGetDepthStratum(fine, d, &st.start, &st.end));
    out->push_back(st);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The level's chart: the points of the strata with DOFs (a P1 level's: the vertices).
// PETSc's own build takes the mesh's whole chart, 3.7M points at 843k tetrahedra for a P1
// level's 150k vertices, and every pass over the section (its setup, the global section,
// the section SF) walks all of them. A section on part of the chart is PETSc's too:
// closures, SFs and global sections skip the points outside it, and the local and global
// numberings are the same (a point outside holds no DOFs).
void level_chart(const std::vector<Stratum> &strata, PetscInt *pStart, PetscInt *pEnd)
{
  *pStart = PETSC_MAX_INT;
  *pEnd = PETSC_MIN_INT;
  for (const Stratum &st : strata) {
    if (st.end <= st.start) continue;
    *pStart = std::min(*pStart, st.start);
    *pEnd = std::max(*pEnd, st.end);
  }
  if (*pEnd < *pStart) *pStart = *pEnd = 0;  // a rank without points
}

// The level's DOF counts: the level element's for each point's depth.
PetscErrorCode set_level_dofs(const std::vector<Stratum> &strata, PetscSection s)
{
  PetscFunctionBegin;
  for (const Stratum &st : strata)
    for (PetscInt p = st.start; p < st.end; ++p) {
      PetscCall(PetscSectionSetDof(s, p, st.dof));
      PetscCall(PetscSectionSetFieldDof(s, p, 0, st.dof));
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The level's constrained points and, for each, its constrained indices (node-major,
// component-minor, as the fine's): the components the fine section constrains at that
// point, on every level node. Only the depths where the level has DOFs are walked. *ok is
// false where the fine section's constraints are not whole nodes of a component set, or a
// level point has DOFs where the fine one has none.
struct LevelConstraint {
  PetscInt point;
  std::vector<PetscInt> indices;
};

PetscErrorCode level_constraints(const std::vector<Stratum> &strata, PetscSection fine_section, PetscInt Nc, std::vector<LevelConstraint> *out, bool *ok)
{
  SectionArrays f;
  PetscFunctionBegin;
  *ok = true;
  out->clear();
  PetscCall(section_arrays(fine_section, -1, &f));
  std::vector<char> constrained(static_cast<size_t>(Nc));
  for (size_t i = 0; i < strata.size() && *ok; ++i) {
    const PetscInt dof = strata[i].dof;
    for (PetscInt p = strata[i].start; p < strata[i].end; ++p) {
      const PetscInt fine_dof = f.dof(p), fine_cdof = f.n_constrained(p);
      if (fine_dof == 0 || fine_dof % Nc) {
        *ok = false;
        break;
      }
      if (fine_cdof == 0) continue;
      std::fill(constrained.begin(), constrained.end(), 0);
      for (PetscInt k = 0; k < fine_cdof; ++k) constrained[static_cast<size_t>(f.constrained(p)[k] % Nc)] = 1;
      PetscInt per_node = 0;
      for (char c : constrained) per_node += c;
      if (per_node * (fine_dof / Nc) != fine_cdof) {
        *ok = false;
        break;
      }
      LevelConstraint c{p, {}};
      for (PetscInt node = 0; node < dof / Nc; ++node)
        for (PetscInt k = 0; k < Nc; ++k)
          if (constrained[static_cast<size_t>(k)]) c.indices.push_back(node * Nc + k);
      out->push_back(std::move(c));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A point's constrained indices, and its field's (the section is set up, its constraint
// counts set). PETSc 3.18 to 3.26's PetscSectionSetConstraintIndices checks the indices
// against atlasDof[point], without the chart's start: on a chart that does not start at 0
// it reads another point's count (or past the array). The indices go where it would write them.
PetscErrorCode set_constraint_indices(PetscSection section, PetscInt point, const PetscInt *indices)
{
  PetscSection field;
  PetscFunctionBegin;
  PetscCall(PetscSectionGetField(section, 0, &field));
  for (PetscSection s : {section, field}) {
    PetscCheck(s->bc && s->bcIndices && point >= s->bc->pStart && point < s->bc->pEnd, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "fem_gpu_pmg: the level's section has no constraint indices for point %" PetscInt_FMT, point);
    const PetscInt p = point - s->bc->pStart;
    std::copy(indices, indices + s->bc->atlasDof[p], s->bcIndices + s->bc->atlasOff[p]);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode set_constraints(PetscSection s, const std::vector<LevelConstraint> &constraints)
{
  PetscFunctionBegin;
  for (const LevelConstraint &c : constraints) {
    const PetscInt n = static_cast<PetscInt>(c.indices.size());
    PetscCall(PetscSectionSetConstraintDof(s, c.point, n));
    PetscCall(PetscSectionSetFieldConstraintDof(s, c.point, 0, n));
  }
  PetscCall(PetscSectionSetUp(s));
  for (const LevelConstraint &c : constraints) PetscCall(set_constraint_indices(s, c.point, c.indices.data()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The array where PETSc 3.18 to 3.26 keep a section's offsets (allocated by
// PetscSectionSetChart), to be written at once: PetscSectionSetOffset is a call per point
// (two with the field). For a section that is never set up (the global section:
// PetscSectionSetUp would compute offsets of its own), writing the array is what the
// per-point calls do.
PetscErrorCode offsets_array(PetscSection section, PetscInt pStart, PetscInt pEnd, PetscInt **offsets)
{
  PetscFunctionBegin;
  PetscCheck(section->pStart == pStart && section->pEnd == pEnd && (pEnd == pStart || section->atlasOff), PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "fem_gpu_pmg: the level's global section has no offsets array for its chart [%" PetscInt_FMT ", %" PetscInt_FMT ")", section->pStart,
             section->pEnd);
  *offsets = section->atlasOff;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The level's global section, as DMGetGlobalSection would build it from the level's local
// section `s` and the point SF with PetscSectionCreateGlobalSection: a point this rank owns
// keeps its DOF and constraint counts and is numbered in point order after the DOFs of
// the ranks before it (constrained DOFs left out); a point another rank owns has -(dof+1)
// DOFs and the offset -(offset+1) of its owner's numbering. PETSc's build makes about a
// dozen section calls for every point of the mesh (3.7M at 843k tetrahedra), most of them
// on points without DOFs; here such a point costs no call (the offsets are written into the
// section's array at once). The global section has the local one's chart. *set is false
// (PETSc then builds it on first use) where the mesh is periodic through face SFs (PETSc
// numbers over another SF there).
PetscErrorCode set_level_global_section(DM level, PetscSection s, bool *set)
{
  SectionArrays a;
  PetscSF sf;
  PetscInt nroots, nleaves, Nc;
  const PetscInt *ilocal;
  const PetscSFNode *iremote;
  const char *name;
  PetscFunctionBegin;
  *set = false;
#if !PETSC_VERSION_LT(3, 20, 0)
  PetscInt n_face_sfs;
  const PetscSF *face_sfs;
  PetscCall(DMPlexGetIsoperiodicFaceSF(level, &n_face_sfs, &face_sfs));
  if (n_face_sfs > 0) PetscFunctionReturn(PETSC_SUCCESS);
#endif
  PetscCall(section_arrays(s, -1, &a));
  MPI_Comm comm = PetscObjectComm((PetscObject)level);
  PetscMPIInt size;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  const PetscInt pStart = a.pStart, pEnd = a.pEnd, n = pEnd - pStart;
  PetscCall(DMGetPointSF(level, &sf));
  PetscCall(PetscSFGetGraph(sf, &nroots, &nleaves, &ilocal, &iremote));
  std::vector<char> ghost(static_cast<size_t>(n), 0);  // by point - pStart
  if (nroots >= 0) {
    PetscCheck(nroots >= pEnd, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "fem_gpu_pmg: point SF roots %" PetscInt_FMT " < chart end %" PetscInt_FMT, nroots, pEnd);
    for (PetscInt i = 0; i < nleaves; ++i) {
      const PetscInt leaf = ilocal ? ilocal[i] : i;
      if (a.contains(leaf)) ghost[static_cast<size_t>(leaf - pStart)] = 1;  // a leaf outside the section's chart has no DOFs here
    }
  }
  PetscSection gs, gfs;
  PetscCall(PetscSectionGetFieldComponents(s, 0, &Nc));
  PetscCall(PetscSectionGetFieldName(s, 0, &name));
  PetscCall(PetscSectionCreate(comm, &gs));
  PetscCall(PetscSectionSetNumFields(gs, 1));
  PetscCall(PetscSectionSetFieldComponents(gs, 0, Nc));
  if (name) PetscCall(PetscSectionSetFieldName(gs, 0, name));
  PetscCall(PetscSectionSetChart(gs, pStart, pEnd));
  PetscCall(PetscSectionGetField(gs, 0, &gfs));
  PetscCall(PetscSectionSetIncludesConstraints(gs, PETSC_FALSE));
  PetscCall(PetscSectionSetIncludesConstraints(gfs, PETSC_FALSE));
  // Offsets: owned points in point order, then the ranks before added, then ghosts' from
  // their owners (none on one rank).
  PetscInt *offset, *field_offset, owned = 0, before = 0;
  // (offset and field_offset are by point - pStart; the SF's arrays by point)
  PetscCall(offsets_array(gs, pStart, pEnd, &offset));
  PetscCall(offsets_array(gfs, pStart, pEnd, &field_offset));
  for (PetscInt i = 0; i < n; ++i) {
    offset[i] = owned;
    if (!ghost[static_cast<size_t>(i)]) owned += a.dof(pStart + i) - a.n_constrained(pStart + i);
  }
  PetscCallMPI(MPI_Scan(&owned, &before, 1, MPIU_INT, MPI_SUM, comm));
  before -= owned;
  for (PetscInt i = 0; i < n; ++i) offset[i] += before;
  if (nroots >= 0 && size > 1) {
    std::vector<PetscInt> neg(static_cast<size_t>(nroots), 0), recv(neg.size(), 0);
    for (PetscInt i = 0; i < n; ++i) neg[static_cast<size_t>(pStart + i)] = -(offset[i] + 1);
    PetscCall(PetscSFBcastBegin(sf, MPIU_INT, neg.data(), recv.data(), MPI_REPLACE));
    PetscCall(PetscSFBcastEnd(sf, MPIU_INT, neg.data(), recv.data(), MPI_REPLACE));
    for (PetscInt i = 0; i < n; ++i)
      if (ghost[static_cast<size_t>(i)]) offset[i] = recv[static_cast<size_t>(pStart + i)];
  }
  std::copy(offset, offset + n, field_offset);
  // The counts as the owner's first: PETSc checks constraint indices against them.
  for (PetscInt p = pStart; p < pEnd; ++p) {
    const PetscInt dof = a.dof(p), cdof = a.n_constrained(p);
    if (dof != 0) {
      PetscCall(PetscSectionSetDof(gs, p, dof));
      PetscCall(PetscSectionSetFieldDof(gs, p, 0, dof));
    }
    if (cdof > 0) {
      PetscCall(PetscSectionSetConstraintDof(gs, p, cdof));
      PetscCall(PetscSectionSetFieldConstraintDof(gs, p, 0, cdof));
    }
  }
  PetscCall(PetscSectionSetUpBC(gs));
  PetscCall(PetscSectionSetUpBC(gfs));
  for (PetscInt p = pStart; p < pEnd; ++p) {
    if (a.n_constrained(p) == 0) continue;
    PetscCall(set_constraint_indices(gs, p, a.constrained(p)));  // the field's are the section's (one field)
  }
  for (PetscInt p = pStart; p < pEnd; ++p) {  // then a ghost's -(dof+1), as PETSc marks it
    if (!ghost[static_cast<size_t>(p - pStart)]) continue;
    PetscCall(PetscSectionSetDof(gs, p, -(a.dof(p) + 1)));
    PetscCall(PetscSectionSetFieldDof(gs, p, 0, -(a.dof(p) + 1)));
  }
  PetscCall(DMSetGlobalSection(level, gs));
  PetscCall(PetscSectionDestroy(&gs));
  *set = true;
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode plex_set_level_section(DM fine, DM level, bool *derived)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)level);
  PetscSection fine_section, s;
  PetscObject disc = nullptr;
  PetscInt Nc = 0, pStart = 0, pEnd = 0;
  const char *name = nullptr;
  std::string why;
  std::vector<LevelConstraint> constraints;
  std::vector<Stratum> strata;
  PetscFunctionBegin;
  *derived = false;
  PetscCall(DMGetLocalSection(fine, &fine_section));
  PetscCall(why_not_derived(fine, level, fine_section, &why));
  if (why.empty()) {
    bool ok;
    PetscCall(DMGetField(level, 0, nullptr, &disc));
    PetscCall(PetscFEGetNumComponents((PetscFE)disc, &Nc));
    PetscCall(level_strata(fine, (PetscFE)disc, &strata));
    PetscCall(level_constraints(strata, fine_section, Nc, &constraints, &ok));
    if (!ok) why = "the fine section has no DOFs on a point where the level has some, or constrains other components on different nodes of a point";
  }
  // Every rank derives, or none: PETSc's build and the global section below communicate,
  // and a rank's reasons (its cells' types, its points' constraints) are its own.
  PetscMPIInt here = why.empty() ? 1 : 0, everywhere;
  PetscCallMPI(MPI_Allreduce(&here, &everywhere, 1, MPI_INT, MPI_LAND, comm));
  if (!everywhere) {
    if (why.empty()) why = "another rank's part cannot be derived";
    PetscCall(PetscInfo(level, "fem_gpu_pmg: the level's section is built by PETSc: %s\n", why.c_str()));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscSectionCreate(comm, &s));
  PetscCall(PetscSectionSetNumFields(s, 1));
  PetscCall(PetscSectionSetFieldComponents(s, 0, Nc));
  level_chart(strata, &pStart, &pEnd);
  PetscCall(PetscSectionSetChart(s, pStart, pEnd));
  PetscCall(set_level_dofs(strata, s));
  PetscCall(PetscSectionSetFromOptions(s));  // as PETSc's build: -petscsection_point_major
  PetscCall(set_constraints(s, constraints));
  PetscCall(PetscObjectGetName(disc, &name));
  if (name) PetscCall(PetscSectionSetFieldName(s, 0, name));
  PetscCall(DMSetLocalSection(level, s));
  bool global_set;
  PetscCall(set_level_global_section(level, s, &global_set));
  if (!global_set) PetscCall(PetscInfo(level, "fem_gpu_pmg: the level's global section is built by PETSc (a mesh periodic through face SFs)\n"));
  PetscCall(PetscSectionDestroy(&s));
  *derived = true;
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
