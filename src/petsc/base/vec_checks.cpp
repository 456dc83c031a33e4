#include "petsc/base/vec_checks.h"

#include <petscsection.h>

#include "petsc/base/composed_object.h"

namespace femgpu {

namespace {

const char *side_name(MatSide side) { return side == MatSide::rows ? "rows" : "columns"; }

// How to make a Vec that fits, for every message.
const char *remedy(MatSide side)
{
  return side == MatSide::rows ? "MatCreateVecs(A, NULL, &v) or a global Vec of the Mat's DM" : "MatCreateVecs(A, &v, NULL) or a global Vec of the Mat's DM";
}

// The first rank whose part of `a` differs from its part of `b` (equal sizes of
// communicator), -1 if none.
PetscMPIInt first_rank_differing(const PetscInt *a, const PetscInt *b, PetscMPIInt n_ranks)
{
  for (PetscMPIInt r = 0; r < n_ranks; ++r)
    if (a[r] != b[r] || a[r + 1] != b[r + 1]) return r;
  return -1;
}

}  // namespace

PetscErrorCode check_vec_layout(Mat A, const char *operation, const char *argument, Vec v, MatSide side)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)A);
  const char *type = ((PetscObject)A)->type_name;
  PetscFunctionBegin;
  PetscCheck(v, comm, PETSC_ERR_ARG_NULL, "%s of a %s Mat: Vec %s is NULL", operation, type, argument);
  PetscValidHeaderSpecific(v, VEC_CLASSID, 4);
  PetscLayout rows, columns, layout;
  PetscInt mat_n, vec_n;
  const PetscInt *mat_range, *vec_range;
  PetscCall(MatGetLayouts(A, &rows, &columns));
  // A shell made by MatCreate, MatSetSizes and MatSetType has its layouts' sizes but
  // not yet their ranges (nothing set it up): every rank alike, so collective here.
  PetscCall(PetscLayoutSetUp(rows));
  PetscCall(PetscLayoutSetUp(columns));
  PetscCall(PetscLayoutGetSize(side == MatSide::rows ? rows : columns, &mat_n));
  PetscCall(PetscLayoutGetRanges(side == MatSide::rows ? rows : columns, &mat_range));
  PetscCall(VecGetLayout(v, &layout));
  PetscCall(PetscLayoutGetSize(layout, &vec_n));
  PetscCall(PetscLayoutGetRanges(layout, &vec_range));
  PetscCheck(vec_n == mat_n, comm, PETSC_ERR_ARG_SIZ, "%s of a %s Mat: Vec %s has global size %" PetscInt_FMT ", but the Mat has %" PetscInt_FMT " %s; %s must have the layout of the Mat's %s (%s)",
             operation, type, argument, vec_n, mat_n, side_name(side), argument, side_name(side), remedy(side));
  PetscMPIInt mat_ranks, vec_ranks;
  PetscCallMPI(MPI_Comm_size(comm, &mat_ranks));
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)v), &vec_ranks));
  PetscCheck(vec_ranks == mat_ranks, comm, PETSC_ERR_ARG_INCOMP,
             "%s of a %s Mat: Vec %s is distributed over %d process(es), the Mat over %d; %s must have the layout of the Mat's %s (%s)", operation, type,
             argument, (int)vec_ranks, (int)mat_ranks, argument, side_name(side), remedy(side));
  const PetscMPIInt r = first_rank_differing(vec_range, mat_range, mat_ranks);
  PetscCheck(r < 0, comm, PETSC_ERR_ARG_INCOMP,
             "%s of a %s Mat: Vec %s has the global size of the Mat's %s (%" PetscInt_FMT ") but another parallel layout: rank %d holds %" PetscInt_FMT
             " of its entries, and %" PetscInt_FMT " of the Mat's %s; %s must have the layout of the Mat's %s (%s)",
             operation, type, argument, side_name(side), mat_n, (int)r, vec_range[r + 1] - vec_range[r], mat_range[r + 1] - mat_range[r],
             side_name(side), argument, side_name(side), remedy(side));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The storage size of a local section, kept on the section: PetscSectionGetStorageSize
// walks every point of the chart (about 4 million at a million P2 unknowns in 3D, several
// milliseconds a call), and the residual checks three local Vecs at every evaluation. As
// for the closure maps (plex_shared_maps), a section is taken as unchanged while it is the
// same object: PETSc gives a DM a new section rather than editing the one in use.
static PetscErrorCode local_storage_size(PetscSection section, PetscInt *size)
{
  static const char kKey[] = "femgpu_storage_size";
  PetscInt *kept;
  PetscFunctionBegin;
  PetscCall(query_owned((PetscObject)section, kKey, &kept));
  if (kept) {
    *size = *kept;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscSectionGetStorageSize(section, size));
  PetscCall(compose_owned((PetscObject)section, kKey, new PetscInt(*size)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode check_local_vec(DM dm, const char *operation, const char *argument, Vec v)
{
  PetscSection section;
  PetscInt want, have;
  PetscFunctionBegin;
  PetscCheck(v, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "%s: local Vec %s is NULL", operation, argument);
  PetscCall(DMGetLocalSection(dm, &section));
  PetscCall(local_storage_size(section, &want));
  PetscCall(VecGetLocalSize(v, &have));
  PetscCheck(have == want, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ,
             "%s: local Vec %s has %" PetscInt_FMT " entries, but the DM's local section has %" PetscInt_FMT " (a local Vec of the DM: DMGetLocalVector() or DMCreateLocalVector())",
             operation, argument, have, want);
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
