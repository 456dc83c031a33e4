// Closure indices from section offsets and closure points (see plex_closure.h), and
// PETSc's own per-cell DMPlexVecGetClosure on an index vector, which checks them.
#include "petsc/plex_closure.h"

#include <algorithm>
#include <unordered_map>

namespace femgpu {

namespace {

// A local vector of `section` holding each entry's own index.
PetscErrorCode index_vector(PetscSection section, Vec *v)
{
  PetscInt n;
  PetscScalar *a;
  PetscFunctionBegin;
  PetscCall(PetscSectionGetStorageSize(section, &n));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, n, v));
  PetscCall(VecGetArray(*v, &a));
  for (PetscInt i = 0; i < n; ++i) a[i] = static_cast<PetscScalar>(i);
  PetscCall(VecRestoreArray(*v, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The closure of `cell` read through DMPlexVecGetClosure from `indices` (index_vector).
PetscErrorCode cell_closure_by_vec(DM dm, PetscSection section, Vec indices, PetscInt cell, std::vector<int> *out)
{
  PetscInt n = 0;
  PetscScalar *idx = nullptr;
  PetscFunctionBegin;
  PetscCall(DMPlexVecGetClosure(dm, section, indices, cell, &n, &idx));
  out->resize(static_cast<size_t>(n));
  for (PetscInt i = 0; i < n; ++i) (*out)[static_cast<size_t>(i)] = static_cast<int>(PetscRealPart(idx[i]));
  PetscCall(DMPlexVecRestoreClosure(dm, section, indices, cell, &n, &idx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The cone arrays of the DM, with each point's cone offset: the transitive closure walks
// them without a call per point.
struct Cones {
  PetscInt pStart = 0;
  const PetscInt *points = nullptr, *orientations = nullptr;
  std::vector<PetscInt> offset, size;  // by point - pStart
  const PetscInt *cone(PetscInt p) const { return points + offset[static_cast<size_t>(p - pStart)]; }
  const PetscInt *orientation(PetscInt p) const { return orientations + offset[static_cast<size_t>(p - pStart)]; }
  PetscInt n(PetscInt p) const { return size[static_cast<size_t>(p - pStart)]; }
};

PetscErrorCode get_cones(DM dm, Cones *cones)
{
  PetscSection cs;
  PetscInt pEnd;
  PetscInt *points, *orientations;
  PetscFunctionBegin;
  PetscCall(DMPlexGetConeSection(dm, &cs));
  PetscCall(DMPlexGetCones(dm, &points));
  PetscCall(DMPlexGetConeOrientations(dm, &orientations));
  cones->points = points;
  cones->orientations = orientations;
  PetscCall(PetscSectionGetChart(cs, &cones->pStart, &pEnd));
  cones->offset.resize(static_cast<size_t>(pEnd - cones->pStart));
  cones->size.resize(cones->offset.size());
  for (PetscInt p = cones->pStart; p < pEnd; ++p) {
    PetscCall(PetscSectionGetOffset(cs, p, &cones->offset[static_cast<size_t>(p - cones->pStart)]));
    PetscCall(PetscSectionGetDof(cs, p, &cones->size[static_cast<size_t>(p - cones->pStart)]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A closure point reached from the cell by cone indices (at most 3 steps: tetrahedron,
// face, edge), with the orientation PETSc's closure gives it.
struct PathPoint {
  signed char steps = 0, index[3] = {0, 0, 0};
  PetscInt orientation = 0;
};

// PETSc's transitive closure orders points and composes orientations from the cones'
// orientations alone (DMPolytopeType arrangements), so cells whose cones (and their
// cones') orientations agree have their closures at the same cone paths. The key: those
// orientations, depth first; the pattern: PETSc's closure of the first cell with the key.
using ClosureKey = std::vector<PetscInt>;

void closure_key(const Cones &cones, PetscInt p, ClosureKey *key)
{
  const PetscInt n = cones.n(p);
  const PetscInt *cone = cones.cone(p), *o = cones.orientation(p);
  key->push_back(n);
  for (PetscInt k = 0; k < n; ++k) key->push_back(o[k]);
  for (PetscInt k = 0; k < n; ++k) closure_key(cones, cone[k], key);
}

PetscInt follow(const Cones &cones, PetscInt cell, const PathPoint &path)
{
  PetscInt p = cell;
  for (int s = 0; s < path.steps; ++s) p = cones.cone(p)[path.index[s]];
  return p;
}

// The path to `target` from `cell`, found breadth first (any path reaches the same point).
bool find_path(const Cones &cones, PetscInt cell, PetscInt target, PathPoint *path)
{
  std::vector<PathPoint> frontier{PathPoint{}};
  for (int depth = 0; depth <= 3 && !frontier.empty(); ++depth) {
    std::vector<PathPoint> next;
    for (const PathPoint &candidate : frontier) {
      const PetscInt p = follow(cones, cell, candidate);
      if (p == target) return *path = candidate, true;
      for (PetscInt k = 0; k < cones.n(p) && depth < 3; ++k) {
        PathPoint longer = candidate;
        longer.index[longer.steps++] = static_cast<signed char>(k);
        next.push_back(longer);
      }
    }
    frontier = std::move(next);
  }
  return false;
}

PetscErrorCode calibrate(DM dm, const Cones &cones, PetscInt cell, std::vector<PathPoint> *pattern)
{
  PetscInt n = 0, *points = nullptr;
  bool found = true;
  PetscFunctionBegin;
  PetscCall(DMPlexGetTransitiveClosure(dm, cell, PETSC_TRUE, &n, &points));
  pattern->resize(static_cast<size_t>(n));
  for (PetscInt k = 0; k < n && found; ++k) {
    found = find_path(cones, cell, points[2 * k], &(*pattern)[static_cast<size_t>(k)]);
    (*pattern)[static_cast<size_t>(k)].orientation = points[2 * k + 1];
  }
  PetscCall(DMPlexRestoreTransitiveClosure(dm, cell, PETSC_TRUE, &n, &points));
  PetscCheck(found, PETSC_COMM_SELF, PETSC_ERR_PLIB, "fem_gpu: a closure point of cell %" PetscInt_FMT " is not on a cone path", cell);
  PetscFunctionReturn(PETSC_SUCCESS);
}

struct KeyHash {
  size_t operator()(const ClosureKey &k) const
  {
    size_t h = 1469598103934665603ull;
    for (PetscInt v : k) h = (h ^ static_cast<size_t>(v + 64)) * 1099511628211ull;
    return h;
  }
};

// Closure points (point, orientation pairs, compressed to [pStart, pEnd)) of cells
// [c0, c1), each cell's `per_cell` pairs after the previous one's.
class ClosureWalker {
 public:
  ClosureWalker(DM dm, const Cones &cones) : dm_(dm), cones_(cones) {}
  PetscErrorCode points(PetscInt c0, PetscInt c1, PetscInt pStart, PetscInt pEnd, std::vector<PetscInt> *pairs, PetscInt *per_cell);

 private:
  DM dm_;
  const Cones &cones_;
  std::unordered_map<ClosureKey, std::vector<PathPoint>, KeyHash> patterns_;
  ClosureKey key_;
};

PetscErrorCode ClosureWalker::points(PetscInt c0, PetscInt c1, PetscInt pStart, PetscInt pEnd, std::vector<PetscInt> *pairs, PetscInt *per_cell)
{
  PetscFunctionBegin;
  pairs->clear();
  *per_cell = -1;
  for (PetscInt c = c0; c < c1; ++c) {
    key_.clear();
    closure_key(cones_, c, &key_);
    auto it = patterns_.find(key_);
    if (it == patterns_.end()) {
      std::vector<PathPoint> pattern;
      PetscCall(calibrate(dm_, cones_, c, &pattern));
      it = patterns_.emplace(key_, std::move(pattern)).first;
    }
    const size_t before = pairs->size();
    for (const PathPoint &pp : it->second) {
      const PetscInt p = follow(cones_, c, pp);
      if (p < pStart || p >= pEnd) continue;
      for (size_t k = before; k < pairs->size(); k += 2)  // distinct points, or the pattern does not fit
        PetscCheck((*pairs)[k] != p, PETSC_COMM_SELF, PETSC_ERR_PLIB, "fem_gpu: cell %" PetscInt_FMT "'s closure pattern repeats a point", c);
      pairs->push_back(p);
      pairs->push_back(pp.orientation);
    }
    const PetscInt n = static_cast<PetscInt>(pairs->size() - before) / 2;
    PetscCheck(*per_cell < 0 || n == *per_cell, PETSC_COMM_SELF, PETSC_ERR_SUP,
               "fem_gpu: cell %" PetscInt_FMT " has %" PetscInt_FMT " closure points, cell %" PetscInt_FMT " has %" PetscInt_FMT " (mixed meshes are not supported)",
               c, n, c0, *per_cell);
    *per_cell = n;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Field f's (or, f < 0, the section's) DOF count and offset of every point of the chart.
PetscErrorCode point_layout(PetscSection section, PetscInt f, std::vector<PetscInt> *dof, std::vector<PetscInt> *off)
{
  PetscInt pStart, pEnd;
  PetscFunctionBegin;
  PetscCall(PetscSectionGetChart(section, &pStart, &pEnd));
  dof->resize(static_cast<size_t>(pEnd - pStart));
  off->resize(dof->size());
  for (PetscInt p = pStart; p < pEnd; ++p) {
    const size_t i = static_cast<size_t>(p - pStart);
    if (f < 0) PetscCall(PetscSectionGetDof(section, p, &(*dof)[i]));
    else PetscCall(PetscSectionGetFieldDof(section, p, f, &(*dof)[i]));
    if (f < 0) PetscCall(PetscSectionGetOffset(section, p, &(*off)[i]));
    else PetscCall(PetscSectionGetFieldOffset(section, p, f, &(*off)[i]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Whether the fast closures agree with DMPlexVecGetClosure on up to 64 cells spread over
// the range (the first and last included): a closure permutation or another layout would
// differ on every cell, so a sample finds it.
PetscErrorCode agrees_with_petsc(DM dm, PetscSection section, Vec idx, PetscInt cStart, PetscInt cEnd, PetscInt width, const std::vector<int> &indices,
                                 bool *agrees)
{
  const PetscInt n = cEnd - cStart, samples = std::min<PetscInt>(n, 64);
  std::vector<int> want;
  PetscFunctionBegin;
  *agrees = true;
  for (PetscInt s = 0; s < samples && *agrees; ++s) {
    const PetscInt c = cStart + (samples > 1 ? s * (n - 1) / (samples - 1) : 0);
    PetscCall(cell_closure_by_vec(dm, section, idx, c, &want));
    *agrees = static_cast<PetscInt>(want.size()) == width && std::equal(want.begin(), want.end(), indices.begin() + (c - cStart) * width);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode plex_closure_indices_by_vec(DM dm, PetscSection section, PetscInt cStart, PetscInt cEnd, PetscInt *width, std::vector<int> *indices)
{
  Vec idx;
  std::vector<int> cell;
  PetscFunctionBegin;
  *width = 0;
  indices->clear();
  PetscCall(index_vector(section, &idx));
  for (PetscInt c = cStart; c < cEnd; ++c) {
    PetscCall(cell_closure_by_vec(dm, section, idx, c, &cell));
    if (c == cStart) *width = static_cast<PetscInt>(cell.size()), indices->reserve(cell.size() * static_cast<size_t>(cEnd - cStart));
    PetscCheck(static_cast<PetscInt>(cell.size()) == *width, PETSC_COMM_SELF, PETSC_ERR_SUP,
               "fem_gpu: cell %" PetscInt_FMT " has %zu closure DOFs, cell %" PetscInt_FMT " has %" PetscInt_FMT " (mixed meshes are not supported)", c,
               cell.size(), cStart, *width);
    indices->insert(indices->end(), cell.begin(), cell.end());
  }
  PetscCall(VecDestroy(&idx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

namespace {

// Field f's (or, f < 0, the section's) DOFs of the closure points `pairs` of n cells into
// `out` (a cell's after the previous one's), each point's placed by the section's
// symmetry for its orientation (PetscSectionGetPointSyms: the dual space's permutation),
// as DMPlexVecGetClosure_Static and _Fields_Static place values; `field_start` is where
// this field's DOFs begin in a cell's closure. A sign flip (not Lagrange) is refused.
struct FieldLayout {
  PetscInt field;                // -1: the section itself
  std::vector<PetscInt> dof, off;  // by point - pStart
};

PetscErrorCode place_field(PetscSection section, const FieldLayout &layout, const std::vector<PetscInt> &pairs, PetscInt points_per_cell, PetscInt width,
                           PetscInt field_start, int *out, PetscInt *field_width)
{
  const PetscInt **perms = nullptr;
  const PetscScalar **flips = nullptr;
  const std::vector<PetscInt> &dof = layout.dof, &off = layout.off;
  const PetscInt f = layout.field;
  PetscInt pStart, pEnd;
  bool flipped = false, overflow = false;
  const PetscInt n_points = static_cast<PetscInt>(pairs.size() / 2);
  PetscFunctionBegin;
  PetscCall(PetscSectionGetChart(section, &pStart, &pEnd));
  if (f < 0) PetscCall(PetscSectionGetPointSyms(section, n_points, pairs.data(), &perms, &flips));
  else PetscCall(PetscSectionGetFieldPointSyms(section, f, n_points, pairs.data(), &perms, &flips));
  *field_width = -1;
  for (PetscInt q = 0, cell = 0; q < n_points && !overflow; q += points_per_cell, ++cell) {
    int *cell_out = out + cell * width;
    PetscInt offset = field_start;
    for (PetscInt p = q; p < q + points_per_cell && !overflow; ++p) {
      const size_t i = static_cast<size_t>(pairs[static_cast<size_t>(2 * p)] - pStart);
      const PetscInt *perm = perms ? perms[p] : nullptr;
      const PetscScalar *flip = flips ? flips[p] : nullptr;
      overflow = offset + dof[i] > width;
      for (PetscInt d = 0; d < dof[i] && !overflow; ++d) {
        cell_out[offset + (perm ? perm[d] : d)] = static_cast<int>(off[i] + d);
        flipped = flipped || (flip && flip[d] != 1.0);
      }
      offset += dof[i];
    }
    overflow = overflow || (*field_width >= 0 && offset - field_start != *field_width);
    *field_width = offset - field_start;
  }
  if (f < 0) PetscCall(PetscSectionRestorePointSyms(section, n_points, pairs.data(), &perms, &flips));
  else PetscCall(PetscSectionRestoreFieldPointSyms(section, f, n_points, pairs.data(), &perms, &flips));
  PetscCheck(!overflow, PETSC_COMM_SELF, PETSC_ERR_SUP, "fem_gpu: cells have different numbers of closure DOFs (mixed meshes are not supported)");
  PetscCheck(!flipped, PETSC_COMM_SELF, PETSC_ERR_SUP, "fem_gpu: the section flips the sign of closure DOFs; only Lagrange elements are supported");
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The fast path, in chunks of cells (the closure points of all cells at once would take
// more memory than the maps).
PetscErrorCode closure_by_patterns(DM dm, PetscSection section, PetscInt cStart, PetscInt cEnd, PetscInt width, std::vector<int> *indices)
{
  constexpr PetscInt kChunk = 1 << 15;
  Cones cones;
  PetscInt pStart, pEnd, fields;
  std::vector<PetscInt> pairs;
  PetscFunctionBegin;
  PetscCall(get_cones(dm, &cones));
  PetscCall(PetscSectionGetChart(section, &pStart, &pEnd));
  PetscCall(PetscSectionGetNumFields(section, &fields));
  ClosureWalker walker(dm, cones);
  std::vector<FieldLayout> layouts;
  for (PetscInt f = fields ? 0 : -1; f < std::max<PetscInt>(fields, 0); ++f) {
    layouts.push_back({f, {}, {}});
    PetscCall(point_layout(section, f, &layouts.back().dof, &layouts.back().off));
  }
  indices->assign(static_cast<size_t>(width) * static_cast<size_t>(cEnd - cStart), -1);
  for (PetscInt c0 = cStart; c0 < cEnd; c0 += kChunk) {
    const PetscInt c1 = std::min(cEnd, c0 + kChunk);
    PetscInt per_cell, start = 0;
    PetscCall(walker.points(c0, c1, pStart, pEnd, &pairs, &per_cell));
    int *out = indices->data() + static_cast<size_t>(c0 - cStart) * static_cast<size_t>(width);
    for (const FieldLayout &layout : layouts) {
      PetscInt field_width = 0;
      PetscCall(place_field(section, layout, pairs, per_cell, width, start, out, &field_width));
      start += field_width;
    }
    PetscCheck(start == width, PETSC_COMM_SELF, PETSC_ERR_PLIB, "fem_gpu: closures have %" PetscInt_FMT " DOFs, DMPlexVecGetClosure %" PetscInt_FMT, start, width);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode plex_closure_indices(DM dm, PetscSection section, PetscInt cStart, PetscInt cEnd, PetscInt *width, std::vector<int> *indices, bool *from_patterns)
{
  PetscInt depth, dim;
  bool agrees = false;
  PetscFunctionBegin;
  PetscCall(DMPlexGetDepth(dm, &depth));
  PetscCall(DMGetDimension(dm, &dim));
  *width = 0;
  indices->clear();
  if (depth == dim && dim <= 3 && cEnd > cStart) {  // interpolated: PETSc's general closure, which the patterns follow
    Vec idx;
    std::vector<int> first;
    PetscCall(index_vector(section, &idx));
    PetscCall(cell_closure_by_vec(dm, section, idx, cStart, &first));
    *width = static_cast<PetscInt>(first.size());
    PetscCall(closure_by_patterns(dm, section, cStart, cEnd, *width, indices));
    PetscCall(agrees_with_petsc(dm, section, idx, cStart, cEnd, *width, *indices, &agrees));
    PetscCall(VecDestroy(&idx));
    if (!agrees) PetscCall(PetscInfo(dm, "fem_gpu: closure maps differ from DMPlexVecGetClosure on a sampled cell; reading them cell by cell\n"));
  }
  if (!agrees) PetscCall(plex_closure_indices_by_vec(dm, section, cStart, cEnd, width, indices));
  if (from_patterns) *from_patterns = agrees;
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
