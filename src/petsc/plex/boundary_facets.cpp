// Exterior facets of a DMPlex: boundary faces, their cells and local facet numbers.
#include "petsc/plex/boundary_facets.h"

#include <petscsf.h>

#include <algorithm>

namespace femgpu {

namespace {

// The vertices of point p in closure order.
PetscErrorCode closure_vertices(DM dm, PetscInt p, std::vector<PetscInt> *vertices)
{
  PetscInt vStart, vEnd, n, *closure = nullptr;
  PetscFunctionBegin;
  PetscCall(DMPlexGetDepthStratum(dm, 0, &vStart, &vEnd));
  PetscCall(DMPlexGetTransitiveClosure(dm, p, PETSC_TRUE, &n, &closure));
  vertices->clear();
  for (PetscInt k = 0; k < n; ++k)
    if (closure[2 * k] >= vStart && closure[2 * k] < vEnd) vertices->push_back(closure[2 * k]);
  PetscCall(DMPlexRestoreTransitiveClosure(dm, p, PETSC_TRUE, &n, &closure));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The local facet of `cell` that is `face`: the index of the cell's vertex not on it.
PetscErrorCode local_facet(DM dm, PetscInt cell, PetscInt face, PetscInt *facet)
{
  std::vector<PetscInt> cv, fv;
  PetscFunctionBegin;
  PetscCall(closure_vertices(dm, cell, &cv));
  PetscCall(closure_vertices(dm, face, &fv));
  *facet = -1;
  for (size_t j = 0; j < cv.size(); ++j)
    if (std::find(fv.begin(), fv.end(), cv[j]) == fv.end()) *facet = static_cast<PetscInt>(j);
  PetscCheck(*facet >= 0 && fv.size() + 1 == cv.size(), PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "fem_gpu: face %" PetscInt_FMT " is not a facet of its support cell %" PetscInt_FMT, face, cell);
  PetscFunctionReturn(PETSC_SUCCESS);
}

// shared[p] = 1 for the points another rank also holds (leaves of the point SF, and
// roots that some rank holds as a leaf): a face there is a partition face, not a boundary.
PetscErrorCode shared_points(DM dm, std::vector<char> *shared)
{
  PetscSF sf;
  PetscInt pStart, pEnd, nroots, nleaves;
  const PetscInt *local;
  const PetscSFNode *remote;
  PetscFunctionBegin;
  PetscCall(DMPlexGetChart(dm, &pStart, &pEnd));
  shared->assign(static_cast<size_t>(pEnd), 0);
  PetscCall(DMGetPointSF(dm, &sf));
  if (!sf) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscSFGetGraph(sf, &nroots, &nleaves, &local, &remote));
  if (nroots < 0) PetscFunctionReturn(PETSC_SUCCESS);  // no graph: one rank
  for (PetscInt k = 0; k < nleaves; ++k) (*shared)[static_cast<size_t>(local ? local[k] : k)] = 1;
  const PetscInt *degree;
  PetscCall(PetscSFComputeDegreeBegin(sf, &degree));
  PetscCall(PetscSFComputeDegreeEnd(sf, &degree));
  for (PetscInt p = 0; p < std::min(nroots, pEnd); ++p)
    if (degree[p] > 0) (*shared)[static_cast<size_t>(p)] = 1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode boundary_label_name(DM dm, const std::string &requested, std::string *name)
{
  PetscBool has;
  PetscFunctionBegin;
  name->clear();
  if (!requested.empty()) {
    PetscCall(DMHasLabel(dm, requested.c_str(), &has));
    PetscCheck(has, PetscObjectComm((PetscObject)dm), PETSC_ERR_ARG_WRONG,
               "fem_gpu: -mat_fem_gpu_boundary_label %s: the DM has no label of that name (ds(i) reads the label's value i)", requested.c_str());
    *name = requested;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (const char *candidate : {"Face Sets", "marker"}) {
    PetscCall(DMHasLabel(dm, candidate, &has));
    if (has) {
      *name = candidate;
      break;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode check_boundary_label_value(DM dm, const std::string &name, int value)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)dm);
  PetscInt n = 0, found;
  PetscFunctionBegin;
  PetscCheck(!name.empty(), comm, PETSC_ERR_ARG_WRONG,
             "fem_gpu: the form has ds(%d), but the DM has no boundary label ('Face Sets' or 'marker'; name one with -mat_fem_gpu_boundary_label)", value);
  DMLabel label;
  PetscCall(DMGetLabel(dm, name.c_str(), &label));
  if (label) PetscCall(DMLabelGetStratumSize(label, value, &n));
  PetscCall(MPIU_Allreduce(&n, &found, 1, MPIU_INT, MPI_SUM, comm));
  PetscCheck(found > 0, comm, PETSC_ERR_ARG_WRONG, "fem_gpu: the form has ds(%d), but the DM's label '%s' has no point with value %d", value,
             name.c_str(), value);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode boundary_facet_cells(DM dm, const std::string &name, std::optional<int> value, std::vector<std::vector<PetscInt>> *cells)
{
  DMLabel boundary, label = nullptr;
  PetscInt dim, cStart, cEnd, n_faces = 0;
  IS faces = nullptr;
  PetscFunctionBegin;
  PetscCall(DMGetDimension(dm, &dim));
  PetscCall(DMPlexGetHeightStratum(dm, 0, &cStart, &cEnd));
  cells->assign(static_cast<size_t>(dim + 1), {});
  std::vector<char> shared;
  PetscCall(shared_points(dm, &shared));
  PetscCall(DMLabelCreate(PETSC_COMM_SELF, "fem_gpu exterior facets", &boundary));
  PetscCall(DMPlexMarkBoundaryFaces(dm, 1, boundary));
  if (value) PetscCall(DMGetLabel(dm, name.c_str(), &label));
  PetscCall(DMLabelGetStratumIS(boundary, 1, &faces));
  if (faces) PetscCall(ISGetLocalSize(faces, &n_faces));
  const PetscInt *face = nullptr;
  if (faces) PetscCall(ISGetIndices(faces, &face));
  for (PetscInt k = 0; k < n_faces; ++k) {
    PetscInt v = -1, support_size, f = -1;
    const PetscInt *support;
    if (label) PetscCall(DMLabelGetValue(label, face[k], &v));
    if (value && v != *value) continue;
    PetscCall(DMPlexGetSupportSize(dm, face[k], &support_size));
    PetscCall(DMPlexGetSupport(dm, face[k], &support));
    if (support_size != 1 || support[0] < cStart || support[0] >= cEnd || shared[static_cast<size_t>(face[k])]) continue;
    PetscCall(local_facet(dm, support[0], face[k], &f));
    (*cells)[static_cast<size_t>(f)].push_back(support[0] - cStart);
  }
  if (faces) PetscCall(ISRestoreIndices(faces, &face));
  PetscCall(ISDestroy(&faces));
  PetscCall(DMLabelDestroy(&boundary));
  for (auto &c : *cells) std::sort(c.begin(), c.end());
  PetscFunctionReturn(PETSC_SUCCESS);
}

PlexMaps subset_maps(const PlexMaps &all, const std::vector<PetscInt> &cells)
{
  PlexMaps s;
  s.n_cells = static_cast<PetscInt>(cells.size());
  s.width = all.width;
  s.coordinate_width = all.coordinate_width;
  s.local_size = all.local_size;
  s.global_size = all.global_size;
  s.from_patterns = all.from_patterns;
  auto rows = [&](const IndexArray &from, PetscInt width, IndexArray *to) {
    if (from.empty()) return;
    for (PetscInt c : cells)
      to->insert(to->end(), from.begin() + c * width, from.begin() + (c + 1) * width);
  };
  rows(all.free, all.width, &s.free);
  rows(all.all, all.width, &s.all);
  rows(all.global_free, all.width, &s.global_free);
  auto coordinates = std::make_shared<IndexArray>();
  rows(*all.coordinates, all.coordinate_width, coordinates.get());
  s.coordinates = coordinates;
  return s;
}

}  // namespace femgpu
