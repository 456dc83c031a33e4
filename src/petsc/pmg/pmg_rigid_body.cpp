// Rigid-body modes from the closure maps (pmg_rigid_body.h).
#include "petsc/pmg/pmg_rigid_body.h"

#include "petsc/base/petsc_compat.h"
#include "petsc/mat/mat_context.h"

namespace femgpu {

PetscErrorCode PMGRigidBodyModes(DM dm, const MatFEMGPUContext *ctx, MatNullSpace *modes)
{
  const PetscInt dim = ctx->op.ir->dim, n_modes = dim == 2 ? 3 : 6, C = ctx->op.signature.element.components;
  const PlexMaps &m = ctx->op.mesh_maps();
  Vec coords, local, vecs[6];
  const PetscScalar *x;
  PetscFunctionBegin;
  PetscCall(DMGetCoordinatesLocal(dm, &coords));
  PetscCall(VecGetArrayRead(coords, &x));
  PetscCall(DMGetLocalVector(dm, &local));
  for (PetscInt k = 0; k < n_modes; ++k) {
    PetscScalar *v;
    PetscCall(VecSet(local, 0.0));
    PetscCall(VecGetArray(local, &v));
    for (PetscInt cell = 0; cell < m.n_cells; ++cell)
      for (PetscInt j = 0; j <= dim; ++j) {
        const PetscScalar *p = x + m.coordinates[static_cast<size_t>(cell * m.coordinate_width + j)];
        const int *dofs = m.all.data() + cell * m.width + j * C;
        // translations e_k, then rotations: (-y, x) in 2D; e_r x p for r = 0, 1, 2 in 3D
        PetscScalar mode[3] = {0, 0, 0};
        if (k < dim) mode[k] = 1;
        else if (dim == 2) mode[0] = -p[1], mode[1] = p[0];
        else if (k == 3) mode[1] = -p[2], mode[2] = p[1];
        else if (k == 4) mode[0] = p[2], mode[2] = -p[0];
        else mode[0] = -p[1], mode[1] = p[0];
        for (PetscInt c = 0; c < C; ++c) v[dofs[c]] = mode[c];
      }
    PetscCall(VecRestoreArray(local, &v));
    PetscCall(DMCreateGlobalVector(dm, &vecs[k]));
    PetscCall(DMLocalToGlobal(dm, local, INSERT_VALUES, vecs[k]));
  }
  PetscCall(DMRestoreLocalVector(dm, &local));
  PetscCall(VecRestoreArrayRead(coords, &x));
  for (PetscInt k = 0; k < n_modes; ++k) {  // Gram-Schmidt, twice for stability
    PetscScalar dots[6];
    for (int pass = 0; pass < 2 && k > 0; ++pass) {
      PetscCall(VecMDot(vecs[k], k, vecs, dots));
      for (PetscInt i = 0; i < k; ++i) dots[i] = -dots[i];
      PetscCall(VecMAXPY(vecs[k], k, dots, vecs));
    }
    PetscCall(VecNormalize(vecs[k], nullptr));
  }
  PetscCall(MatNullSpaceCreate(PetscObjectComm((PetscObject)dm), PETSC_FALSE, n_modes, vecs, modes));
  for (PetscInt k = 0; k < n_modes; ++k) PetscCall(VecDestroy(&vecs[k]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
