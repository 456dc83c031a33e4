// SNES's global callbacks for a DM with femgpu's local residual or Jacobian.
//
// PETSc's DMSNESSetFunctionLocal and DMSNESSetJacobianLocal install global callbacks that
// bring SNES's iterate into a local vector with DMGlobalToLocal (and the residual back with
// DMLocalToGlobal), through the DM's section star forest. On one rank that star forest's
// first use sets it up (a sort of every leaf: 0.05 s at a million unknowns, 0.35 s at
// 3.3 million), inside the first residual of every solve, although on one rank the copy
// is an index map femgpu's closure maps already hold. These callbacks take PETSc's steps
// in PETSc's order (dmlocalsnes.c: zero the local vectors, the boundary hook, global to
// local, the hook again after a basis transform, the local function, F zeroed and the
// local residual summed in, the -dmsnes_*_vec_view options) with plex/dm_scatter.h's
// copies (host loops or device index kernels on one rank, PETSc's own calls on several).
// They also show the DM SNES's iterate, so that a fem_gpu Mat's MatCreateVecs duplicates
// it, and take the residual's second local Vec from the DM's kept one
// (plex/dm_work_vecs.h): PETSc would make each by a walk over every mesh point.
//
// Takes: a DM on which femgpu set the local residual (snes_residual.cpp) or Jacobian
// (snes_jacobian.cpp). The callbacks read the DM's current local functions and boundary
// hook through PETSc's getters at every call, so a program that sets its own local
// functions later gets PETSc's callbacks back with them (DMSNESSetFunctionLocal sets both).
// Does not: change what the local functions compute.
#include "petsc/solvers/snes_dm_global.h"

#include <petscdmplex.h>
#include <petscsnes.h>

#include <memory>

#include "petsc/plex/dm_scatter.h"
#include "petsc/plex/dm_work_vecs.h"
#include "petsc/plex/plex_maps.h"

