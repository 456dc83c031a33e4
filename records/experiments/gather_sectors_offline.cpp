// Offline: how many 32-byte sectors a warp's gather instruction touches (entry j of 32
// consecutive cells' map rows, 8-byte values), on femgpu-bench's lattice mesh and on a
// DMPlex box mesh as PETSc numbers it, in each mesh's own cell order, in Z-order of the
// centroids, and sorted by each cell's smallest DOF. Needs no GPU.
// With the argument "scatter": the sectors of one warp's add instruction in the mesh's
// own order, cell by cell (entry j of 32 consecutive cells: SCPWI's atomic scatter) and
// entry by entry (32 consecutive entries of the cells' rows: scatter=staged), P1-P4, one
// component a node and dim of them (h200_staged_scatter.txt).
#include <petscdmplex.h>
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "fem/lattice_mesh.h"
#include "petsc/plex_maps.h"
#include "femgpu.h"

namespace {

double sectors_per_load(const std::vector<int> &map, int width, const std::vector<int> &order)
{
  const int n = static_cast<int>(order.size());
  long long sectors = 0, loads = 0;
  for (int w = 0; w + 32 <= n; w += 32)
    for (int j = 0; j < width; ++j) {
      std::set<long long> s;
      for (int l = 0; l < 32; ++l) {
        const int d = map[static_cast<size_t>(order[w + l]) * width + j];
        if (d >= 0) s.insert(static_cast<long long>(d) * 8 / 32);
      }
      sectors += static_cast<long long>(s.size()), ++loads;
    }
  return static_cast<double>(sectors) / static_cast<double>(loads);
}

std::vector<int> by_smallest_dof(const std::vector<int> &map, int width, int n)
{
  std::vector<int> key(n), order(n);
  for (int c = 0; c < n; ++c) {
    int m = 1 << 30;
    for (int j = 0; j < width; ++j) {
      const int d = map[static_cast<size_t>(c) * width + j];
      if (d >= 0) m = std::min(m, d);
    }
    key[c] = m;
  }
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return key[a] < key[b]; });
  return order;
}

std::vector<int> z_order(const std::vector<double> &centroids, int dim, int n)
{
  std::vector<double> lo(dim, 1e300), hi(dim, -1e300);
  for (int c = 0; c < n; ++c)
    for (int d = 0; d < dim; ++d) lo[d] = std::min(lo[d], centroids[c * dim + d]), hi[d] = std::max(hi[d], centroids[c * dim + d]);
  std::vector<unsigned long long> key(n, 0);
  for (int c = 0; c < n; ++c)
    for (int d = 0; d < dim; ++d) {
      const unsigned long long q = static_cast<unsigned long long>((centroids[c * dim + d] - lo[d]) / (hi[d] - lo[d] + 1e-300) * 1048575.0 + 0.5);
      for (int b = 0; b < 20; ++b) key[c] |= ((q >> b) & 1ull) << (b * dim + d);
    }
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return key[a] < key[b]; });
  return order;
}

void report(const char *mesh, int dim, int degree, const std::vector<int> &map, int width, int n, const std::vector<double> &centroids)
{
  std::vector<int> own(n);
  std::iota(own.begin(), own.end(), 0);
  std::printf("%-34s dim %d P%d cells %8d width %3d: own order %5.2f, smallest DOF %5.2f, Z-order %5.2f sectors a warp load\n", mesh, dim, degree, n,
              width, sectors_per_load(map, width, own), sectors_per_load(map, width, by_smallest_dof(map, width, n)),
              sectors_per_load(map, width, z_order(centroids, dim, n)));
}

// 32 consecutive entries of the cells' rows in the mesh's order (a staged group's warp).
double sectors_per_row_chunk(const std::vector<int> &map)
{
  long long sectors = 0, adds = 0;
  for (size_t k = 0; k + 32 <= map.size(); k += 32) {
    std::set<long long> s;
    for (size_t l = 0; l < 32; ++l)
      if (map[k + l] >= 0) s.insert(static_cast<long long>(map[k + l]) * 8 / 32);
    sectors += static_cast<long long>(s.size()), ++adds;
  }
  return static_cast<double>(sectors) / static_cast<double>(adds);
}

