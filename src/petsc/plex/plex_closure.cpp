// Closure indices from section offsets and closure points (see plex_closure.h), checked
// against PETSc's own closures of sampled cells (plex_closure_by_vec.h).
#include "petsc/plex/plex_closure.h"

#include "petsc/plex/plex_closure_by_vec.h"
#include "petsc/plex/section_arrays.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <unordered_map>

namespace femgpu {

namespace {

// The cone arrays of the DM (PETSc's own, read in place): the transitive closure walks
// them without a call per point.
struct Cones {
  SectionArrays layout;  // each point's cone size and offset
  const PetscInt *points = nullptr, *orientations = nullptr;
  const PetscInt *cone(PetscInt p) const { return points + layout.offset(p); }
  const PetscInt *orientation(PetscInt p) const { return orientations + layout.offset(p); }
  PetscInt n(PetscInt p) const { return layout.dof(p); }
};

PetscErrorCode get_cones(DM dm, Cones *cones)
{
  PetscSection cs;
  PetscInt *points, *orientations;
  PetscFunctionBegin;
  PetscCall(DMPlexGetConeSection(dm, &cs));
  PetscCall(DMPlexGetCones(dm, &points));
  PetscCall(DMPlexGetConeOrientations(dm, &orientations));
  cones->points = points;
  cones->orientations = orientations;
  PetscCall(section_arrays(cs, -1, &cones->layout));
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

// Whether p's closure key (closure_key's sequence) equals key from *pos on; advances *pos.
// The per-cell check of the fast path, without writing the key out.
bool matches_key(const Cones &cones, PetscInt p, const ClosureKey &key, size_t *pos)
{
  const PetscInt n = cones.n(p);
  const PetscInt *cone = cones.cone(p), *o = cones.orientation(p);
  if (*pos + 1 + static_cast<size_t>(n) > key.size() || key[(*pos)++] != n) return false;
  for (PetscInt k = 0; k < n; ++k)
    if (key[(*pos)++] != o[k]) return false;
  for (PetscInt k = 0; k < n; ++k)
    if (!matches_key(cones, cone[k], key, pos)) return false;
  return true;
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

// Field f's (or, f < 0, the section's) layout: each point's DOF count and offset, and the
// field's symmetries (the dual space's permutation of a point's DOFs for its orientation).
struct FieldLayout {
  PetscInt field;  // -1: the section itself
  SectionArrays arrays;
};

// A closure pattern: the cone path of each closure point and, per field layout and
// point, the permutation of its DOFs (empty: none). The permutation depends on the
// point's depth and orientation only, which the pattern fixes, so it is read once here
// instead of once per cell.
struct Pattern {
  std::vector<PathPoint> paths;
  std::vector<std::vector<std::vector<PetscInt>>> perms;  // [layout][point]
};

// The points of `cell`'s closure that lie in the section's chart, with their orientations,
// as (point, orientation) pairs.
PetscErrorCode chart_pairs(PetscSection section, const Cones &cones, PetscInt cell, const std::vector<PathPoint> &paths, std::vector<PetscInt> *pairs,
                           std::vector<size_t> *position)
{
  PetscInt pStart, pEnd;
  PetscFunctionBegin;
  PetscCall(PetscSectionGetChart(section, &pStart, &pEnd));
  pairs->clear();
  position->clear();
  for (size_t k = 0; k < paths.size(); ++k) {
    const PetscInt p = follow(cones, cell, paths[k]);
    if (p < pStart || p >= pEnd) continue;
    pairs->push_back(p);
    pairs->push_back(paths[k].orientation);
    position->push_back(k);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The permutations of each closure point's DOFs of `cell` (of this pattern) for one field
// layout; a sign flip (not Lagrange) is refused.
PetscErrorCode pattern_perms(PetscSection section, const FieldLayout &layout, const Cones &cones, PetscInt cell, const std::vector<PathPoint> &paths,
                             std::vector<std::vector<PetscInt>> *perms)
{
  std::vector<PetscInt> pairs;
  std::vector<size_t> position;
  const PetscInt **perm = nullptr;
  const PetscScalar **flip = nullptr;
  bool flipped = false;
  PetscFunctionBegin;
  PetscCall(chart_pairs(section, cones, cell, paths, &pairs, &position));
  const PetscInt n = static_cast<PetscInt>(position.size());
  perms->assign(paths.size(), {});
  if (layout.field < 0) PetscCall(PetscSectionGetPointSyms(section, n, pairs.data(), &perm, &flip));
  else PetscCall(PetscSectionGetFieldPointSyms(section, layout.field, n, pairs.data(), &perm, &flip));
  for (PetscInt k = 0; k < n; ++k) {
    const PetscInt dof = layout.arrays.dof(pairs[static_cast<size_t>(2 * k)]);
    if (perm && perm[k]) (*perms)[position[static_cast<size_t>(k)]].assign(perm[k], perm[k] + dof);
    for (PetscInt d = 0; flip && flip[k] && d < dof; ++d) flipped = flipped || flip[k][d] != 1.0;
  }
  if (layout.field < 0) PetscCall(PetscSectionRestorePointSyms(section, n, pairs.data(), &perm, &flip));
  else PetscCall(PetscSectionRestoreFieldPointSyms(section, layout.field, n, pairs.data(), &perm, &flip));
  PetscCheck(!flipped, PETSC_COMM_SELF, PETSC_ERR_SUP, "fem_gpu: the section flips the sign of closure DOFs; only Lagrange elements are supported");
  PetscFunctionReturn(PETSC_SUCCESS);
}

// PETSc's closure of `cell` (DMPlexGetTransitiveClosure), as cone paths, and its
// permutations for each field layout.
PetscErrorCode calibrate(DM dm, PetscSection section, const std::vector<FieldLayout> &layouts, const Cones &cones, PetscInt cell, Pattern *pattern)
{
  PetscInt n = 0, *points = nullptr;
  bool found = true;
  PetscFunctionBegin;
  PetscCall(DMPlexGetTransitiveClosure(dm, cell, PETSC_TRUE, &n, &points));
  pattern->paths.resize(static_cast<size_t>(n));
  for (PetscInt k = 0; k < n && found; ++k) {
    found = find_path(cones, cell, points[2 * k], &pattern->paths[static_cast<size_t>(k)]);
    pattern->paths[static_cast<size_t>(k)].orientation = points[2 * k + 1];
    for (PetscInt j = 0; j < k; ++j) found = found && points[2 * j] != points[2 * k];
  }
  PetscCall(DMPlexRestoreTransitiveClosure(dm, cell, PETSC_TRUE, &n, &points));
  PetscCheck(found, PETSC_COMM_SELF, PETSC_ERR_PLIB, "fem_gpu: a closure point of cell %" PetscInt_FMT " is not on a distinct cone path", cell);
  pattern->perms.resize(layouts.size());
  for (size_t l = 0; l < layouts.size(); ++l) PetscCall(pattern_perms(section, layouts[l], cones, cell, pattern->paths, &pattern->perms[l]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// One cell's closure DOFs into `out` (width entries), field by field as
// DMPlexVecGetClosure_Static and _Fields_Static place values: each point's DOFs at the
// section's offsets, permuted for the point's orientation. False when the cell's DOFs do
// not add up to `width` (a mixed mesh).
bool place_cell(const Cones &cones, PetscInt cell, const Pattern &pattern, const std::vector<FieldLayout> &layouts, PetscInt width, int *out)
{
  PetscInt offset = 0;
  for (size_t l = 0; l < layouts.size(); ++l) {
    const SectionArrays &a = layouts[l].arrays;
    for (size_t k = 0; k < pattern.paths.size(); ++k) {
      const PetscInt p = follow(cones, cell, pattern.paths[k]);
      const PetscInt dof = a.dof(p);
      if (!dof) continue;
      if (offset + dof > width) return false;
      const PetscInt off = a.offset(p);
      const std::vector<PetscInt> &perm = pattern.perms[l][k];
      for (PetscInt d = 0; d < dof; ++d) out[offset + (perm.empty() ? d : perm[static_cast<size_t>(d)])] = static_cast<int>(off + d);
      offset += dof;
    }
  }
  return offset == width;
}

// FNV-1a of closure_key's sequence, without building it.
std::uint64_t key_hash(const Cones &cones, PetscInt p, std::uint64_t h = 1469598103934665603ull)
{
  const PetscInt n = cones.n(p);
  const PetscInt *cone = cones.cone(p), *o = cones.orientation(p);
  h = (h ^ static_cast<std::uint64_t>(n + 64)) * 1099511628211ull;
  for (PetscInt k = 0; k < n; ++k) h = (h ^ static_cast<std::uint64_t>(o[k] + 64)) * 1099511628211ull;
  for (PetscInt k = 0; k < n; ++k) h = key_hash(cones, cone[k], h);
  return h;
}

// Meshes below this many cells are walked on one thread (threads cost more than they save).
constexpr PetscInt kThreadedCells = 1 << 16;

// Each distinct key hash of cells [cStart, cEnd) with the first cell that has it; every
// cell's hash into `codes`; then every cell's whole key compared with its hash's first
// cell's (`collision`). Threads (OpenMP, where built with it) take contiguous blocks.
void hash_cells(const Cones &cones, PetscInt cStart, PetscInt cEnd, CellKeyHashes *hashed)
{
  std::vector<std::uint64_t> &codes = hashed->codes;
  std::map<std::uint64_t, PetscInt> &first = hashed->first;
  first.clear();
  codes.resize(static_cast<size_t>(cEnd - cStart));
#pragma omp parallel if (cEnd - cStart > kThreadedCells)
  {
    std::unordered_map<std::uint64_t, PetscInt> mine;
    std::uint64_t last = 0;
    bool any = false;
#pragma omp for schedule(static)
    for (PetscInt c = cStart; c < cEnd; ++c) {
      const std::uint64_t h = key_hash(cones, c);
      codes[static_cast<size_t>(c - cStart)] = h;
      if (any && h == last) continue;  // neighbouring cells often share a pattern
      mine.emplace(h, c);              // keeps the first cell of this thread's block
      last = h, any = true;
    }
#pragma omp critical
    for (const auto &[h, c] : mine) {
      auto it = first.find(h);
      if (it == first.end() || c < it->second) first[h] = c;
    }
  }
  std::unordered_map<std::uint64_t, ClosureKey> keys;  // each hash's first cell's whole key
  for (const auto &[h, c] : first) closure_key(cones, c, &keys[h]);
  PetscInt collision = -1;
#pragma omp parallel for schedule(static) reduction(max : collision) if (cEnd - cStart > kThreadedCells)
  for (PetscInt c = cStart; c < cEnd; ++c) {
    const ClosureKey &key = keys.at(codes[static_cast<size_t>(c - cStart)]);
    size_t pos = 0;
    if (!matches_key(cones, c, key, &pos) || pos != key.size()) collision = std::max(collision, c);
  }
  hashed->collision = collision;
}

// The fast path: every cell's key, its pattern (PETSc's closure of the first cell with the
// key, read once), then its DOFs from the section's arrays. Cells are keyed by a hash of
// their key; every cell's full key was compared with its pattern's when the hashes were
// made (hash_cells), so a hash collision is found (and the caller falls back to PETSc's
// closures) rather than giving wrong maps.
PetscErrorCode closure_by_patterns(DM dm, PetscSection section, PetscInt cStart, PetscInt cEnd, PetscInt width, IndexArray *indices, bool *ok,
                                   CellKeyHashes *hashes)
{
  Cones cones;
  PetscInt fields;
  std::vector<FieldLayout> layouts;
  CellKeyHashes own;
  std::unordered_map<std::uint64_t, Pattern> patterns;  // by key hash
  PetscFunctionBegin;
  PetscCall(get_cones(dm, &cones));
  PetscCall(PetscSectionGetNumFields(section, &fields));
  for (PetscInt f = fields ? 0 : -1; f < std::max<PetscInt>(fields, 0); ++f) {
    layouts.push_back({f, {}});
    PetscCall(section_arrays(section, f, &layouts.back().arrays));
  }
  CellKeyHashes &hashed = hashes ? *hashes : own;
  if (hashed.cones != cones.points || hashed.cStart != cStart || hashed.cEnd != cEnd) {
    hash_cells(cones, cStart, cEnd, &hashed);
    hashed.cones = cones.points, hashed.cStart = cStart, hashed.cEnd = cEnd;
  }
  const std::vector<std::uint64_t> &codes = hashed.codes;
  for (const auto &[h, c] : hashed.first) {  // PETSc's closure of one cell per pattern
    PetscCall(calibrate(dm, section, layouts, cones, c, &patterns[h]));
  }
  indices->resize(static_cast<size_t>(width) * static_cast<size_t>(cEnd - cStart));
  PetscInt failed = hashed.collision;  // a cell whose key or DOF count does not fit its pattern
  const PetscInt placed_end = failed < 0 ? cEnd : cStart;  // a collision: no cell is placed
#pragma omp parallel for schedule(static) reduction(max : failed) if (cEnd - cStart > kThreadedCells)
  for (PetscInt c = cStart; c < placed_end; ++c) {
    const Pattern &pattern = patterns.at(codes[static_cast<size_t>(c - cStart)]);
    if (!place_cell(cones, c, pattern, layouts, width, indices->data() + static_cast<size_t>(c - cStart) * static_cast<size_t>(width)))
      failed = std::max(failed, c);
  }
  *ok = failed < 0;
  if (!*ok) PetscCall(PetscInfo(dm, "fem_gpu: cell %" PetscInt_FMT " does not fit its closure pattern (another DOF count or a key hash collision)\n", failed));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode plex_closure_indices(DM dm, PetscSection section, PetscInt cStart, PetscInt cEnd, PetscInt *width, IndexArray *indices, bool *from_patterns,
                                    CellKeyHashes *hashes)
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
    PetscCall(plex_index_vector(section, &idx));
    PetscCall(plex_cell_closure_by_vec(dm, section, idx, cStart, &first));
    *width = static_cast<PetscInt>(first.size());
    PetscCall(closure_by_patterns(dm, section, cStart, cEnd, *width, indices, &agrees, hashes));
    if (agrees) PetscCall(plex_closure_agrees_with_petsc(dm, section, idx, cStart, cEnd, *width, *indices, &agrees));
    PetscCall(VecDestroy(&idx));
    if (!agrees) PetscCall(PetscInfo(dm, "fem_gpu: closure maps differ from DMPlexVecGetClosure on a sampled cell; reading them cell by cell\n"));
  }
  if (!agrees) PetscCall(plex_closure_indices_by_vec(dm, section, cStart, cEnd, width, indices));
  if (from_patterns) *from_patterns = agrees;
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
