// The one-rank global <-> local copies of a mapped DM (dm_scatter.h).
#include "petsc/plex/dm_scatter.h"

#include <memory>

#include "petsc/base/petsc_device.h"

namespace femgpu {

namespace {

// Whether the maps can stand in for PETSc's scatters: one rank, the inverse numbering and
// host Vecs (CUDA Vecs keep PETSc's scatters until the device copy is checked on a GPU).
PetscErrorCode by_maps(const std::shared_ptr<const PlexMaps> &maps, Vec global, Vec local, bool *yes)
{
  PetscInt n_global, n_local;
  PetscBool g_dev, l_dev;
  PetscFunctionBegin;
  *yes = false;
  if (!maps || maps->local_of_global.empty()) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecGetLocalSize(global, &n_global));
  PetscCall(VecGetLocalSize(local, &n_local));
  PetscCall(vec_on_cuda(global, &g_dev));
  PetscCall(vec_on_cuda(local, &l_dev));
  *yes = !g_dev && !l_dev && static_cast<size_t>(n_global) == maps->local_of_global.size() && n_local == maps->local_size;
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode plex_global_to_local(DM dm, const std::shared_ptr<const PlexMaps> &maps, Vec global, Vec local)
{
  bool yes;
  PetscFunctionBegin;
  PetscCall(by_maps(maps, global, local, &yes));
  if (!yes) {
    PetscCall(DMGlobalToLocal(dm, global, INSERT_VALUES, local));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  const PetscScalar *g;
  PetscScalar *l;
  const int *index = maps->local_of_global.data();
  const PetscInt n = static_cast<PetscInt>(maps->local_of_global.size());
  PetscCall(VecGetArrayRead(global, &g));
  PetscCall(VecGetArray(local, &l));
#pragma omp parallel for schedule(static) if (n > (1 << 18))
  for (PetscInt i = 0; i < n; ++i) l[index[i]] = g[i];
  PetscCall(VecRestoreArray(local, &l));
  PetscCall(VecRestoreArrayRead(global, &g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode plex_local_to_global_add(DM dm, const std::shared_ptr<const PlexMaps> &maps, Vec local, Vec global)
{
  bool yes;
  PetscFunctionBegin;
  PetscCall(by_maps(maps, global, local, &yes));
  if (!yes) {
    PetscCall(DMLocalToGlobal(dm, local, ADD_VALUES, global));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  const PetscScalar *l;
  PetscScalar *g;
  const int *index = maps->local_of_global.data();
  const PetscInt n = static_cast<PetscInt>(maps->local_of_global.size());
  PetscCall(VecGetArrayRead(local, &l));
  PetscCall(VecGetArray(global, &g));
#pragma omp parallel for schedule(static) if (n > (1 << 18))
  for (PetscInt i = 0; i < n; ++i) g[i] += l[index[i]];
  PetscCall(VecRestoreArray(global, &g));
  PetscCall(VecRestoreArrayRead(local, &l));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
