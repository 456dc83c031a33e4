// femgpu's global <-> local copies of a mapped DM (plex_global_to_local and
// plex_local_to_global_add, src/petsc/plex/dm_scatter.h) against PETSc's DMGlobalToLocal
// (INSERT_VALUES) and DMLocalToGlobal (ADD_VALUES): fresh random global and local Vecs,
// the local Vec's constrained entries and the global Vec's values poisoned with other
// random values first, so each call must leave and add exactly what PETSc's does (equal
// to the last bit). On one rank the copies must take the maps' numbering (the maps hold
// the local index of every global DOF): a host loop, or with -dm_vec_type cuda the
// device index kernel (checked on a GPU, tests/gpu/run_convert_checks.sh); on several
// ranks they are PETSc's calls. For every
// degree in -degrees, scalar or vector fields (-components 1 or 0: the dimension), with an
// essential condition on the "left" faces, on box meshes, Gmsh files and refined meshes.
// Exit code 1 on the first difference.
#include <petscdmplex.h>

#include <memory>

#include "left_constrained_field.h"
#include "petsc/plex/dm_scatter.h"
#include "petsc/plex/plex_maps.h"

static const char help[] = "Compares femgpu's one-rank global <-> local copies with PETSc's.\n"
                           "  -degrees 1,2,3 -components C (0: the dimension)\n";

namespace {

// Fills v with random values from `rng` (a new draw every call).
PetscErrorCode randomize(Vec v, PetscRandom rng)
{
  PetscFunctionBegin;
  PetscCall(VecSetRandom(v, rng));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Whether a and b hold the same values everywhere (on every rank).
PetscErrorCode same(Vec a, Vec b, PetscBool *equal)
{
  PetscFunctionBegin;
  PetscCall(VecEqual(a, b, equal));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode check_degree(MPI_Comm comm, PetscInt degree, PetscInt components, PetscRandom rng, PetscInt *failures)
{
  DM dm;
  Vec g, l_petsc, l_ours, f, g_petsc, g_ours;
  std::shared_ptr<const femgpu::PlexMaps> maps;
  PetscMPIInt size;
  PetscBool to_local, to_global;
  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(CreateLeftConstrainedField(comm, degree, &components, &dm));
  PetscCall(femgpu::plex_shared_maps(dm, &maps));
  PetscCall(DMCreateGlobalVector(dm, &g));
  PetscCall(DMCreateLocalVector(dm, &l_petsc));
  PetscCall(VecDuplicate(l_petsc, &l_ours));
  PetscCall(VecDuplicate(l_petsc, &f));
  PetscCall(VecDuplicate(g, &g_petsc));
  PetscCall(VecDuplicate(g, &g_ours));
  // global -> local: the constrained entries keep the poison they had
  PetscCall(randomize(g, rng));
  PetscCall(randomize(l_petsc, rng));
  PetscCall(VecCopy(l_petsc, l_ours));
  PetscCall(DMGlobalToLocal(dm, g, INSERT_VALUES, l_petsc));
  PetscCall(femgpu::plex_global_to_local(dm, maps, g, l_ours));
  PetscCall(same(l_petsc, l_ours, &to_local));
  // local -> global: added to what the global Vec held
  PetscCall(randomize(f, rng));
  PetscCall(randomize(g_petsc, rng));
  PetscCall(VecCopy(g_petsc, g_ours));
  PetscCall(DMLocalToGlobal(dm, f, ADD_VALUES, g_petsc));
  PetscCall(femgpu::plex_local_to_global_add(dm, maps, f, g_ours));
  PetscCall(same(g_petsc, g_ours, &to_global));
  // One rank: the copies must go by the maps' numbering, on the side the Vecs live on
  // (a host loop, or the device kernel for CUDA Vecs); several ranks: PETSc's calls.
  femgpu::PlexCopy way, expected = femgpu::PlexCopy::petsc;
  PetscBool cuda;
  PetscCall(femgpu::plex_copy_way(maps, g, l_ours, &way));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)g, &cuda, VECSEQCUDA, VECMPICUDA, ""));
  if (size == 1) expected = cuda ? femgpu::PlexCopy::device : femgpu::PlexCopy::host;
  static const char *name[] = {"PETSc's scatters", "the maps' numbering on the host", "the maps' numbering on the device"};
  const bool bad = !to_local || !to_global || way != expected;
  *failures += bad ? 1 : 0;
  PetscCall(PetscPrintf(comm, "P%d, %d components: global -> local %s, local -> global %s, %s (expected: %s)  %s\n", (int)degree, (int)components,
                        to_local ? "equal" : "DIFFERENT", to_global ? "equal" : "DIFFERENT", name[static_cast<int>(way)],
                        name[static_cast<int>(expected)], bad ? "FAIL" : "ok"));
  PetscCall(VecDestroy(&g_ours));
  PetscCall(VecDestroy(&g_petsc));
  PetscCall(VecDestroy(&f));
  PetscCall(VecDestroy(&l_ours));
  PetscCall(VecDestroy(&l_petsc));
  PetscCall(VecDestroy(&g));
  PetscCall(DMDestroy(&dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

int main(int argc, char **argv)
{
  PetscInt degrees[8] = {1, 2, 3}, n_degrees = 8, components = 1, failures = 0;
  PetscRandom rng;
  PetscCall(PetscInitialize(&argc, &argv, nullptr, help));
  PetscCall(PetscOptionsGetIntArray(nullptr, nullptr, "-degrees", degrees, &n_degrees, nullptr));
  PetscCall(PetscOptionsGetInt(nullptr, nullptr, "-components", &components, nullptr));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rng));
  PetscCall(PetscRandomSetInterval(rng, -1.0, 1.0));
  PetscCall(PetscRandomSetSeed(rng, 20261207));
  PetscCall(PetscRandomSeed(rng));
  for (PetscInt i = 0; i < n_degrees; ++i) PetscCall(check_degree(PETSC_COMM_WORLD, degrees[i], components, rng, &failures));
  PetscCall(PetscRandomDestroy(&rng));
  PetscCall(PetscFinalize());
  return failures ? 1 : 0;
}
