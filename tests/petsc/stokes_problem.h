// The Stokes problem of the multi-field tests: Taylor-Hood P2^d x P1 (fields "velocity"
// and "pressure") on the mesh of the options, velocity fixed on the left boundary
// (tests/petsc/left_boundary.h), and PETSc's pointwise Jacobians of
//   a(u, p; v, q) = mu grad u : grad v - p div v - q div u,
// with the preconditioning Jacobian mu grad u : grad v + p q / mu (the pressure mass in
// the (1, 1) block). stokes_form(dim, pc) is the same in UFL on the MixedElement.
#pragma once

#include <petscdmplex.h>
#include <petscds.h>
#include <petscsnes.h>

#include <string>

#include "femgpu.h"
#include "left_boundary.h"
#include "petsc/base/petsc_compat.h"

namespace stokes {

#define STOKES_G_ARGS                                                                                                                         \
  PetscInt dim, PetscInt, PetscInt, const PetscInt[], const PetscInt[], const PetscScalar[], const PetscScalar[], const PetscScalar[],      \
      const PetscInt[], const PetscInt[], const PetscScalar[], const PetscScalar[], const PetscScalar[], PetscReal, PetscReal, const PetscReal[], \
      PetscInt, const PetscScalar constants[]

inline void g3_uu(STOKES_G_ARGS, PetscScalar g3[])
{
  for (PetscInt c = 0; c < dim; ++c)
    for (PetscInt d = 0; d < dim; ++d) g3[((c * dim + c) * dim + d) * dim + d] = constants[0];
}
inline void g2_up(STOKES_G_ARGS, PetscScalar g2[])  // -p div v
{
  (void)constants;
  for (PetscInt d = 0; d < dim; ++d) g2[d * dim + d] = -1.0;
}
inline void g1_pu(STOKES_G_ARGS, PetscScalar g1[])  // -q div u
{
  (void)constants;
  for (PetscInt d = 0; d < dim; ++d) g1[d * dim + d] = -1.0;
}
inline void g0_pp(STOKES_G_ARGS, PetscScalar g0[])
{
  (void)dim;
  g0[0] = 1.0 / constants[0];
}
#undef STOKES_G_ARGS

inline PetscErrorCode zero_velocity(PetscInt dim, PetscReal, const PetscReal[], PetscInt, PetscScalar *u, void *)
{
  for (PetscInt d = 0; d < dim; ++d) u[d] = 0.0;
  return PETSC_SUCCESS;
}

// The DM: mesh of the options, the two fields, the DS's Jacobians, the boundary.
inline PetscErrorCode create_dm(MPI_Comm comm, PetscReal mu, DM *dm)
{
  PetscFE fe[2];
  PetscDS ds;
  DMLabel left;
  PetscInt dim;
  const PetscInt one = 1;
  PetscScalar constants[1] = {mu};
  PetscFunctionBegin;
  PetscCall(FEMGPUCreateMeshFromOptions(comm, dm));
  PetscCall(MarkLeftBoundary(*dm));
  PetscCall(DMGetDimension(*dm, &dim));
  PetscCall(PetscFECreateLagrange(comm, dim, dim, PETSC_TRUE, 2, PETSC_DETERMINE, &fe[0]));
  PetscCall(PetscObjectSetName((PetscObject)fe[0], "velocity"));
  PetscCall(PetscFECreateLagrange(comm, dim, 1, PETSC_TRUE, 1, PETSC_DETERMINE, &fe[1]));
  PetscCall(PetscFECopyQuadrature(fe[0], fe[1]));
  PetscCall(PetscObjectSetName((PetscObject)fe[1], "pressure"));
  PetscCall(DMAddField(*dm, nullptr, (PetscObject)fe[0]));
  PetscCall(DMAddField(*dm, nullptr, (PetscObject)fe[1]));
  PetscCall(DMCreateDS(*dm));
  PetscCall(DMGetDS(*dm, &ds));
  PetscCall(PetscDSSetJacobian(ds, 0, 0, nullptr, nullptr, nullptr, g3_uu));
  PetscCall(PetscDSSetJacobian(ds, 0, 1, nullptr, nullptr, g2_up, nullptr));
  PetscCall(PetscDSSetJacobian(ds, 1, 0, nullptr, g1_pu, nullptr, nullptr));
  PetscCall(PetscDSSetJacobianPreconditioner(ds, 0, 0, nullptr, nullptr, nullptr, g3_uu));
  PetscCall(PetscDSSetJacobianPreconditioner(ds, 1, 1, g0_pp, nullptr, nullptr, nullptr));
  PetscCall(PetscDSSetConstants(ds, 1, constants));
  PetscCall(DMGetLabel(*dm, "left", &left));
  PetscCall(DMAddBoundary(*dm, DM_BC_ESSENTIAL, "wall", left, 1, &one, 0, 0, nullptr, (void (*)(void))zero_velocity, nullptr, nullptr, nullptr));
  PetscCall(PetscFEDestroy(&fe[0]));
  PetscCall(PetscFEDestroy(&fe[1]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The operator (pc false) or its preconditioning form (pc true) in UFL, for dim 2 or 3;
// `swapped` declares the fields in the wrong order (P1 x P2^d), for the bad-input test.
inline std::string stokes_form(PetscInt dim, bool pc, bool swapped = false)
{
  const std::string cell = dim == 2 ? "triangle" : "tetrahedron";
  std::string text = "mu = Constant(\"mu\", 1.0)\nV = VectorElement(\"Lagrange\", " + cell + ", 2)\nQ = FiniteElement(\"Lagrange\", " + cell +
                     ", 1)\n";
  text += swapped ? "W = MixedElement([Q, V])\n(p, u) = TrialFunctions(W)\n(q, v) = TestFunctions(W)\n"
                  : "W = MixedElement([V, Q])\n(u, p) = TrialFunctions(W)\n(v, q) = TestFunctions(W)\n";
  if (pc) return text + "a = mu*inner(grad(u), grad(v))*dx + p*q/mu*dx\n";
  return text + "a = mu*inner(grad(u), grad(v))*dx - p*div(v)*dx - q*div(u)*dx\n";
}

}  // namespace stokes