void report_scatter(const char *mesh, int dim, int degree, int components, const std::vector<int> &map, int width, int n)
{
  std::vector<int> own(n);
  std::iota(own.begin(), own.end(), 0);
  const double cells = sectors_per_load(map, width, own), rows = sectors_per_row_chunk(map);
  std::printf("%-34s dim %d P%d C%d cells %8d width %3d: cell by cell %5.2f, entry by entry %5.2f sectors a warp add (%.2fx)\n", mesh, dim,
              degree, components, n, width, cells, rows, cells / rows);
}

}  // namespace

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, nullptr, nullptr));
  const bool scatter = argc > 1 && std::string(argv[1]) == "scatter";
  for (int dim : {2, 3})
    for (int degree : scatter ? std::vector<int>{1, 2, 3, 4} : std::vector<int>{2, 4})
      for (int components : scatter ? std::vector<int>{1, dim} : std::vector<int>{1}) {
      const int N = dim == 2 ? 256 : 24;
      femgpu::LatticeMesh m = femgpu::lattice_mesh(dim, N, degree, components);
      const int width = static_cast<int>(m.map.size()) / m.n_cells;
      std::vector<double> cen(static_cast<size_t>(m.n_cells) * dim, 0.0);
      for (int c = 0; c < m.n_cells; ++c)
        for (int v = 0; v <= dim; ++v)
          for (int d = 0; d < dim; ++d) cen[c * dim + d] += m.coordinates[m.coordinate_map[c * (dim + 1) + v] + d] / (dim + 1);
      if (scatter) report_scatter("lattice (femgpu-bench)", dim, degree, components, m.map, width, m.n_cells);
      else report("lattice (femgpu-bench)", dim, degree, m.map, width, m.n_cells, cen);

      DM dm;
      PetscFE fe;
      char value[64];
      std::snprintf(value, sizeof value, "%d", dim);
      PetscCall(PetscOptionsSetValue(nullptr, "-dm_plex_dim", value));
      std::snprintf(value, sizeof value, dim == 2 ? "%d,%d" : "%d,%d,%d", N, N, N);
      PetscCall(PetscOptionsSetValue(nullptr, "-dm_plex_box_faces", value));
      PetscCall(FEMGPUCreateMeshFromOptions(PETSC_COMM_WORLD, &dm));
      PetscCall(PetscFECreateLagrange(PETSC_COMM_WORLD, dim, components, PETSC_TRUE, degree, degree + 1, &fe));
      PetscCall(DMSetField(dm, 0, nullptr, (PetscObject)fe));
      PetscCall(DMCreateDS(dm));
      femgpu::PlexMaps maps;
      PetscCall(femgpu::plex_build_maps(dm, &maps));
      Vec coords;
      const PetscScalar *x;
      PetscCall(DMGetCoordinatesLocal(dm, &coords));
      PetscCall(VecGetArrayRead(coords, &x));
      const int nc = static_cast<int>(maps.n_cells);
      std::vector<double> pc(static_cast<size_t>(nc) * dim, 0.0);
      for (int c = 0; c < nc; ++c)
        for (int v = 0; v <= dim; ++v)
          for (int d = 0; d < dim; ++d) pc[c * dim + d] += PetscRealPart(x[maps.coordinates[c * maps.coordinate_width + v] + d]) / (dim + 1);
      PetscCall(VecRestoreArrayRead(coords, &x));
      if (scatter) report_scatter("DMPlex box (FEMGPUCreateMesh...)", dim, degree, components, maps.all, static_cast<int>(maps.width), nc);
      else report("DMPlex box (FEMGPUCreateMesh...)", dim, degree, maps.all, static_cast<int>(maps.width), nc, pc);
      PetscCall(PetscFEDestroy(&fe));
      PetscCall(DMDestroy(&dm));
    }
  PetscCall(PetscFinalize());
  return 0;
}
