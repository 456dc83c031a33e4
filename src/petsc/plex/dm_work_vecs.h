// A DM's Vecs without PETSc's walk over the section's chart.
//
// DMCreateGlobalVector and DMCreateLocalVector find a block size by visiting every point
// of the section's chart (DMCreateGlobalVector_Section_Private and its local twin), and a
// DMPlex chart holds every mesh point, with DOFs or not: 30M points at 6.7M tetrahedra,
// about 0.25 s a call on the host. PCs make their work Vecs through MatCreateVecs (Jacobi
// at its first apply) and the SNES callbacks take two local Vecs from the DM's pool, which
// makes each of them this way the first time. A Vec the DM made already gives the same
// result by VecDuplicate (type, layout and block size, the DM's Vec operations, the DM).
//
// Takes: a DM and Vecs of it. dm_note_global_vec keeps a duplicate of a global Vec of the
// DM (SNES's iterate) on the DM, its DM and composed objects cleared so that the DM
// holding it makes no reference cycle, with the id of the global section it was made for.
// dm_create_global_vec gives a new duplicate of it where it is current (the same global
// section, the DM's Vec type) on every rank, else DMCreateGlobalVector.
// dm_get_local_vec_like / dm_restore_local_vec_like lend a local Vec of the DM kept on the
// DM, made by VecDuplicate of `like` (a local Vec of the DM) the first time, for as long as
// the local section and Vec type stay; one lent at a time (a second request, or a stale
// one, takes DMGetLocalVector).
// The kept Vecs hold their memory while the DM lives (a host Vec's array at once, a CUDA
// Vec's at its first use), as PETSc's own pool of work Vecs does.
// Does not: copy values; the Vecs it gives hold whatever their memory held.
#pragma once

#include <petscdm.h>

namespace femgpu {

PetscErrorCode dm_note_global_vec(DM dm, Vec x);
PetscErrorCode dm_create_global_vec(DM dm, Vec *v);  // collective

PetscErrorCode dm_get_local_vec_like(DM dm, Vec like, Vec *v);
PetscErrorCode dm_restore_local_vec_like(DM dm, Vec *v);

}  // namespace femgpu
