// Closure indices from section offsets and closure points (see plex_closure.h), checked
// against PETSc's own closures of sampled cells (plex_closure_by_vec.h).
#include "petsc/plex/plex_closure.h"

#include "petsc/plex/plex_cell_keys.h"
#include "petsc/plex/plex_closure_by_vec.h"
#include "petsc/plex/section_arrays.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>

namespace femgpu {

namespace {

// A closure point reached from the cell by cone indices (at most 3 steps: tetrahedron,
// face, edge), with the orientation PETSc's closure gives it.
struct PathPoint {
  signed char steps = 0, index[3] = {0, 0, 0};
  PetscInt orientation = 0;
};

// Cells of equal keys (plex_cell_keys.h) have their closure points at the same cone paths;
// the pattern of a cell's key: PETSc's closure of the first cell with that key.

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
  // The walk of place_cell: the paths by their number of steps, each with its path one
  // step shorter (its parent, -1 for the cell), so a cell's closure points are found one
  // cone read each instead of one per step of every path.
  std::vector<size_t> by_steps;
  std::vector<int> parent;
};

// The pattern's walk order and parents (every prefix of a closure path is a closure path
// too: the closure is transitive). False if a parent is missing.
bool set_parents(Pattern *pattern)
{
  const size_t n = pattern->paths.size();
  pattern->by_steps.resize(n);
  pattern->parent.assign(n, -1);
  for (size_t k = 0; k < n; ++k) pattern->by_steps[k] = k;
  std::stable_sort(pattern->by_steps.begin(), pattern->by_steps.end(),
                   [&](size_t a, size_t b) { return pattern->paths[a].steps < pattern->paths[b].steps; });
  for (size_t k = 0; k < n; ++k) {
    const PathPoint &path = pattern->paths[k];
    if (path.steps == 0) continue;
    for (size_t j = 0; j < n && pattern->parent[k] < 0; ++j) {
      const PathPoint &q = pattern->paths[j];
      if (q.steps == path.steps - 1 && std::equal(q.index, q.index + q.steps, path.index)) pattern->parent[k] = static_cast<int>(j);
    }
    if (pattern->parent[k] < 0) return false;
  }
  return true;
}

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
  PetscCheck(set_parents(pattern), PETSC_COMM_SELF, PETSC_ERR_PLIB, "fem_gpu: a closure path of cell %" PetscInt_FMT " has no parent in the closure", cell);
  pattern->perms.resize(layouts.size());
  for (size_t l = 0; l < layouts.size(); ++l) PetscCall(pattern_perms(section, layouts[l], cones, cell, pattern->paths, &pattern->perms[l]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// One cell's closure DOFs into `out` (width entries), field by field as
// DMPlexVecGetClosure_Static and _Fields_Static place values: each point's DOFs at the
// section's offsets, permuted for the point's orientation. False when the cell's DOFs do
// not add up to `width` (a mixed mesh).
// `points` holds the pattern's number of closure points.
bool place_cell(const Cones &cones, PetscInt cell, const Pattern &pattern, const std::vector<FieldLayout> &layouts, PetscInt width, PetscInt *points, int *out)
{
  PetscInt offset = 0;
  for (size_t k : pattern.by_steps) {
    const int up = pattern.parent[k];
    points[k] = up < 0 ? cell : cones.cone(points[up])[pattern.paths[k].index[pattern.paths[k].steps - 1]];
  }
  for (size_t l = 0; l < layouts.size(); ++l) {
    const SectionArrays &a = layouts[l].arrays;
    for (size_t k = 0; k < pattern.paths.size(); ++k) {
      const PetscInt p = points[k];
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

// The fast path: every cell's key, its pattern (PETSc's closure of the first cell with the
// key, read once), then its DOFs from the section's arrays. Cells are keyed by a hash of
// their key; every cell's full key was compared with its pattern's when the hashes were
// made (hash_cells), so a hash collision is found (and the caller falls back to PETSc's
// closures) rather than giving wrong maps.
PetscErrorCode closure_by_patterns(DM dm, PetscSection section, PetscInt cStart, PetscInt cEnd, PetscInt width, IndexArray *indices, bool *ok,
                                   std::shared_ptr<const CellKeyHashes> *hashes)
{
  Cones cones;
  PetscInt fields;
  std::vector<FieldLayout> layouts;
  std::shared_ptr<const CellKeyHashes> own;
  std::unordered_map<std::uint64_t, Pattern> patterns;  // by key hash
  PetscFunctionBegin;
  PetscCall(get_cones(dm, &cones));
  PetscCall(PetscSectionGetNumFields(section, &fields));
  for (PetscInt f = fields ? 0 : -1; f < std::max<PetscInt>(fields, 0); ++f) {
    layouts.push_back({f, {}});
    PetscCall(section_arrays(section, f, &layouts.back().arrays));
  }
  std::shared_ptr<const CellKeyHashes> &keys = hashes ? *hashes : own;
  if (!keys || keys->cones != cones.points || keys->cStart != cStart || keys->cEnd != cEnd) {
    auto made = std::make_shared<CellKeyHashes>();
    PetscCall(hash_cells(dm, cones, cStart, cEnd, made.get()));
    made->cones = cones.points, made->cStart = cStart, made->cEnd = cEnd;
    keys = made;
  }
  const CellKeyHashes &hashed = *keys;
  const auto &codes = hashed.codes;
  for (const auto &[h, c] : hashed.first) {  // PETSc's closure of one cell per pattern
    PetscCall(calibrate(dm, section, layouts, cones, c, &patterns[h]));
  }
  indices->resize(static_cast<size_t>(width) * static_cast<size_t>(cEnd - cStart));
  PetscInt failed = hashed.collision;  // a cell whose key or DOF count does not fit its pattern
  const PetscInt placed_end = failed < 0 ? cEnd : cStart;  // a collision: no cell is placed
  size_t most = 0;  // closure points of the largest pattern
  for (const auto &[h, pattern] : patterns) most = std::max(most, pattern.paths.size());
#pragma omp parallel reduction(max : failed) if (cEnd - cStart > kThreadedCells)
  {
    std::vector<PetscInt> points(most);
#pragma omp for schedule(static)
    for (PetscInt c = cStart; c < placed_end; ++c) {
      const Pattern &pattern = patterns.at(codes[static_cast<size_t>(c - cStart)]);
      if (!place_cell(cones, c, pattern, layouts, width, points.data(), indices->data() + static_cast<size_t>(c - cStart) * static_cast<size_t>(width)))
        failed = std::max(failed, c);
    }
  }
  *ok = failed < 0;
  if (!*ok) PetscCall(PetscInfo(dm, "fem_gpu: cell %" PetscInt_FMT " does not fit its closure pattern (another DOF count or a key hash collision)\n", failed));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode plex_closure_indices(DM dm, PetscSection section, PetscInt cStart, PetscInt cEnd, PetscInt *width, IndexArray *indices, bool *from_patterns,
                                    std::shared_ptr<const CellKeyHashes> *hashes)
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
