// The one-rank global <-> local copies of a mapped DM (dm_scatter.h).
#include "petsc/plex/dm_scatter.h"

#include <memory>

#include "petsc/base/petsc_device.h"

namespace femgpu {

namespace {

// Whether the maps can stand in for PETSc's scatters: one rank, the inverse numbering and
// host Vecs (CUDA Vecs keep PETSc's scatters until the device copy is checked on a GPU).
bool one_rank(const PlexMaps &maps, Vec global, Vec local)
{
  PetscInt n_global, n_local;
  PetscBool g_dev = PETSC_FALSE, l_dev = PETSC_FALSE;
  if (maps.local_of_global.empty() || VecGetLocalSize(global, &n_global) || VecGetLocalSize(local, &n_local)) return false;
  if (vec_on_cuda(global, &g_dev) || vec_on_cuda(local, &l_dev) || g_dev || l_dev) return false;
  return static_cast<size_t>(n_global) == maps.local_of_global.size() && n_local == maps.local_size;
}

}  // namespace

PetscErrorCode plex_global_to_local(DM dm, const std::shared_ptr<const PlexMaps> &maps, Vec global, Vec local)
{
  PetscFunctionBegin;
  if (!maps || !one_rank(*maps, global, local)) {
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
  PetscFunctionBegin;
  if (!maps || !one_rank(*maps, global, local)) {
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
