// Cell key hashes bottom-up by depth stratum (see plex_cell_keys.h).
#include "petsc/plex/plex_cell_keys.h"

#include <algorithm>
#include <unordered_map>

namespace femgpu {

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

namespace {

constexpr std::uint64_t kFnvPrime = 1099511628211ull, kFnvBasis = 1469598103934665603ull;

// The hashes of one depth stratum's points [start, end).
struct StratumHashes {
  PetscInt start = 0, end = 0;
  DefaultInitVector<std::uint64_t> hash;  // every entry written by hash_cells
  bool contains(PetscInt p) const { return p >= start && p < end; }
  std::uint64_t of(PetscInt p) const { return hash[static_cast<size_t>(p - start)]; }
};

// FNV-1a of p's cone size, its cone's orientations and its cone points' hashes (`below`).
std::uint64_t point_hash(const Cones &cones, const StratumHashes &below, PetscInt p)
{
  const PetscInt n = cones.n(p);
  const PetscInt *cone = cones.cone(p), *o = cones.orientation(p);
  std::uint64_t h = (kFnvBasis ^ static_cast<std::uint64_t>(n + 64)) * kFnvPrime;
  for (PetscInt k = 0; k < n; ++k) h = (h ^ static_cast<std::uint64_t>(o[k] + 64)) * kFnvPrime;
  for (PetscInt k = 0; k < n; ++k) h = (h ^ below.of(cone[k])) * kFnvPrime;
  return h;
}

// Whether p and q have the same cone size, orientations and cone points' hashes: the same
// key, where equal hashes below were checked to mean equal keys.
bool same_key(const Cones &cones, const StratumHashes &below, PetscInt p, PetscInt q)
{
  const PetscInt n = cones.n(p);
  if (cones.n(q) != n) return false;
  const PetscInt *pc = cones.cone(p), *qc = cones.cone(q), *po = cones.orientation(p), *qo = cones.orientation(q);
  for (PetscInt k = 0; k < n; ++k)
    if (po[k] != qo[k] || below.of(pc[k]) != below.of(qc[k])) return false;
  return true;
}

// The first point of each distinct hash of `stratum` (threads take contiguous blocks).
void first_of_each(const StratumHashes &stratum, bool threads, std::map<std::uint64_t, PetscInt> *first)
{
  first->clear();
#pragma omp parallel if (threads)
  {
    std::unordered_map<std::uint64_t, PetscInt> mine;
    std::uint64_t last = 0;
    bool any = false;
#pragma omp for schedule(static)
    for (PetscInt p = stratum.start; p < stratum.end; ++p) {
      const std::uint64_t h = stratum.of(p);
      if (any && h == last) continue;  // neighbouring points often share a key
      mine.emplace(h, p);              // keeps the first point of this thread's block
      last = h, any = true;
    }
#pragma omp critical
    for (const auto &[h, p] : mine) {
      auto it = first->find(h);
      if (it == first->end() || p < it->second) (*first)[h] = p;
    }
  }
}

}  // namespace

// Every cell's key hash into `codes` and the first cell of each hash, made bottom-up: each
// depth stratum's points hashed from the stratum below (one visit per mesh point, not one
// per cell and closure path), then each point's key compared with its hash's first point's
// in its stratum. Equal hashes below were found to mean equal keys, so that comparison is
// exact, and a hash collision is found (`collision`: a cell, and the caller falls back to
// PETSc's closures) rather than trusted. So are cones that do not point one depth down
// (not an interpolated mesh's) and cells that are not the top stratum.
PetscErrorCode hash_cells(DM dm, const Cones &cones, PetscInt cStart, PetscInt cEnd, CellKeyHashes *hashed)
{
  PetscInt depth;
  StratumHashes below, here;
  std::map<std::uint64_t, PetscInt> first;
  int apart = 0;
  const bool threads = cEnd - cStart > kThreadedCells;
  PetscFunctionBegin;
  PetscCall(DMPlexGetDepth(dm, &depth));
  for (PetscInt d = 0; d <= depth; ++d) {
    PetscCall(DMPlexGetDepthStratum(dm, d, &here.start, &here.end));
    here.hash.resize(static_cast<size_t>(here.end - here.start));
#pragma omp parallel for schedule(static) reduction(max : apart) if (threads)
    for (PetscInt p = here.start; p < here.end; ++p) {
      const PetscInt n = cones.n(p), *cone = cones.cone(p);
      bool down = true;
      for (PetscInt k = 0; k < n; ++k) down = down && d > 0 && below.contains(cone[k]);
      if (!down) apart = 1;
      here.hash[static_cast<size_t>(p - here.start)] = down ? point_hash(cones, below, p) : 0;
    }
    first_of_each(here, threads, &first);
    int differs = 0;  // written only: a max reduction's private copies start below 0, so none is read in the loop
#pragma omp parallel for schedule(static) reduction(max : differs) if (threads)
    for (PetscInt p = here.start; p < here.end; ++p)
      if (!same_key(cones, below, p, first.at(here.of(p)))) differs = 1;
    apart = std::max(apart, differs);
    std::swap(below, here);
  }
  if (cStart != below.start || cEnd != below.end) apart = 1;  // `below` is now the top stratum, which must be the cells
  hashed->first.clear();
  if (apart) hashed->codes.assign(static_cast<size_t>(cEnd - cStart), 0);
  else hashed->codes.swap(below.hash), hashed->first = first;
  hashed->collision = apart ? cStart : -1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
