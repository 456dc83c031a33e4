// Offline: how many 32-byte sectors a warp's gather instruction touches (entry j of 32
// consecutive cells' map rows, 8-byte values), on femgpu-bench's lattice mesh and on a
// DMPlex box mesh as PETSc numbers it, in each mesh's own cell order, in Z-order of the
// centroids, and sorted by each cell's smallest DOF. Needs no GPU.
#include <petscdmplex.h>
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <set>
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

}  // namespace

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, nullptr, nullptr));
  for (int dim : {2, 3})
    for (int degree : {2, 4}) {
      const int N = dim == 2 ? 256 : 24;
      femgpu::LatticeMesh m = femgpu::lattice_mesh(dim, N, degree, 1);
      const int width = static_cast<int>(m.map.size()) / m.n_cells;
      std::vector<double> cen(static_cast<size_t>(m.n_cells) * dim, 0.0);
      for (int c = 0; c < m.n_cells; ++c)
        for (int v = 0; v <= dim; ++v)
          for (int d = 0; d < dim; ++d) cen[c * dim + d] += m.coordinates[m.coordinate_map[c * (dim + 1) + v] + d] / (dim + 1);
      report("lattice (femgpu-bench)", dim, degree, m.map, width, m.n_cells, cen);

      DM dm;
      PetscFE fe;
      char value[64];
      std::snprintf(value, sizeof value, "%d", dim);
      PetscCall(PetscOptionsSetValue(nullptr, "-dm_plex_dim", value));
      std::snprintf(value, sizeof value, dim == 2 ? "%d,%d" : "%d,%d,%d", N, N, N);
      PetscCall(PetscOptionsSetValue(nullptr, "-dm_plex_box_faces", value));
      PetscCall(FEMGPUCreateMeshFromOptions(PETSC_COMM_WORLD, &dm));
      PetscCall(PetscFECreateLagrange(PETSC_COMM_WORLD, dim, 1, PETSC_TRUE, degree, degree + 1, &fe));
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
      report("DMPlex box (FEMGPUCreateMesh...)", dim, degree, maps.all, static_cast<int>(maps.width), nc, pc);
      PetscCall(PetscFEDestroy(&fe));
      PetscCall(DMDestroy(&dm));
    }
  PetscCall(PetscFinalize());
  return 0;
}
