// MatConvert's unique, sorted COO pattern (src/petsc/plex/coo_pattern.h) gives the matrix the
// plain one gives: on a box mesh with an essential condition on the "left" faces, for every
// degree in -degrees and -components, random cell matrices are inserted twice,
//   P: every cell entry (n_cells x width^2, constrained rows and columns -1), PETSc sums;
//   U: coo_pattern_build's unique entries, the cell values summed by coo_pattern_sum;
//   S: the entries sorted by (row, column) with their repeats, the values in perm's order
//      (the alternative to U: PETSc sums the repeats);
// and U and S must equal P to round-off (max |U - P| <= 1e-14 max |P|) with the same nonzero
// count, twice (new random values through MatSetValuesCOO again: MAT_REUSE_MATRIX's path).
// The pattern's own contract is checked too: (row, column) strictly increasing, every kept
// cell entry in perm once, ascending within each unique entry. The cells are split into
// three blocks (as the operator's cells and two facet parts are), so the block offsets
// are exercised. Prints rank 0's seconds of coo_pattern_build and of the three
// MatSetPreallocationCOO (on a large -dm_plex_box_faces: what PETSc does with each).
// Also: cell matrices of more than 2^31 - 1 entries on a process (perm is 32-bit) are refused
// with PETSC_ERR_SUP before any map is read. Any number of ranks; exit code 1 on a failure.
#include <petscdmplex.h>
#include <petscfe.h>
#include <petsctime.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "femgpu.h"
#include "left_boundary.h"
#include "petsc/plex/coo_pattern.h"
#include "petsc/plex/plex_maps.h"

static const char help[] = "Compares the unique COO pattern of MatConvert with the plain cell-by-cell one.\n"
                           "  -degrees 1,2,3 -components C (0: the dimension)\n";

