// The one-rank global <-> local copies of a mapped DM (dm_scatter.h).
#include "petsc/plex/dm_scatter.h"

#include <memory>

#include "petsc/base/composed_object.h"
#include "petsc/base/petsc_device.h"
#include "petsc/base/petsc_errors.h"
#include "petsc/plex/plex_events.h"
#include "runtime/index_copy.h"

namespace femgpu {

// By the maps where they hold the one-rank inverse of this DM's numbering and both Vecs
// live on the same side (host, or CUDA where this build runs kernels on PETSc's arrays);
// else PETSc's calls.
PetscErrorCode plex_copy_way(const std::shared_ptr<const PlexMaps> &maps, Vec global, Vec local, PlexCopy *way)
{
  PetscInt n_global, n_local;
  PetscBool g_dev, l_dev;
  PetscFunctionBegin;
  *way = PlexCopy::petsc;
  if (!maps || maps->local_of_global.empty()) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecGetLocalSize(global, &n_global));
  PetscCall(VecGetLocalSize(local, &n_local));
  if (static_cast<size_t>(n_global) != maps->local_of_global.size() || n_local != maps->local_size) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(vec_on_cuda(global, &g_dev));
  PetscCall(vec_on_cuda(local, &l_dev));
  if (!g_dev && !l_dev) *way = PlexCopy::host;
  else if (g_dev && l_dev) *way = PlexCopy::device;  // vec_on_cuda is false without FEMGPU_DEVICE_VECS
  PetscFunctionReturn(PETSC_SUCCESS);
}

namespace {

#if FEMGPU_DEVICE_VECS
constexpr const char *kDeviceCopyKey = "femgpu_dm_device_copy";

// The device copy of the DM's maps, composed on the DM.
struct DeviceCopy {
  std::shared_ptr<const PlexMaps> maps;  // whose local_of_global it indexes by
  std::unique_ptr<DeviceIndexCopy> copy;
};

PetscErrorCode device_copy(DM dm, const std::shared_ptr<const PlexMaps> &maps, DeviceIndexCopy **copy)
{
  DeviceCopy *held = nullptr;
  MPI_Comm comm = PetscObjectComm((PetscObject)dm);
  PetscFunctionBegin;
  PetscCall(query_owned((PetscObject)dm, kDeviceCopyKey, &held));
  if (!held || held->maps != maps) {
    PetscInt ordinal;
    PetscCall(petsc_cuda_ordinal(&ordinal));
    PetscCheck(ordinal >= 0, comm, PETSC_ERR_SUP, "fem_gpu: CUDA Vecs, but PETSc's current device is not a CUDA one");
    auto fresh = std::make_unique<DeviceCopy>();
    fresh->maps = maps;
    FEMGPU_CXX(comm, fresh->copy = make_cuda_index_copy(maps->local_of_global.data(), maps->local_of_global.size(), static_cast<int>(ordinal)));
    PetscCall(PetscInfo(dm, "fem_gpu: one-rank global <-> local copies on the device through the maps (%zu entries)\n", maps->local_of_global.size()));
    held = fresh.release();
    PetscCall(compose_owned((PetscObject)dm, kDeviceCopyKey, held));
  }
  *copy = held->copy.get();
  PetscFunctionReturn(PETSC_SUCCESS);
}

// out = copy(in) on the device: insert (global -> local) or add (local -> global).
PetscErrorCode copy_on_device(DM dm, const std::shared_ptr<const PlexMaps> &maps, Vec in, Vec out, bool add)
{
  DeviceIndexCopy *copy = nullptr;
  const PetscScalar *din;
  PetscScalar *dout;
  MPI_Comm comm = PetscObjectComm((PetscObject)dm);
  PetscFunctionBegin;
  PetscCall(device_copy(dm, maps, &copy));
  PetscCall(VecCUDAGetArrayRead(in, &din));
  PetscCall(VecCUDAGetArray(out, &dout));  // not ...Write: the entries no index names stay
  PetscCall(PetscLogGpuTimeBegin());
  if (add) FEMGPU_CXX(comm, copy->add(reinterpret_cast<unsigned long long>(din), reinterpret_cast<unsigned long long>(dout)));
  else FEMGPU_CXX(comm, copy->insert(reinterpret_cast<unsigned long long>(din), reinterpret_cast<unsigned long long>(dout)));
  PetscCall(PetscLogGpuTimeEnd());
  PetscCall(VecCUDARestoreArray(out, &dout));
  PetscCall(VecCUDARestoreArrayRead(in, &din));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

PetscErrorCode copy_on_host(const std::shared_ptr<const PlexMaps> &maps, Vec in, Vec out, bool add)
{
  const PetscScalar *x;
  PetscScalar *y;
  const int *index = maps->local_of_global.data();
  const PetscInt n = static_cast<PetscInt>(maps->local_of_global.size());
  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(in, &x));
  PetscCall(VecGetArray(out, &y));
  if (add) {  // local -> global: y global, x local
#pragma omp parallel for schedule(static) if (n > (1 << 18))
    for (PetscInt i = 0; i < n; ++i) y[i] += x[index[i]];
  } else {  // global -> local: x global, y local
#pragma omp parallel for schedule(static) if (n > (1 << 18))
    for (PetscInt i = 0; i < n; ++i) y[index[i]] = x[i];
  }
  PetscCall(VecRestoreArray(out, &y));
  PetscCall(VecRestoreArrayRead(in, &x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// in -> out through the maps (add: local -> global, ADD_VALUES; else global -> local).
PetscErrorCode copy_by_maps(DM dm, const std::shared_ptr<const PlexMaps> &maps, PlexCopy way, Vec in, Vec out, bool add)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(FEMGPU_DMCopy, dm, in, out, 0));
#if FEMGPU_DEVICE_VECS
  if (way == PlexCopy::device) PetscCall(copy_on_device(dm, maps, in, out, add));
#endif
  if (way == PlexCopy::host) PetscCall(copy_on_host(maps, in, out, add));
  PetscCall(PetscLogEventEnd(FEMGPU_DMCopy, dm, in, out, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode plex_global_to_local(DM dm, const std::shared_ptr<const PlexMaps> &maps, Vec global, Vec local)
{
  PlexCopy way;
  PetscFunctionBegin;
  PetscCall(plex_copy_way(maps, global, local, &way));
  if (way == PlexCopy::petsc) PetscCall(DMGlobalToLocal(dm, global, INSERT_VALUES, local));
  else PetscCall(copy_by_maps(dm, maps, way, global, local, false));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode plex_local_to_global_add(DM dm, const std::shared_ptr<const PlexMaps> &maps, Vec local, Vec global)
{
  PlexCopy way;
  PetscFunctionBegin;
  PetscCall(plex_copy_way(maps, global, local, &way));
  if (way == PlexCopy::petsc) PetscCall(DMLocalToGlobal(dm, local, ADD_VALUES, global));
  else PetscCall(copy_by_maps(dm, maps, way, local, global, true));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
