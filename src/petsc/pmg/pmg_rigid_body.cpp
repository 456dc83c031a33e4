// Rigid-body modes from the closure maps (pmg_rigid_body.h).
#include "petsc/pmg/pmg_rigid_body.h"

#include <algorithm>
#include <vector>

#include "petsc/base/petsc_compat.h"
#include "petsc/mat/mat_context.h"

namespace femgpu {

namespace {

// Mode k at a DOF of component c on a vertex at p: the translations e_k, then the
// rotations: (-y, x) in 2D; e_r x p for r = 0, 1, 2 in 3D.
PetscScalar mode_value(PetscInt dim, PetscInt k, PetscInt c, const PetscScalar *p)
{
  if (k < dim) return k == c ? 1.0 : 0.0;
  if (dim == 2) return c == 0 ? -p[1] : p[0];
  const PetscInt r = k - 3;  // e_r x p has p[r+2] at r+1 and -p[r+1] at r+2 (indices mod 3)
  if (c == (r + 1) % 3) return -p[(r + 2) % 3];
  if (c == (r + 2) % 3) return p[(r + 1) % 3];
  return 0.0;
}

}  // namespace

PetscErrorCode PMGRigidBodyModes(DM dm, const MatFEMGPUContext *ctx, MatNullSpace *modes)
{
  const PetscInt dim = ctx->op.ir->dim, n_modes = dim == 2 ? 3 : 6, C = ctx->op.signature.element.components;
  const PlexMaps &m = ctx->op.mesh_maps();
  Vec coords, local = nullptr, vecs[6];
  const PetscScalar *x;
  PetscLogDouble t0, t1, t2, t3;
  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  // Each local DOF's vertex (its first coordinate) and component, from one pass over the
  // cells; -1 where no cell has the DOF (its modes are 0). Six passes over the cells,
  // one per mode, and a global Vec made from the DM's section each, took most of the
  // coarse level's setup for elasticity.
  const PetscInt n_local = m.local_size;
  std::vector<PetscInt> vertex(static_cast<size_t>(n_local), -1), component(static_cast<size_t>(n_local), 0);
  for (PetscInt cell = 0; cell < m.n_cells; ++cell)
    for (PetscInt j = 0; j <= dim; ++j) {
      const int *dofs = m.all.data() + cell * m.width + j * C;  // node j of a P1 cell is its vertex j
      for (PetscInt c = 0; c < C; ++c) {
        vertex[static_cast<size_t>(dofs[c])] = (*m.coordinates)[static_cast<size_t>(cell * m.coordinate_width + j)];
        component[static_cast<size_t>(dofs[c])] = c;
      }
    }
  PetscCall(DMGetCoordinatesLocal(dm, &coords));
  PetscCall(VecGetArrayRead(coords, &x));
  // Host Vecs of the DM's global layout whatever its Vec type: GAMG reads the modes on the
  // host, and a CUDA Vec's host array is pinned memory (PETSc's default), six allocations
  // of the whole level's size.
  PetscInt n_owned, N;
  Vec layout;
  PetscCall(DMGetGlobalVector(dm, &layout));
  PetscCall(VecGetLocalSize(layout, &n_owned));
  PetscCall(VecGetSize(layout, &N));
  PetscCall(DMRestoreGlobalVector(dm, &layout));
  PetscCall(VecCreate(PetscObjectComm((PetscObject)dm), &vecs[0]));
  PetscCall(VecSetSizes(vecs[0], n_owned, N));
  PetscCall(VecSetType(vecs[0], VECSTANDARD));
  for (PetscInt k = 1; k < n_modes; ++k) PetscCall(VecDuplicate(vecs[0], &vecs[k]));
  PetscCall(PetscTime(&t1));
  // On one rank the maps give each local DOF's global index: the modes go straight into
  // the global Vecs' host arrays. Else through a local Vec and DMLocalToGlobal.
  const bool direct = !m.global_of_local.empty();
  if (!direct) PetscCall(VecCreateSeq(PETSC_COMM_SELF, n_local, &local));
  for (PetscInt k = 0; k < n_modes; ++k) {
    PetscScalar *v;
    PetscCall(VecGetArrayWrite(direct ? vecs[k] : local, &v));  // every entry written: nothing read from the device
    if (direct) {
      std::fill(v, v + n_owned, 0.0);
      for (PetscInt i = 0; i < n_local; ++i) {
        const PetscInt at = vertex[static_cast<size_t>(i)], g = m.global_of_local[static_cast<size_t>(i)];
        if (at >= 0 && g >= 0) v[g] = mode_value(dim, k, component[static_cast<size_t>(i)], x + at);
      }
    } else
      for (PetscInt i = 0; i < n_local; ++i) {
        const PetscInt at = vertex[static_cast<size_t>(i)];
        v[i] = at < 0 ? 0.0 : mode_value(dim, k, component[static_cast<size_t>(i)], x + at);
      }
    PetscCall(VecRestoreArrayWrite(direct ? vecs[k] : local, &v));
    if (!direct) PetscCall(DMLocalToGlobal(dm, local, INSERT_VALUES, vecs[k]));
  }
  if (!direct) PetscCall(VecDestroy(&local));
  PetscCall(VecRestoreArrayRead(coords, &x));
  PetscCall(PetscTime(&t2));
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
  PetscCall(PetscTime(&t3));
  PetscCall(PetscInfo(dm, "fem_gpu_pmg: %" PetscInt_FMT " rigid-body modes: DOF vertices and Vecs %g s, values (%s) %g s, orthonormalised %g s\n", n_modes,
                      t1 - t0, direct ? "into the global Vecs" : "through a local Vec", t2 - t1, t3 - t2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