namespace {

using femgpu::CooBlock;
using femgpu::CooPattern;

// The DM's global index of every local-vector index.
PetscErrorCode global_of_local(DM dm, PetscInt n_local, std::vector<PetscInt> *g)
{
  ISLocalToGlobalMapping ltog;
  PetscFunctionBegin;
  g->resize(static_cast<size_t>(n_local));
  std::iota(g->begin(), g->end(), PetscInt(0));
  PetscCall(DMGetLocalToGlobalMapping(dm, &ltog));
  if (n_local) PetscCall(ISLocalToGlobalMappingApply(ltog, n_local, g->data(), g->data()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Every cell entry, as MatConvert inserted them before the unique pattern.
void plain_entries(const femgpu::PlexMaps &maps, const std::vector<PetscInt> &g, std::vector<PetscInt> *rows, std::vector<PetscInt> *cols)
{
  const PetscInt w = maps.width;
  rows->clear(), cols->clear();
  for (PetscInt c = 0; c < maps.n_cells; ++c)
    for (PetscInt i = 0; i < w; ++i)
      for (PetscInt j = 0; j < w; ++j) {
        const int r = maps.free[c * w + i], k = maps.free[c * w + j];
        rows->push_back(r < 0 ? -1 : g[r]);
        cols->push_back(k < 0 ? -1 : g[k]);
      }
}

// The pattern's contract; a line per failure.
int check_contract(const CooPattern &p, const std::vector<PetscInt> &rows, const std::vector<PetscInt> &cols)
{
  int failures = 0;
  for (PetscCount u = 1; u < p.n_unique(); ++u)
    if (!(p.rows[u - 1] < p.rows[u] || (p.rows[u - 1] == p.rows[u] && p.cols[u - 1] < p.cols[u]))) ++failures;
  std::vector<char> seen(static_cast<size_t>(p.n_entries), 0);
  for (PetscCount u = 0; u < p.n_unique(); ++u)
    for (PetscCount k = p.jmap[u]; k < p.jmap[u + 1]; ++k) {
      const PetscCount e = p.perm[k];
      failures += (k > p.jmap[u] && p.perm[k - 1] >= e) || seen[e]++ || rows[e] != p.rows[u] || cols[e] != p.cols[u];
    }
  for (size_t e = 0; e < seen.size(); ++e) failures += !seen[e] && rows[e] >= 0 && cols[e] >= 0;  // a kept entry left out
  return failures;
}

// An AIJ Mat of the DM's global size with this COO pattern (copies: PETSc may reorder
// them); *seconds: its MatSetPreallocationCOO.
PetscErrorCode make_mat(DM dm, PetscCount n, std::vector<PetscInt> rows, std::vector<PetscInt> cols, Mat *M, PetscLogDouble *seconds)
{
  Vec x;
  PetscInt local;
  PetscLogDouble t0, t1;
  PetscFunctionBegin;
  PetscCall(DMGetGlobalVector(dm, &x));
  PetscCall(VecGetLocalSize(x, &local));
  PetscCall(DMRestoreGlobalVector(dm, &x));
  PetscCall(MatCreate(PetscObjectComm((PetscObject)dm), M));
  PetscCall(MatSetSizes(*M, local, local, PETSC_DETERMINE, PETSC_DETERMINE));
  PetscCall(MatSetType(*M, MATAIJ));
  PetscCall(PetscTime(&t0));
  PetscCall(MatSetPreallocationCOO(*M, n, rows.data(), cols.data()));
  PetscCall(PetscTime(&t1));
  *seconds = t1 - t0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// max |U - P| / max |P|, and whether their nonzero counts agree.
PetscErrorCode difference(Mat U, Mat P, PetscReal *relative, PetscBool *same_nonzeros)
{
  Mat D;
  PetscReal scale, diff;
  MatInfo iu, ip;
  PetscFunctionBegin;
  PetscCall(MatGetInfo(U, MAT_GLOBAL_SUM, &iu));
  PetscCall(MatGetInfo(P, MAT_GLOBAL_SUM, &ip));
  *same_nonzeros = iu.nz_used == ip.nz_used ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(MatDuplicate(U, MAT_COPY_VALUES, &D));
  PetscCall(MatAXPY(D, -1.0, P, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatNorm(D, NORM_MAX, &diff));
  PetscCall(MatNorm(P, NORM_MAX, &scale));
  *relative = scale > 0 ? diff / scale : diff;
  if (!(*relative == *relative)) *relative = PETSC_INFINITY;
  PetscCall(MatDestroy(&D));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The plain (P), sorted with repeats (S) and unique (U) Mats of one pattern.
struct Mats {
  Mat P, S, U;
};

// Random values into the three Mats (S: the cell values in perm's order; U: the pattern's
// sums); a failure if S or U differs from P.
PetscErrorCode insert_and_compare(const CooPattern &p, PetscRandom rnd, const Mats &m, int *failures)
{
  std::vector<PetscScalar> cells(static_cast<size_t>(p.n_entries)), unique(static_cast<size_t>(p.n_unique()) + 1), sorted(p.perm.size() + 1);
  PetscReal relative[2] = {PETSC_INFINITY, PETSC_INFINITY};
  PetscBool same[2] = {PETSC_FALSE, PETSC_FALSE};
  PetscFunctionBegin;
  for (PetscScalar &v : cells) PetscCall(PetscRandomGetValue(rnd, &v));
  femgpu::coo_pattern_sum(p, cells.data(), unique.data());
  for (size_t k = 0; k < p.perm.size(); ++k) sorted[k] = cells[p.perm[k]];
  cells.push_back(0);  // a valid pointer on a rank without cells
  PetscCall(MatSetValuesCOO(m.P, cells.data(), INSERT_VALUES));
  PetscCall(MatSetValuesCOO(m.S, sorted.data(), INSERT_VALUES));
  PetscCall(MatSetValuesCOO(m.U, unique.data(), INSERT_VALUES));
  PetscCall(difference(m.U, m.P, &relative[0], &same[0]));
  PetscCall(difference(m.S, m.P, &relative[1], &same[1]));
  for (int k = 0; k < 2; ++k) *failures += relative[k] > 1e-14 || !same[k];
  PetscCall(PetscPrintf(PetscObjectComm((PetscObject)m.P), "  max |U - P| / max |P| = %g, |S - P| %g; same nonzero count: %s %s\n", (double)relative[0],
                        (double)relative[1], same[0] ? "yes" : "NO", same[1] ? "yes" : "NO"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The pattern sorted by (row, column) with its repeats: idea (a) of issue #25, timed
// against the unique pattern.
void sorted_with_repeats(const CooPattern &p, std::vector<PetscInt> *rows, std::vector<PetscInt> *cols)
{
  rows->resize(p.perm.size());
  cols->resize(p.perm.size());
  for (PetscCount u = 0; u < p.n_unique(); ++u)
    for (PetscCount k = p.jmap[u]; k < p.jmap[u + 1]; ++k) (*rows)[k] = p.rows[u], (*cols)[k] = p.cols[u];
}

// The cells as three blocks (a third each), as the operator's cells and facet parts are.
std::vector<CooBlock> three_blocks(const femgpu::PlexMaps &maps)
{
  const PetscInt a = maps.n_cells / 3, b = 2 * maps.n_cells / 3, w = maps.width;
  return {{maps.free.data(), a, w}, {maps.free.data() + a * w, b - a, w}, {maps.free.data() + b * w, maps.n_cells - b, w}};
}

PetscErrorCode compare_patterns(DM dm, int *failures)
{
  femgpu::PlexMaps maps;
  std::vector<PetscInt> g, rows, cols, srows, scols;
  CooPattern p;
  Mats m;
  PetscRandom rnd;
  PetscLogDouble t0, t1, tp, ts, tu;
  PetscFunctionBegin;
  PetscCall(femgpu::plex_build_maps(dm, &maps));
  PetscCall(global_of_local(dm, maps.local_size, &g));
  plain_entries(maps, g, &rows, &cols);
  PetscCall(PetscTime(&t0));
  PetscCall(femgpu::coo_pattern_build(three_blocks(maps), maps.local_size, g.data(), &p));
  PetscCall(PetscTime(&t1));
  const int broken = check_contract(p, rows, cols);
  *failures += broken;
  PetscCall(PetscSynchronizedPrintf(PetscObjectComm((PetscObject)dm), "  rank: %zu cell entries, %zu unique; %d contract failures\n", rows.size(),
                                    static_cast<size_t>(p.n_unique()), broken));
  PetscCall(PetscSynchronizedFlush(PetscObjectComm((PetscObject)dm), PETSC_STDOUT));
  sorted_with_repeats(p, &srows, &scols);
  PetscCall(make_mat(dm, static_cast<PetscCount>(rows.size()), rows, cols, &m.P, &tp));
  PetscCall(make_mat(dm, static_cast<PetscCount>(srows.size()), srows, scols, &m.S, &ts));
  PetscCall(make_mat(dm, p.n_unique(), {p.rows.begin(), p.rows.end()}, {p.cols.begin(), p.cols.end()}, &m.U, &tu));
  PetscCall(PetscPrintf(PetscObjectComm((PetscObject)dm), "  rank 0: coo_pattern_build %.4f s; MatSetPreallocationCOO plain %.4f s, sorted with repeats %.4f s, unique %.4f s\n",
                        t1 - t0, tp, ts, tu));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
  PetscCall(PetscRandomSetSeed(rnd, 17));
  PetscCall(PetscRandomSeed(rnd));
  for (int round = 0; round < 2; ++round) PetscCall(insert_and_compare(p, rnd, m, failures));
  PetscCall(PetscRandomDestroy(&rnd));
  for (Mat *M : {&m.P, &m.S, &m.U}) PetscCall(MatDestroy(M));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode check_degree(MPI_Comm comm, PetscInt degree, PetscInt components, int *failures)
{
  DM dm;
  PetscFE fe;
  DMLabel label;
  PetscInt dim, left = 1;
  PetscFunctionBegin;
  PetscCall(FEMGPUCreateMeshFromOptions(comm, &dm));
  PetscCall(DMGetDimension(dm, &dim));
  PetscCall(MarkLeftBoundary(dm));
  PetscCall(PetscFECreateLagrange(comm, dim, components ? components : dim, PETSC_TRUE, degree, degree + 1, &fe));
  PetscCall(DMAddField(dm, nullptr, (PetscObject)fe));
  PetscCall(PetscFEDestroy(&fe));
  PetscCall(DMCreateDS(dm));
  PetscCall(DMGetLabel(dm, "left", &label));
  PetscCall(DMAddBoundary(dm, DM_BC_ESSENTIAL, "left", label, 1, &left, 0, 0, nullptr, nullptr, nullptr, nullptr, nullptr));
  PetscCall(compare_patterns(dm, failures));
  PetscCall(DMDestroy(&dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

// 2^27 cells of 4 DOFs: 2^31 cell-matrix entries, one past perm's range; the map is never read.
int too_many_entries()
{
  femgpu::CooPattern p;
  const std::vector<femgpu::CooBlock> blocks{{nullptr, PetscInt(1) << 27, 4}};
  const PetscInt global = 0;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, nullptr));
  const PetscErrorCode ierr = femgpu::coo_pattern_build(blocks, 1, &global, &p);
  PetscCall(PetscPopErrorHandler());
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "2^31 cell-matrix entries: error %d (%s)\n", (int)ierr, ierr == PETSC_ERR_SUP ? "ok" : "FAIL"));
  return ierr == PETSC_ERR_SUP ? 0 : 1;
}

int main(int argc, char **argv)
{
  PetscInt degrees[8] = {1, 2, 3}, n_degrees = 8, components = 1;
  PetscCall(PetscInitialize(&argc, &argv, nullptr, help));
  PetscCall(PetscOptionsGetIntArray(nullptr, nullptr, "-degrees", degrees, &n_degrees, nullptr));
  PetscCall(PetscOptionsGetInt(nullptr, nullptr, "-components", &components, nullptr));
  int failures = too_many_entries();
  for (PetscInt i = 0; i < n_degrees; ++i) {
    int here = 0;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "P%d, %d components (0: the dimension)\n", (int)degrees[i], (int)components));
    PetscCall(check_degree(PETSC_COMM_WORLD, degrees[i], components, &here));
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &here, 1, MPI_INT, MPI_SUM, PETSC_COMM_WORLD));
    failures += here;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "P%d: %s\n", (int)degrees[i], here ? "FAIL" : "ok"));
  }
  PetscCall(PetscFinalize());
  return failures ? 1 : 0;
}
