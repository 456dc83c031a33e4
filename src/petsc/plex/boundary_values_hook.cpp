// femgpu's DMPlexInsertBoundaryValues (boundary_values_hook.h).
#include "petsc/plex/boundary_values_hook.h"

#include <petscdmplex.h>
#include <petscfe.h>

#include <memory>
#include <string>
#include <vector>

#include "petsc/base/composed_object.h"
#include "petsc/base/petsc_compat.h"
#include "petsc/base/petsc_device.h"
#include "petsc/base/petsc_errors.h"
#include "petsc/plex/essential_values.h"
#include "petsc/plex/plex_events.h"
#include "petsc/plex/plex_maps.h"
#include "runtime/index_copy.h"

namespace femgpu {

namespace {

constexpr const char *kValuesKey = "DMPlexInsertBoundaryValues_C";
constexpr const char *kTimeDerivativesKey = "DMPlexInsertTimeDerivativeBoundaryValues_C";
constexpr const char *kStateKey = "femgpu_boundary_values";

using InsertFunction = PetscErrorCode (*)(DM, PetscBool, Vec, PetscReal, Vec, Vec, Vec);

// The plan's writes as a scatter into the local vectors: the values are computed on the
// host (the program's boundary functions are host callbacks) and only they travel; the
// local vector is written where it lives (on the device for CUDA Vecs, with no copy of the
// whole vector either way). CUDA Vecs take femgpu's index copy (runtime/index_copy.h: no
// star forest to set up), other types a VecScatter.
struct ValuesScatter {
  std::string type;  // of the local vectors it was made for; empty: not made
  Vec values = nullptr;
  VecScatter scatter = nullptr;
  std::unique_ptr<DeviceIndexCopy> device;  // for CUDA Vecs, made at their first insertion
};

struct BoundaryValues {
  InsertFunction petsc_values = nullptr, petsc_time_derivatives = nullptr;  // PETSc's, for what the plan does not cover
  std::shared_ptr<const PlexMaps> maps;                                     // the plan was built on
  std::shared_ptr<EssentialPlan> plan;
  ValuesScatter scatter;  // of this plan
};

PetscErrorCode destroy_scatter(ValuesScatter *s)
{
  PetscFunctionBegin;
  PetscCall(VecDestroy(&s->values));
  PetscCall(VecScatterDestroy(&s->scatter));
  s->device.reset();
  s->type.clear();
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode release_boundary_values(void *ptr)
{
  auto *b = static_cast<BoundaryValues *>(ptr);
  PetscFunctionBegin;
  PetscCall(destroy_scatter(&b->scatter));
  delete b;
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if FEMGPU_DEVICE_VECS
// Writes the plan's values at `time` into the CUDA Vec x through the device index copy.
PetscErrorCode insert_on_device(BoundaryValues *b, PetscReal time, Vec x, bool time_derivative)
{
  const EssentialPlan &plan = *b->plan;
  ValuesScatter &s = b->scatter;
  MPI_Comm comm = PetscObjectComm((PetscObject)x);
  std::vector<PetscScalar> values(plan.writes.size());
  PetscScalar *dx;
  PetscFunctionBegin;
  if (!s.device) {
    PetscInt ordinal;
    std::vector<int> index(plan.writes.size());
    for (size_t w = 0; w < index.size(); ++w) index[w] = static_cast<int>(plan.writes[w].index);
    PetscCall(petsc_cuda_ordinal(&ordinal));
    PetscCheck(ordinal >= 0, comm, PETSC_ERR_SUP, "fem_gpu: a CUDA Vec, but PETSc's current device is not a CUDA one");
    FEMGPU_CXX(comm, s.device = make_cuda_index_copy(index.data(), index.size(), static_cast<int>(ordinal)));
  }
  PetscCall(essential_plan_values(plan, time, time_derivative, values.data()));
  PetscCall(VecCUDAGetArray(x, &dx));  // not ...Write: only the constrained entries change
  PetscCall(PetscLogGpuTimeBegin());
  FEMGPU_CXX(comm, s.device->insert_host(values.data(), reinterpret_cast<unsigned long long>(dx)));
  PetscCall(PetscLogGpuTimeEnd());
  PetscCall(VecCUDARestoreArray(x, &dx));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

// Writes the plan's values at `time` into x through the scatter, made again when x's type
// differs from the one it was made for (the device index copy for CUDA Vecs).
PetscErrorCode scatter_values(BoundaryValues *b, PetscReal time, Vec x, bool time_derivative)
{
  const EssentialPlan &plan = *b->plan;
  ValuesScatter &s = b->scatter;
  VecType type;
  PetscScalar *v;
  PetscBool cuda;
  PetscFunctionBegin;
  if (plan.writes.empty()) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(vec_on_cuda(x, &cuda));
#if FEMGPU_DEVICE_VECS
  if (cuda) {
    PetscCall(insert_on_device(b, time, x, time_derivative));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#else
  (void)cuda;  // false: this build runs no kernels on PETSc's arrays
#endif
  PetscCall(VecGetType(x, &type));
  if (s.type != type) {
    IS to;
    std::vector<PetscInt> index(plan.writes.size());
    const PetscInt n = static_cast<PetscInt>(index.size());
    for (size_t w = 0; w < index.size(); ++w) index[w] = plan.writes[w].index;
    PetscCall(destroy_scatter(&s));
    PetscCall(ISCreateGeneral(PETSC_COMM_SELF, n, index.data(), PETSC_COPY_VALUES, &to));
    PetscCall(VecCreate(PETSC_COMM_SELF, &s.values));
    PetscCall(VecSetSizes(s.values, n, n));
    PetscCall(VecSetType(s.values, type));
    PetscCall(VecScatterCreate(s.values, nullptr, x, to, &s.scatter));
    PetscCall(ISDestroy(&to));
    s.type = type;
  }
  PetscCall(VecGetArrayWrite(s.values, &v));
  PetscCall(essential_plan_values(plan, time, time_derivative, v));
  PetscCall(VecRestoreArrayWrite(s.values, &v));
  PetscCall(VecScatterBegin(s.scatter, s.values, x, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(s.scatter, s.values, x, INSERT_VALUES, SCATTER_FORWARD));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The plan for the DM's maps as they are now.
PetscErrorCode current_plan(DM dm, BoundaryValues *b)
{
  std::shared_ptr<const PlexMaps> maps;
  PetscFunctionBegin;
  PetscCall(plex_shared_maps(dm, &maps));
  if (b->plan && maps == b->maps) PetscFunctionReturn(PETSC_SUCCESS);
  b->maps = maps;
  PetscCall(destroy_scatter(&b->scatter));  // it wrote the old plan's entries
  b->plan = std::make_shared<EssentialPlan>();
  PetscCall(PetscLogEventBegin(FEMGPU_BoundaryPlan, dm, 0, 0, 0));
  PetscCall(essential_plan_build(dm, *maps, b->plan.get()));
  PetscCall(PetscLogEventEnd(FEMGPU_BoundaryPlan, dm, 0, 0, 0));
  if (!b->plan->unsupported.empty()) PetscCall(PetscInfo(dm, "fem_gpu: PETSc inserts the boundary values: %s\n", b->plan->unsupported.c_str()));
  else
    PetscCall(PetscInfo(dm, "fem_gpu: boundary values%s from %zu nodes of %zu essential boundaries\n",
                        essential_plan_has_time_derivatives(*b->plan) ? " and their time derivatives" : "", b->plan->nodes.size(),
                        b->plan->boundaries.size()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode insert(DM dm, PetscBool essential, Vec x, PetscReal time, Vec face_geometry, Vec cell_geometry, Vec gradients, bool time_derivative)
{
  BoundaryValues *b = nullptr;
  PetscObject zero = nullptr;
  PetscInt n = -1;
  PetscFunctionBegin;
  PetscCall(query_owned((PetscObject)dm, kStateKey, &b));
  PetscCheck(b, PetscObjectComm((PetscObject)dm), PETSC_ERR_PLIB, "fem_gpu: boundary values hook without its state");
  const InsertFunction petsc = time_derivative ? b->petsc_time_derivatives : b->petsc_values;
  if (x) PetscCall(PetscObjectQuery((PetscObject)x, "__Vec_bc_zero__", &zero));
  if (x) PetscCall(VecGetLocalSize(x, &n));
  bool ours = x && essential && !face_geometry && !cell_geometry && !gradients && !zero;
  if (ours) PetscCall(current_plan(dm, b));
  ours = ours && b->plan->unsupported.empty() && n == b->maps->local_size && (!time_derivative || essential_plan_has_time_derivatives(*b->plan));
  if (ours) {
    PetscCall(PetscLogEventBegin(FEMGPU_BoundaryValues, dm, x, 0, 0));
    PetscCall(scatter_values(b, time, x, time_derivative));
    PetscCall(PetscLogEventEnd(FEMGPU_BoundaryValues, dm, x, 0, 0));
  } else if (petsc) {
    PetscCall(petsc(dm, essential, x, time, face_geometry, cell_geometry, gradients));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode InsertBoundaryValues_FEMGPU(DM dm, PetscBool essential, Vec x, PetscReal time, Vec face, Vec cell, Vec gradients)
{
  PetscFunctionBegin;
  PetscCall(insert(dm, essential, x, time, face, cell, gradients, false));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode InsertTimeDerivativeBoundaryValues_FEMGPU(DM dm, PetscBool essential, Vec x_t, PetscReal time, Vec face, Vec cell, Vec gradients)
{
  PetscFunctionBegin;
  PetscCall(insert(dm, essential, x_t, time, face, cell, gradients, true));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode DMFEMGPUInsertBoundaryValuesFromPlan(DM dm)
{
  PetscBool plex;
  PetscInt n_fields;
  PetscObject field;
  PetscClassId id;
  InsertFunction values = nullptr, time_derivatives = nullptr;
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)dm, DMPLEX, &plex));
  if (!plex) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMGetNumFields(dm, &n_fields));
  if (n_fields != 1) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMGetField(dm, 0, nullptr, &field));
  PetscCall(PetscObjectGetClassId(field, &id));
  if (id != PETSCFE_CLASSID) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectQueryFunction((PetscObject)dm, kValuesKey, &values));
  PetscCall(PetscObjectQueryFunction((PetscObject)dm, kTimeDerivativesKey, &time_derivatives));
  if (values == InsertBoundaryValues_FEMGPU) PetscFunctionReturn(PETSC_SUCCESS);  // already femgpu's
  auto *state = new BoundaryValues;
  state->petsc_values = values;
  state->petsc_time_derivatives = time_derivatives;
  PetscCall((compose_owned<BoundaryValues, release_boundary_values>((PetscObject)dm, kStateKey, state)));
  PetscCall(PetscObjectComposeFunction((PetscObject)dm, kValuesKey, InsertBoundaryValues_FEMGPU));
  PetscCall(PetscObjectComposeFunction((PetscObject)dm, kTimeDerivativesKey, InsertTimeDerivativeBoundaryValues_FEMGPU));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
