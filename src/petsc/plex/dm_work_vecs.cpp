// A DM's Vecs by VecDuplicate of one it has (dm_work_vecs.h).
#include "petsc/plex/dm_work_vecs.h"

#include <petsc/private/vecimpl.h>
#include <petscsection.h>

#include <string>

#include "petsc/base/composed_object.h"

namespace femgpu {

namespace {

constexpr const char *kKey = "femgpu_dm_work_vecs";

// What a DM keeps: Vecs holding no reference to another object (so no cycle through the
// DM), each with the id of the section it was made for (ids are never reused).
struct WorkVecs {
  Vec global = nullptr;
  PetscObjectId global_section = 0;
  Vec local = nullptr;
  PetscObjectId local_section = 0;
  bool local_lent = false;
  ~WorkVecs()
  {
    (void)VecDestroy(&global);
    (void)VecDestroy(&local);
  }
};

PetscErrorCode work_vecs(DM dm, WorkVecs **work)
{
  PetscFunctionBegin;
  PetscCall(query_owned((PetscObject)dm, kKey, work));
  if (!*work) {
    *work = new WorkVecs;
    PetscCall(compose_owned((PetscObject)dm, kKey, *work));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A duplicate of v with its operations (a sequential VecDuplicate leaves out those the
// DM set, VecView_Plex's among them; the device types copy them as here).
PetscErrorCode duplicate(Vec v, Vec *d)
{
  PetscFunctionBegin;
  PetscCall(VecDuplicate(v, d));
  *(*d)->ops = *v->ops;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The same holding no reference to another object: its composed objects (the DM among
// them) are dropped.
PetscErrorCode bare_duplicate(Vec v, Vec *d)
{
  PetscFunctionBegin;
  PetscCall(duplicate(v, d));
  PetscCall(PetscObjectListDestroy(&((PetscObject)*d)->olist));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Whether a Vec of type `type` is what VecSetType(dm_type) makes: the type itself, or its
// sequential or parallel form ("cuda": "seqcuda", "mpicuda"; "standard": "seq", "mpi").
bool made_by_type(const char *dm_type, const char *type)
{
  const std::string dm(dm_type), v(type);
  if (v == dm || v == "seq" + dm || v == "mpi" + dm) return true;
  return dm == VECSTANDARD && (v == VECSEQ || v == VECMPI);
}

// Whether kept Vec v, made for the section of id `made_for`, is one of `section` and of
// the DM's Vec type.
PetscErrorCode kept_current(DM dm, Vec v, PetscObjectId made_for, PetscSection section, PetscBool *yes)
{
  PetscObjectId id;
  VecType dm_type, type;
  PetscFunctionBegin;
  *yes = PETSC_FALSE;
  if (!v) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectGetId((PetscObject)section, &id));
  PetscCall(DMGetVecType(dm, &dm_type));
  PetscCall(VecGetType(v, &type));
  *yes = (PetscBool)(id == made_for && dm_type && type && made_by_type(dm_type, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode dm_note_global_vec(DM dm, Vec x)
{
  DM xdm;
  PetscSection section;
  WorkVecs *work;
  PetscBool current, bound = PETSC_FALSE;
  PetscFunctionBegin;
  PetscCall(DMGetGlobalSection(dm, &section));
  PetscCall(work_vecs(dm, &work));
  PetscCall(kept_current(dm, work->global, work->global_section, section, &current));
  if (current) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecGetDM(x, &xdm));
#if PetscDefined(HAVE_DEVICE)
  PetscCall(VecBoundToCPU(x, &bound));  // its duplicates would be bound too
#endif
  if (xdm != dm || bound) PetscFunctionReturn(PETSC_SUCCESS);
  PetscInt n_x, n_section;
  PetscCall(VecGetLocalSize(x, &n_x));
  PetscCall(PetscSectionGetConstrainedStorageSize(section, &n_section));  // x may predate the section
  if (n_x != n_section) PetscFunctionReturn(PETSC_SUCCESS);
  Vec made;
  PetscObjectId id;
  PetscCall(bare_duplicate(x, &made));
  PetscCall(PetscObjectGetId((PetscObject)section, &id));
  PetscCall(kept_current(dm, made, id, section, &current));  // x is of the DM's Vec type
  if (!current) {
    PetscCall(VecDestroy(&made));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(VecDestroy(&work->global));
  work->global = made;
  work->global_section = id;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode dm_create_global_vec(DM dm, Vec *v)
{
  PetscSection section;
  WorkVecs *work;
  PetscBool current;
  PetscFunctionBegin;
  PetscCall(DMGetGlobalSection(dm, &section));
  PetscCall(work_vecs(dm, &work));
  PetscCall(kept_current(dm, work->global, work->global_section, section, &current));
  // DMCreateGlobalVector is collective: every rank takes the same way.
  int all = current ? 1 : 0;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_LAND, PetscObjectComm((PetscObject)dm)));
  if (!all) {
    PetscCall(DMCreateGlobalVector(dm, v));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(duplicate(work->global, v));
  PetscCall(VecSetDM(*v, dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode dm_get_local_vec_like(DM dm, Vec like, Vec *v)
{
  PetscSection section;
  WorkVecs *work;
  PetscBool current;
  PetscFunctionBegin;
  PetscCall(DMGetLocalSection(dm, &section));
  PetscCall(work_vecs(dm, &work));
  PetscCall(kept_current(dm, work->local, work->local_section, section, &current));
  if (work->local_lent || (!current && !like)) {
    PetscCall(DMGetLocalVector(dm, v));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (!current) {
    PetscCall(VecDestroy(&work->local));
    PetscCall(bare_duplicate(like, &work->local));
    PetscCall(PetscObjectGetId((PetscObject)section, &work->local_section));
  }
  PetscCall(VecSetDM(work->local, dm));  // while lent; dropped at the restore
  work->local_lent = true;
  *v = work->local;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode dm_restore_local_vec_like(DM dm, Vec *v)
{
  WorkVecs *work;
  PetscFunctionBegin;
  PetscCall(query_owned((PetscObject)dm, kKey, &work));
  if (!work || !work->local_lent || *v != work->local) {
    PetscCall(DMRestoreLocalVector(dm, v));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(VecSetDM(work->local, nullptr));
  work->local_lent = false;
  *v = nullptr;
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