namespace femgpu {

namespace {

using Boundary = PetscErrorCode (*)(DM, Vec, void *);

// The DM's maps where its copies can use them (one PetscFE field: what femgpu maps),
// else null (PETSc's DMGlobalToLocal and DMLocalToGlobal).
PetscErrorCode scatter_maps(DM dm, std::shared_ptr<const PlexMaps> *maps)
{
  PetscInt nf;
  PetscBool plex;
  PetscFunctionBegin;
  maps->reset();
  PetscCall(PetscObjectTypeCompare((PetscObject)dm, DMPLEX, &plex));
  PetscCall(DMGetNumFields(dm, &nf));
  if (plex && nf == 1) PetscCall(plex_shared_maps(dm, maps));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// x_local = SNES's iterate with the DM's boundary values, as PETSc's callbacks make it.
PetscErrorCode iterate_local(DM dm, const std::shared_ptr<const PlexMaps> &maps, Vec x, Vec x_local)
{
  Boundary boundary = nullptr;
  void *boundary_ctx = nullptr;
  PetscBool transform;
  PetscFunctionBegin;
  PetscCall(DMSNESGetBoundaryLocal(dm, &boundary, &boundary_ctx));
  PetscCall(VecZeroEntries(x_local));
  if (boundary) PetscCall(boundary(dm, x_local, boundary_ctx));  // before the copy, as PETSc (non-conforming meshes)
  PetscCall(plex_global_to_local(dm, maps, x, x_local));
  PetscCall(DMHasBasisTransform(dm, &transform));
  if (transform && boundary) PetscCall(boundary(dm, x_local, boundary_ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// -dmsnes_solution_vec_view and -dmsnes_residual_vec_view, with PETSc's names.
PetscErrorCode view_from_options(SNES snes, Vec x, Vec f)
{
  char name[PETSC_MAX_PATH_LEN], old[PETSC_MAX_PATH_LEN];
  const char *had;
  PetscInt it;
  PetscFunctionBegin;
  PetscCall(SNESGetIterationNumber(snes, &it));
  PetscCall(PetscSNPrintf(name, sizeof(name), "Solution, Iterate %" PetscInt_FMT, it));
  PetscCall(PetscObjectGetName((PetscObject)x, &had));
  PetscCall(PetscStrncpy(old, had, sizeof(old)));
  PetscCall(PetscObjectSetName((PetscObject)x, name));
  PetscCall(VecViewFromOptions(x, (PetscObject)snes, "-dmsnes_solution_vec_view"));
  PetscCall(PetscObjectSetName((PetscObject)x, old));
  PetscCall(PetscSNPrintf(name, sizeof(name), "Residual, Iterate %" PetscInt_FMT, it));
  PetscCall(PetscObjectSetName((PetscObject)f, name));
  PetscCall(VecViewFromOptions(f, (PetscObject)snes, "-dmsnes_residual_vec_view"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode function_global(SNES snes, Vec x, Vec f, void *)
{
  DM dm;
  Vec x_local, f_local;
  PetscErrorCode (*residual)(DM, Vec, Vec, void *) = nullptr;
  void *residual_ctx = nullptr;
  std::shared_ptr<const PlexMaps> maps;
  PetscFunctionBegin;
  PetscCall(SNESGetDM(snes, &dm));
  PetscCall(DMSNESGetFunctionLocal(dm, &residual, &residual_ctx));
  PetscCheck(residual, PetscObjectComm((PetscObject)dm), PETSC_ERR_ARG_WRONGSTATE, "fem_gpu: the DM has no local residual");
  PetscCall(scatter_maps(dm, &maps));
  PetscCall(dm_note_global_vec(dm, x));  // MatCreateVecs' Vecs are duplicates of it
  PetscCall(DMGetLocalVector(dm, &x_local));
  PetscCall(dm_get_local_vec_like(dm, x_local, &f_local));  // not a second chart walk in PETSc's pool
  PetscCall(VecZeroEntries(f_local));
  PetscCall(iterate_local(dm, maps, x, x_local));
  PetscCall(residual(dm, x_local, f_local, residual_ctx));
  PetscCall(VecZeroEntries(f));
  PetscCall(plex_local_to_global_add(dm, maps, f_local, f));
  PetscCall(dm_restore_local_vec_like(dm, &f_local));
  PetscCall(DMRestoreLocalVector(dm, &x_local));
  PetscCall(view_from_options(snes, x, f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode jacobian_global(SNES snes, Vec x, Mat J, Mat P, void *)
{
  DM dm;
  Vec x_local;
  PetscErrorCode (*jacobian)(DM, Vec, Mat, Mat, void *) = nullptr;
  void *jacobian_ctx = nullptr;
  std::shared_ptr<const PlexMaps> maps;
  PetscFunctionBegin;
  PetscCall(SNESGetDM(snes, &dm));
  PetscCall(DMSNESGetJacobianLocal(dm, &jacobian, &jacobian_ctx));
  PetscCheck(jacobian, PetscObjectComm((PetscObject)dm), PETSC_ERR_ARG_WRONGSTATE, "fem_gpu: the DM has no local Jacobian");
  PetscCall(scatter_maps(dm, &maps));
  PetscCall(dm_note_global_vec(dm, x));
  PetscCall(DMGetLocalVector(dm, &x_local));
  PetscCall(iterate_local(dm, maps, x, x_local));
  PetscCall(jacobian(dm, x_local, J, P, jacobian_ctx));
  PetscCall(DMRestoreLocalVector(dm, &x_local));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode MatFEMGPUSetDMGlobalFunction(DM dm)
{
  PetscFunctionBegin;
  PetscCall(DMSNESSetFunction(dm, function_global, nullptr));  // keeps PETSc's context (unused here)
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatFEMGPUSetDMGlobalJacobian(DM dm)
{
  PetscFunctionBegin;
  PetscCall(DMSNESSetJacobian(dm, jacobian_global, nullptr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
