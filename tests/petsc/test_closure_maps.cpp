// femgpu's closure maps (plex_build_maps: closures from section offsets and closure
// patterns, src/petsc/plex/plex_closure.cpp) are identical, entry for entry, to the maps read
// the slow way, through PETSc's DMPlexVecGetClosure on a vector holding each entry's
// index, cell by cell (femgpu's maps before, and PETSc's own answer): every DOF map (all
// and free, with a Dirichlet condition on the "left" faces) and the coordinate map, for
// every degree in -degrees, scalar and vector fields (-components 1 or the dimension),
// P1 or P2 coordinates, on box meshes or a Gmsh file (-dm_plex_filename: other
// orientations), on any number of ranks. Also that the section SF femgpu sets from the
// sections' arrays (section_sf.h) has PETSc's graph (PetscSFSetGraphSection): the same
// roots, and the same leaves in the same order with the same remote (rank, index), ghosts
// included. Also that each cell's own DOFs (its interior
// nodes, the first lagrange_interior_dimension x C entries of its closure), which the
// kernels add to without atomics, appear in no other cell's closure and once in its own.
// Exit code 1 on the first difference.
#include <petscdmplex.h>
#include <petscfe.h>
#include <petscsf.h>

#include <map>
#include <vector>

#include "femgpu.h"
#include "form/form.h"
#include "left_boundary.h"
#include "petsc/plex/mesh_geometry.h"
#include "petsc/plex/plex_maps.h"
#include "petsc/plex/section_sf.h"

static const char help[] = "Compares femgpu's closure maps with DMPlexVecGetClosure cell by cell.\n"
                           "  -degrees 1,2,3 -components C (0: the dimension) -coordinate_degree 1|2\n";

