// The one-rank global <-> local copies of a mapped DM (dm_scatter.h).
#include "petsc/plex/dm_scatter.h"

#include <memory>

#include "petsc/base/composed_object.h"
#include "petsc/base/petsc_device.h"
#include "petsc/base/petsc_errors.h"
#if FEMGPU_DEVICE_VECS
  #include "runtime/index_copy.h"
#endif

namespace femgpu {

namespace {

// Whether the maps can stand in for PETSc's scatters: one rank and the inverse numbering.
bool one_rank(const PlexMaps &maps, Vec global, Vec local)
{
  PetscInt n_global, n_local;
  if (maps.local_of_global.empty() || VecGetLocalSize(global, &n_global) || VecGetLocalSize(local, &n_local)) return false;
  return static_cast<size_t>(n_global) == maps.local_of_global.size() && n_local == maps.local_size;
}

#if FEMGPU_DEVICE_VECS
constexpr const char *kDeviceCopyKey = "femgpu_one_rank_index_copy";

// The device indices of the maps they were uploaded from, kept on the DM.
struct HeldIndexCopy {
  std::weak_ptr<const PlexMaps> maps;  // expired once those maps are rebuilt
  std::unique_ptr<DeviceIndexCopy> copy;
};

PetscErrorCode device_copy(DM dm, const std::shared_ptr<const PlexMaps> &maps, DeviceIndexCopy **copy)
{
  HeldIndexCopy *held;
  PetscFunctionBegin;
  PetscCall(query_owned((PetscObject)dm, kDeviceCopyKey, &held));
  if (!held || held->maps.lock() != maps) {
    PetscInt ordinal;
    PetscCall(petsc_cuda_ordinal(&ordinal));
    held = new HeldIndexCopy;
    held->maps = maps;
    PetscCall(compose_owned((PetscObject)dm, kDeviceCopyKey, held));
    FEMGPU_CXX(PetscObjectComm((PetscObject)dm),
               held->copy = make_cuda_index_copy(maps->local_of_global.data(), maps->local_of_global.size(), static_cast<int>(ordinal < 0 ? 0 : ordinal)));
    PetscCall(PetscInfo(dm, "fem_gpu: one rank: global <-> local copies of %zu DOFs on the device through the closure maps' numbering (no star forest)\n",
                        maps->local_of_global.size()));
  }
  *copy = held->copy.get();
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

// Both Vecs on the device: the index copy there. *done is false where they are not.
PetscErrorCode copy_on_device(DM dm, const std::shared_ptr<const PlexMaps> &maps, Vec global, Vec local, bool to_local, PetscBool *done)
{
  PetscFunctionBegin;
  *done = PETSC_FALSE;
#if FEMGPU_DEVICE_VECS
  PetscBool g_dev, l_dev;
  PetscCall(vec_on_cuda(global, &g_dev));
  PetscCall(vec_on_cuda(local, &l_dev));
  if (!g_dev || !l_dev) PetscFunctionReturn(PETSC_SUCCESS);
  DeviceIndexCopy *copy = nullptr;
  PetscCall(device_copy(dm, maps, &copy));
  MPI_Comm comm = PetscObjectComm((PetscObject)dm);
  if (to_local) {
    const PetscScalar *g;
    PetscScalar *l;
    PetscCall(VecCUDAGetArrayRead(global, &g));
    PetscCall(VecCUDAGetArray(local, &l));
    FEMGPU_CXX(comm, copy->to_local(reinterpret_cast<unsigned long long>(g), reinterpret_cast<unsigned long long>(l)));
    PetscCall(VecCUDARestoreArray(local, &l));
    PetscCall(VecCUDARestoreArrayRead(global, &g));
  } else {
    const PetscScalar *l;
    PetscScalar *g;
    PetscCall(VecCUDAGetArrayRead(local, &l));
    PetscCall(VecCUDAGetArray(global, &g));
    FEMGPU_CXX(comm, copy->add_to_global(reinterpret_cast<unsigned long long>(l), reinterpret_cast<unsigned long long>(g)));
    PetscCall(VecCUDARestoreArray(global, &g));
    PetscCall(VecCUDARestoreArrayRead(local, &l));
  }
  *done = PETSC_TRUE;
#else
  (void)dm, (void)maps, (void)global, (void)local, (void)to_local;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode plex_global_to_local(DM dm, const std::shared_ptr<const PlexMaps> &maps, Vec global, Vec local)
{
  PetscBool done;
  PetscFunctionBegin;
  if (!maps || !one_rank(*maps, global, local)) {
    PetscCall(DMGlobalToLocal(dm, global, INSERT_VALUES, local));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(copy_on_device(dm, maps, global, local, true, &done));
  if (done) PetscFunctionReturn(PETSC_SUCCESS);
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
  PetscBool done;
  PetscFunctionBegin;
  if (!maps || !one_rank(*maps, global, local)) {
    PetscCall(DMLocalToGlobal(dm, local, ADD_VALUES, global));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(copy_on_device(dm, maps, global, local, false, &done));
  if (done) PetscFunctionReturn(PETSC_SUCCESS);
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
