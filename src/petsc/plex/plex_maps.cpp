// Closure maps and the form signature of a DMPlex.
#include "petsc/plex/plex_maps.h"

#include <petscdmplex.h>
#include <petscfe.h>
#include <petscsf.h>

#include <algorithm>

#include "fem/tabulation.h"
#include "petsc/base/composed_object.h"
#include "petsc/plex/plex_closure.h"
#include "petsc/plex/plex_coordinates.h"
#include "petsc/plex/plex_events.h"
#include "petsc/plex/section_arrays.h"
#include "petsc/plex/section_sf.h"

namespace femgpu {

namespace {

// Whether each entry of the local section is constrained (Dirichlet).
PetscErrorCode constrained_entries(PetscSection section, std::vector<char> *constrained)
{
  PetscInt n;
  SectionArrays a;
  PetscFunctionBegin;
  PetscCall(PetscSectionGetStorageSize(section, &n));
  PetscCall(section_arrays(section, -1, &a));
  constrained->assign(static_cast<size_t>(n), 0);
  for (PetscInt p = a.pStart; p < a.pEnd; ++p)
    for (PetscInt k = 0; k < a.n_constrained(p); ++k) (*constrained)[static_cast<size_t>(a.offset(p) + a.constrained(p)[k])] = 1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The mesh's cell type, the same on every rank: ranks without cells take the others'
// (a mesh of 2 cells on 3 ranks leaves one empty); ranks with different types are an error.
PetscErrorCode mesh_cell_type(DM dm, PetscInt cStart, PetscInt cEnd, DMPolytopeType *ct)
{
  MPI_Comm comm;
  PetscInt mine = -1, range[2];
  PetscFunctionBegin;
  PetscCall(PetscObjectGetComm((PetscObject)dm, &comm));
  if (cEnd > cStart) {
    DMPolytopeType t;
    PetscCall(DMPlexGetCellType(dm, cStart, &t));
    mine = static_cast<PetscInt>(t);
  }
  range[0] = mine < 0 ? PETSC_MAX_INT : mine;  // smallest and largest over ranks with cells
  range[1] = mine;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &range[0], 1, MPIU_INT, MPI_MIN, comm));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &range[1], 1, MPIU_INT, MPI_MAX, comm));
  PetscCheck(range[0] == range[1] || range[1] < 0, comm, PETSC_ERR_SUP, "fem_gpu: the ranks' meshes have different cell types (%s and %s)",
             DMPolytopeTypes[range[0]], DMPolytopeTypes[range[1]]);
  *ct = range[1] < 0 ? DM_POLYTOPE_TRIANGLE : static_cast<DMPolytopeType>(range[1]);  // no cells anywhere: any simplex
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Field 0's PetscFE, checked to be a Lagrange element: its degree and components.
PetscErrorCode lagrange_field(DM dm, PetscFE *fe, PetscInt *degree, PetscInt *Nc)
{
  PetscInt nf;
  PetscObject obj;
  PetscClassId id;
  PetscSpace space;
  PetscDualSpace dual;
  PetscBool lagrange;
  MPI_Comm comm = PetscObjectComm((PetscObject)dm);
  PetscFunctionBegin;
  PetscCall(DMGetNumFields(dm, &nf));
  PetscCheck(nf == 1, comm, PETSC_ERR_SUP, "fem_gpu needs a DM with exactly one field; this DM has %" PetscInt_FMT, nf);
  PetscCall(DMGetField(dm, 0, nullptr, &obj));
  PetscCall(PetscObjectGetClassId(obj, &id));
  PetscCheck(id == PETSCFE_CLASSID, comm, PETSC_ERR_SUP, "fem_gpu needs a PetscFE field (Lagrange); field 0 is not a PetscFE");
  *fe = (PetscFE)obj;
  PetscCall(PetscFEGetNumComponents(*fe, Nc));
  PetscCall(PetscFEGetBasisSpace(*fe, &space));
  PetscCall(PetscSpaceGetDegree(space, degree, nullptr));
  PetscCall(PetscFEGetDualSpace(*fe, &dual));
  PetscCall(PetscObjectTypeCompare((PetscObject)dual, PETSCDUALSPACELAGRANGE, &lagrange));
#if !PETSC_VERSION_LT(3, 19, 0)
  if (!lagrange && *Nc > 1) {  // newer PETSc builds vector Lagrange as a sum of scalar ones
    PetscBool sum;
    PetscCall(PetscObjectTypeCompare((PetscObject)dual, PETSCDUALSPACESUM, &sum));
    if (sum) {
      PetscDualSpace sub;
      PetscCall(PetscDualSpaceSumGetSubspace(dual, 0, &sub));
      PetscCall(PetscObjectTypeCompare((PetscObject)sub, PETSCDUALSPACELAGRANGE, &lagrange));
    }
  }
#endif
  PetscCheck(lagrange, comm, PETSC_ERR_SUP, "fem_gpu needs a Lagrange element; field 0 has a different dual space");
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The coordinate field's degree, from its closure size on the first cell (collective:
// ranks without cells follow the others).
PetscErrorCode coordinate_degree(DM dm, PetscInt dim, PetscInt cStart, PetscInt cEnd, int *degree)
{
  DM cdm;
  PetscSection cs;
  PetscInt nodes = 0;
  MPI_Comm comm = PetscObjectComm((PetscObject)dm);
  PetscFunctionBegin;
  PetscCall(DMGetCoordinateDM(dm, &cdm));
  PetscCall(DMGetLocalSection(cdm, &cs));
  if (cEnd > cStart) {
    PetscScalar *vals = nullptr;
    Vec coords;
    PetscCall(DMGetCoordinatesLocal(dm, &coords));
    PetscCall(DMPlexVecGetClosure(cdm, cs, coords, cStart, &nodes, &vals));
    PetscCall(DMPlexVecRestoreClosure(cdm, cs, coords, cStart, &nodes, &vals));
    nodes /= dim;
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &nodes, 1, MPIU_INT, MPI_MAX, comm));
  if (nodes == 0 || nodes == dim + 1) *degree = 1;
  else if (nodes == lagrange_dimension(static_cast<int>(dim), 2)) *degree = 2;
  else SETERRQ(comm, PETSC_ERR_SUP, "fem_gpu supports P1 and P2 coordinates; this mesh has %" PetscInt_FMT " coordinate nodes per cell", nodes);
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode plex_form_signature(DM dm, FormSignature *signature)
{
  PetscInt dim, cdim, cStart, cEnd, Nc, degree, closure;
  DMPolytopeType ct = DM_POLYTOPE_TRIANGLE;
  PetscFE fe = nullptr;
  MPI_Comm comm;
  PetscFunctionBegin;
  PetscCall(PetscObjectGetComm((PetscObject)dm, &comm));
  PetscCall(DMGetDimension(dm, &dim));
  PetscCall(DMGetCoordinateDim(dm, &cdim));
  PetscCall(plex_check_coordinate_layout(dm));
  PetscCheck(dim == cdim, comm, PETSC_ERR_SUP, "fem_gpu: the mesh has dimension %" PetscInt_FMT " in %" PetscInt_FMT "D space; only meshes of full dimension are supported", dim, cdim);
  PetscCall(DMPlexGetHeightStratum(dm, 0, &cStart, &cEnd));
  PetscCall(mesh_cell_type(dm, cStart, cEnd, &ct));
  PetscCheck(ct == DM_POLYTOPE_TRIANGLE || ct == DM_POLYTOPE_TETRAHEDRON, comm, PETSC_ERR_SUP,
             "fem_gpu supports triangle and tetrahedron meshes; this mesh has %s cells (use -dm_plex_simplex 1)", DMPolytopeTypes[ct]);
  PetscCall(lagrange_field(dm, &fe, &degree, &Nc));
  PetscCall(PetscFEGetDimension(fe, &closure));
  // A rank without cells may hold PETSc's tensor-product element (DMPlexIsSimplex is false
  // there), so only ranks with cells check the element's size.
  PetscCheck(degree >= 1 && (cEnd == cStart || closure == lagrange_dimension(dim, degree) * Nc), PETSC_COMM_SELF, PETSC_ERR_SUP,
             "fem_gpu needs a continuous P_k Lagrange element (k >= 1); field 0 has degree %" PetscInt_FMT " and %" PetscInt_FMT " basis functions", degree, closure);
  signature->cell = dim == 2 ? CellType::Triangle : CellType::Tetrahedron;
  signature->element = Element{static_cast<int>(degree), static_cast<int>(Nc)};
  PetscCall(coordinate_degree(dm, dim, cStart, cEnd, &signature->coordinate_degree));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Local index -> index in this rank's part of the global Vec, -1 for constrained DOFs, and
// its inverse (global index -> local index), on one rank: the section SF's leaves and
// roots (every unconstrained local DOF is a leaf, its root the global index), so the
// sections are not walked a second time.
static PetscErrorCode local_to_global_offsets(DM dm, PetscInt n_local, IndexArray *g, IndexArray *l)
{
  PetscSF sf;
  PetscInt nroots, nleaves;
  const PetscInt *ilocal;
  const PetscSFNode *iremote;
  PetscFunctionBegin;
  PetscCall(DMGetSectionSF(dm, &sf));
  PetscCall(PetscSFGetGraph(sf, &nroots, &nleaves, &ilocal, &iremote));
  PetscCheck(nleaves <= n_local, PETSC_COMM_SELF, PETSC_ERR_PLIB, "fem_gpu: the section SF has %" PetscInt_FMT " leaves for %" PetscInt_FMT " local DOFs", nleaves, n_local);
  g->assign(static_cast<size_t>(n_local), -1);
  // The inverse where every global DOF has one leaf (else left empty: dm_scatter.h then
  // takes PETSc's DMGlobalToLocal and DMLocalToGlobal).
  const bool inverse = nleaves == nroots;
  l->resize(inverse ? static_cast<size_t>(nroots) : 0);
#pragma omp parallel for schedule(static) if (nleaves > (1 << 20))
  for (PetscInt k = 0; k < nleaves; ++k) {
    const PetscInt local = ilocal ? ilocal[k] : k;
    (*g)[static_cast<size_t>(local)] = static_cast<int>(iremote[k].index);
    if (inverse) (*l)[static_cast<size_t>(iremote[k].index)] = static_cast<int>(local);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The coordinate map: per cell, the first coordinate of each of femgpu's coordinate nodes
// (cellwise coordinates list a cell's nodes in another order: plex_coordinates.h).
static PetscErrorCode coordinate_map(DM dm, PetscInt cStart, PetscInt cEnd, std::shared_ptr<const CellKeyHashes> *hashes, PlexMaps *maps)
{
  DM cdm;
  PetscSection csection;
  IndexArray per_component;
  std::vector<int> order;
  PetscInt width = 0, dim;
  PetscFunctionBegin;
  PetscCall(DMGetCoordinateDM(dm, &cdm));
  PetscCall(DMGetLocalSection(cdm, &csection));
  PetscCall(plex_closure_indices(cdm, csection, cStart, cEnd, &width, &per_component, &maps->coordinates_from_patterns, hashes));
  PetscCall(DMGetCoordinateDim(dm, &dim));
  PetscCall(plex_coordinate_closure_order(dm, width, &order));
  // One entry per node: the kernels read a node's dim coordinates from there on.
  maps->coordinate_width = width / dim;
  const size_t nodes = per_component.size() / static_cast<size_t>(dim);
  const size_t per_cell = static_cast<size_t>(maps->coordinate_width);
  auto map = std::make_shared<IndexArray>();
  map->resize(nodes);
  int *out = map->data();
  long long apart = -1;  // a node whose coordinates are not contiguous
#pragma omp parallel for schedule(static) reduction(max : apart) if (nodes > (1u << 20))
  for (size_t node = 0; node < nodes; ++node) {
    const int *closure = per_component.data() + node / per_cell * static_cast<size_t>(width);
    const int *entry = order.data() + node % per_cell * static_cast<size_t>(dim);
    for (PetscInt c = 1; c < dim; ++c)
      if (closure[entry[c]] != closure[entry[0]] + c) apart = std::max(apart, static_cast<long long>(node));
    out[node] = closure[entry[0]];
  }
  maps->coordinates = map;
  PetscCheck(apart < 0, PETSC_COMM_SELF, PETSC_ERR_SUP, "fem_gpu: coordinates of a node are not contiguous in the coordinate section");
  PetscFunctionReturn(PETSC_SUCCESS);
}

// What the coordinate map is read from: the coordinate section and local coordinates.
static PetscErrorCode coordinate_key(DM dm, PetscObjectId *section_id, PetscObjectId *coordinates_id, PetscObjectState *state)
{
  DM cdm;
  PetscSection csection;
  Vec coordinates;
  PetscFunctionBegin;
  PetscCall(DMGetCoordinateDM(dm, &cdm));
  PetscCall(DMGetLocalSection(cdm, &csection));
  PetscCall(DMGetCoordinatesLocal(dm, &coordinates));
  PetscCall(PetscObjectGetId((PetscObject)csection, section_id));
  PetscCall(PetscObjectGetId((PetscObject)coordinates, coordinates_id));
  PetscCall(PetscObjectStateGet((PetscObject)coordinates, state));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The mesh's parts of the maps (cell keys, coordinate map): from `mesh` where it was read
// from the same cones, coordinate section and coordinates, else walked here.
static PetscErrorCode mesh_parts(DM dm, PetscInt cStart, PetscInt cEnd, const PlexMaps *mesh, std::shared_ptr<const CellKeyHashes> *hashes, PlexMaps *maps)
{
  PetscFunctionBegin;
  PetscCall(coordinate_key(dm, &maps->coordinate_section_id, &maps->coordinates_id, &maps->coordinates_state));
  if (mesh && mesh->n_cells == maps->n_cells && mesh->coordinate_section_id == maps->coordinate_section_id &&
      mesh->coordinates_id == maps->coordinates_id && mesh->coordinates_state == maps->coordinates_state) {
    maps->coordinate_width = mesh->coordinate_width;
    maps->coordinates = mesh->coordinates;  // the same array: one host and one device copy
    maps->coordinates_from_patterns = mesh->coordinates_from_patterns;
    PetscCall(PetscInfo(dm, "fem_gpu: the coordinate map of a DM on the same mesh\n"));
  } else {
    PetscCall(coordinate_map(dm, cStart, cEnd, hashes, maps));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode plex_build_maps(DM dm, PlexMaps *maps, const PlexMaps *mesh)
{
  PetscSection section;
  PetscInt cStart, cEnd;
  PetscFunctionBegin;
  PetscCall(DMPlexGetHeightStratum(dm, 0, &cStart, &cEnd));
  maps->n_cells = cEnd - cStart;
  PetscCall(DMGetLocalSection(dm, &section));
  PetscCall(PetscSectionGetStorageSize(section, &maps->local_size));
  bool fast_dofs;
  // The cells' closure keys, walked once for both closures (or taken from a DM on the same
  // mesh: plex_closure_indices checks they were walked on these cones and cells).
  std::shared_ptr<const CellKeyHashes> hashes = mesh ? mesh->cell_keys : nullptr;
  PetscCall(plex_closure_indices(dm, section, cStart, cEnd, &maps->width, &maps->all, &fast_dofs, &hashes));
  std::vector<char> constrained;
  PetscCall(constrained_entries(section, &constrained));
  maps->free.resize(maps->all.size());
#pragma omp parallel for schedule(static) if (maps->all.size() > (1u << 20))
  for (size_t k = 0; k < maps->all.size(); ++k) maps->free[k] = constrained[static_cast<size_t>(maps->all[k])] ? -1 : maps->all[k];
  // The section SF from the same arrays, before the first DMGlobalToLocal would build it
  // (femgpu maps a DM at the first residual's boundary values, ahead of SNES's DMGlobalToLocal).
  PetscCall(PetscLogEventBegin(FEMGPU_SectionSF, dm, 0, 0, 0));
  PetscCall(plex_set_section_sf(dm));
  PetscCall(PetscLogEventEnd(FEMGPU_SectionSF, dm, 0, 0, 0));
  PetscMPIInt size;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)dm), &size));
  if (size == 1) {
    const IndexArray &g = maps->global_of_local;
    PetscCall(local_to_global_offsets(dm, maps->local_size, &maps->global_of_local, &maps->local_of_global));
    maps->global_free.resize(maps->free.size());
#pragma omp parallel for schedule(static) if (maps->free.size() > (1u << 20))
    for (size_t k = 0; k < maps->free.size(); ++k) maps->global_free[k] = maps->free[k] < 0 ? -1 : g[static_cast<size_t>(maps->free[k])];
    PetscSection gs;
    PetscCall(DMGetGlobalSection(dm, &gs));
    PetscCall(PetscSectionGetConstrainedStorageSize(gs, &maps->global_size));
  }
  PetscCall(mesh_parts(dm, cStart, cEnd, mesh, &hashes, maps));
  maps->from_patterns = fast_dofs && maps->coordinates_from_patterns;
  maps->cell_keys = hashes;
  PetscFunctionReturn(PETSC_SUCCESS);
}

namespace {

constexpr const char *kSharedMapsKey = "femgpu_plex_maps";
constexpr const char *kMeshMapsKey = "femgpu_plex_maps_of_the_mesh";  // plex_maps_share_mesh

// What shared maps were built from: the local section (and its state), the coordinates' state.
struct SharedMaps {
  std::shared_ptr<const PlexMaps> maps;
  PetscSection section = nullptr;
  PetscObjectState section_state = -1, coordinates_state = -1;
};

PetscErrorCode current_key(DM dm, SharedMaps *key)
{
  Vec coordinates;
  PetscFunctionBegin;
  PetscCall(DMGetLocalSection(dm, &key->section));
  PetscCall(PetscObjectStateGet((PetscObject)key->section, &key->section_state));
  PetscCall(DMGetCoordinatesLocal(dm, &coordinates));
  PetscCall(PetscObjectStateGet((PetscObject)coordinates, &key->coordinates_state));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode plex_shared_maps(DM dm, std::shared_ptr<const PlexMaps> *maps)
{
  SharedMaps now, *had;
  PetscFunctionBegin;
  PetscCall(current_key(dm, &now));
  PetscCall(query_owned((PetscObject)dm, kSharedMapsKey, &had));
  if (had && had->section == now.section && had->section_state == now.section_state && had->coordinates_state == now.coordinates_state) {
    *maps = had->maps;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  auto built = std::make_shared<PlexMaps>();
  std::shared_ptr<const PlexMaps> *composed, mesh;
  PetscCall(query_owned((PetscObject)dm, kMeshMapsKey, &composed));
  if (composed) mesh = *composed;
  PetscCall(PetscLogEventBegin(FEMGPU_PlexMaps, dm, 0, 0, 0));
  PetscCall(plex_build_maps(dm, built.get(), mesh.get()));
  PetscCall(PetscLogEventEnd(FEMGPU_PlexMaps, dm, 0, 0, 0));
  // Used once: the other DM's maps are not kept alive, only the parts shared with them.
  if (composed) PetscCall(PetscObjectCompose((PetscObject)dm, kMeshMapsKey, nullptr));
  built->device_copies = std::make_shared<DeviceCopies>();  // the arrays are final from here on
  for (const IndexArray *a : {&built->free, &built->all, &built->global_free}) built->device_copies->list(a->data(), a->size());
  // A coordinate map taken from the mesh's maps is listed there: its readers here get
  // that owner's device copy.
  const IndexArray &coordinates = *built->coordinates;
  if (mesh && mesh->coordinates == built->coordinates && mesh->device_copies)
    built->device_copies->list_shared(coordinates.data(), coordinates.size(), mesh->device_copies);
  else
    built->device_copies->list(coordinates.data(), coordinates.size());
  now.maps = built;
  *maps = built;
  PetscCall(compose_owned((PetscObject)dm, kSharedMapsKey, new SharedMaps(now)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode plex_maps_share_mesh(DM from, DM to)
{
  SharedMaps *had;
  PetscFunctionBegin;
  PetscCall(query_owned((PetscObject)from, kSharedMapsKey, &had));
  if (had) PetscCall(compose_owned((PetscObject)to, kMeshMapsKey, new std::shared_ptr<const PlexMaps>(had->maps)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