namespace {

// The closure of every cell through DMPlexVecGetClosure on an index vector of `section`;
// constrained entries (if `mark`) come back as -(index + 1).
PetscErrorCode slow_closures(DM dm, PetscSection section, bool mark, std::vector<PetscInt> *out)
{
  PetscInt n, cStart, cEnd, pStart, pEnd;
  Vec v;
  PetscScalar *a;
  PetscFunctionBegin;
  PetscCall(PetscSectionGetStorageSize(section, &n));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, n, &v));
  PetscCall(VecGetArray(v, &a));
  for (PetscInt i = 0; i < n; ++i) a[i] = static_cast<PetscScalar>(i);
  PetscCall(PetscSectionGetChart(section, &pStart, &pEnd));
  for (PetscInt p = pStart; p < pEnd && mark; ++p) {
    PetscInt cdof, off;
    const PetscInt *cind;
    PetscCall(PetscSectionGetConstraintDof(section, p, &cdof));
    PetscCall(PetscSectionGetOffset(section, p, &off));
    if (cdof) PetscCall(PetscSectionGetConstraintIndices(section, p, &cind));
    for (PetscInt k = 0; k < cdof; ++k) a[off + cind[k]] = -static_cast<PetscScalar>(off + cind[k] + 1);
  }
  PetscCall(VecRestoreArray(v, &a));
  PetscCall(DMPlexGetHeightStratum(dm, 0, &cStart, &cEnd));
  out->clear();
  for (PetscInt c = cStart; c < cEnd; ++c) {
    PetscInt size = 0;
    PetscScalar *values = nullptr;
    PetscCall(DMPlexVecGetClosure(dm, section, v, c, &size, &values));
    for (PetscInt i = 0; i < size; ++i) out->push_back(static_cast<PetscInt>(PetscRealPart(values[i])));
    PetscCall(DMPlexVecRestoreClosure(dm, section, v, c, &size, &values));
  }
  PetscCall(VecDestroy(&v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The number of entries where femgpu's maps differ from the slow ones (0: identical); a
// rank with cells whose maps did not come from the fast path counts as one more (it fell
// back to the slow path, so the comparison would not test the fast one).
// Own DOFs (entries below `owned` of a cell) that appear more than once in the whole map.
PetscInt shared_own_dofs(const femgpu::IndexArray &map, PetscInt n_cells, PetscInt owned)
{
  if (n_cells == 0 || owned == 0) return 0;
  const size_t width = map.size() / static_cast<size_t>(n_cells);
  std::map<int, int> uses;
  for (size_t k = 0; k < map.size(); ++k) ++uses[map[k]];
  PetscInt shared = 0;
  for (size_t k = 0; k < map.size(); ++k)
    if (k % width < static_cast<size_t>(owned) && uses[map[k]] != 1) ++shared;
  return shared;
}

// The entries where two SF graphs differ (sizes, each leaf's local index and its root).
PetscErrorCode sf_differences(PetscSF a, PetscSF b, PetscInt *differences)
{
  PetscInt ra, rb, la, lb;
  const PetscInt *ia, *ib;
  const PetscSFNode *ma, *mb;
  PetscFunctionBegin;
  PetscCall(PetscSFGetGraph(a, &ra, &la, &ia, &ma));
  PetscCall(PetscSFGetGraph(b, &rb, &lb, &ib, &mb));
  *differences = (ra != rb) + (la != lb);
  for (PetscInt l = 0; l < la && l < lb; ++l)
    *differences += (ia ? ia[l] : l) != (ib ? ib[l] : l) || ma[l].rank != mb[l].rank || ma[l].index != mb[l].index;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// PETSc's section SF against the one femgpu sets on the DM (the DM has none before).
PetscErrorCode section_sf_differences(DM dm, PetscInt *differences)
{
  PetscSection local, global;
  PetscSF petsc, ours;
  PetscFunctionBegin;
  PetscCall(DMGetLocalSection(dm, &local));
  PetscCall(DMGetGlobalSection(dm, &global));
  PetscCall(PetscSFCreate(PetscObjectComm((PetscObject)dm), &petsc));
  PetscCall(PetscSFSetGraphSection(petsc, local, global));
  PetscCall(femgpu::plex_set_section_sf(dm));
  PetscCall(DMGetSectionSF(dm, &ours));
  PetscCall(sf_differences(petsc, ours, differences));
  PetscCall(PetscSFDestroy(&petsc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode count_differences(DM dm, PetscInt owned, PetscInt *differences, PetscInt *checked)
{
  femgpu::PlexMaps maps;
  std::vector<PetscInt> slow;
  PetscSection section, csection;
  DM cdm;
  PetscInt dim;
  PetscFunctionBegin;
  PetscCall(femgpu::plex_build_maps(dm, &maps));
  PetscCall(DMGetLocalSection(dm, &section));
  PetscCall(slow_closures(dm, section, true, &slow));
  *differences = slow.size() == maps.all.size() ? 0 : 1;
  for (size_t k = 0; k < slow.size() && k < maps.all.size(); ++k) {
    const PetscInt all = slow[k] < 0 ? -slow[k] - 1 : slow[k], free = slow[k] < 0 ? -1 : slow[k];
    *differences += (maps.all[k] != all) + (maps.free[k] != free);
  }
  PetscCall(DMGetCoordinateDM(dm, &cdm));
  PetscCall(DMGetLocalSection(cdm, &csection));
  PetscCall(DMGetCoordinateDim(dm, &dim));
  PetscCall(slow_closures(cdm, csection, false, &slow));
  const auto &coordinates = *maps.coordinates;
  *differences += slow.size() == coordinates.size() * static_cast<size_t>(dim) ? 0 : 1;
  for (size_t k = 0; k < coordinates.size() && k * dim < slow.size(); ++k) *differences += coordinates[k] != slow[k * dim];
  *checked = static_cast<PetscInt>(maps.all.size() + coordinates.size());
  if (maps.n_cells > 0 && !maps.from_patterns) ++*differences;
  *differences += shared_own_dofs(maps.all, maps.n_cells, owned);
  PetscInt sf = 0;
  PetscCall(section_sf_differences(dm, &sf));
  *differences += sf;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode check_degree(MPI_Comm comm, PetscInt degree, PetscInt components, PetscInt coordinate_degree, PetscInt *differences, PetscInt *checked)
{
  DM dm;
  PetscFE fe;
  DMLabel label;
  PetscInt dim, left = 1;
  PetscFunctionBegin;
  PetscCall(FEMGPUCreateMeshFromOptions(comm, &dm));
  PetscCall(DMGetDimension(dm, &dim));
  if (coordinate_degree == 2) PetscCall(femgpu::set_coordinate_degree(dm, 2));
  PetscCall(MarkLeftBoundary(dm));
  PetscCall(PetscFECreateLagrange(comm, dim, components ? components : dim, PETSC_TRUE, degree, degree + 1, &fe));
  PetscCall(DMAddField(dm, nullptr, (PetscObject)fe));
  PetscCall(PetscFEDestroy(&fe));
  PetscCall(DMCreateDS(dm));
  PetscCall(DMGetLabel(dm, "left", &label));
  PetscCall(DMAddBoundary(dm, DM_BC_ESSENTIAL, "left", label, 1, &left, 0, 0, nullptr, nullptr, nullptr, nullptr, nullptr));
  const PetscInt owned = femgpu::lagrange_interior_dimension(static_cast<int>(dim), static_cast<int>(degree)) * (components ? components : dim);
  PetscCall(count_differences(dm, owned, differences, checked));
  PetscCall(DMDestroy(&dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

int main(int argc, char **argv)
{
  PetscInt degrees[8] = {1, 2, 3, 4}, n_degrees = 8, components = 1, coordinate_degree = 1;
  PetscInt failures = 0;
  PetscCall(PetscInitialize(&argc, &argv, nullptr, help));
  PetscCall(PetscOptionsGetIntArray(nullptr, nullptr, "-degrees", degrees, &n_degrees, nullptr));
  PetscCall(PetscOptionsGetInt(nullptr, nullptr, "-components", &components, nullptr));
  PetscCall(PetscOptionsGetInt(nullptr, nullptr, "-coordinate_degree", &coordinate_degree, nullptr));
  for (PetscInt i = 0; i < n_degrees; ++i) {
    PetscInt differences, checked;
    PetscCall(check_degree(PETSC_COMM_WORLD, degrees[i], components, coordinate_degree, &differences, &checked));
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &differences, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &checked, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
    failures += differences ? 1 : 0;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "P%d, %d components (0: the dimension), P%d coordinates: %d of %d map entries differ  %s\n", (int)degrees[i], (int)components,
                          (int)coordinate_degree, (int)differences, (int)checked, differences ? "FAIL" : "ok"));
  }
  PetscCall(PetscFinalize());
  return failures ? 1 : 0;
}
