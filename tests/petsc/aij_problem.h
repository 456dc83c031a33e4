// The problem the PETSc comparisons share (test_mat_vs_aij, test_convert_vs_aij): a mesh
// from the options with a "left" face label, optional P2 coordinates and interior
// perturbation, a P_k field (scalar, or a vector for elasticity forms) with an essential
// condition on "left", and the form's PetscDS pointwise Jacobian (pointwise_jacobians.h)
// for PETSc's own assembly; and the fem_gpu Mat of the shipped form file on that DM.
#pragma once

#include <petscdm.h>

#include <string>

#include "petsc/base/petsc_compat.h"

namespace femgpu_test {

struct Case {
  std::string form, forms_dir, check = "mult";
  PetscInt degree = 1, coordinate_degree = 1, quadrature_degree = -1;
  PetscReal lmbda = 0.0, mu = 0.5, perturb = 0.0;
};

// The DM with its field, boundary condition and PetscDS Jacobian.
PetscErrorCode create_problem(MPI_Comm comm, const Case &c, DM *dm);
// w (local, constrained values included) = a smooth function, different in every
// component and non-zero on "left": the linearization point; `scale` multiplies it.
PetscErrorCode project_linearization_point(DM dm, PetscReal scale, Vec w);
// The fem_gpu Mat of c.form's file on dm: hyperelasticity bound to w, the elasticity
// forms' constants set to c.lmbda and c.mu.
PetscErrorCode create_fem_gpu(DM dm, const Case &c, Vec w, Mat *A);

}  // namespace femgpu_test
