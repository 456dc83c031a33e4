// PETSc pointwise Jacobians (g0..g3 of PetscDSSetJacobian) for the shipped forms,
// written from the mathematics in each form file's header, independently of femgpu.
// Constants: constants[0] = lmbda, constants[1] = mu (elasticity, hyperelasticity).
#pragma once

#include <petscds.h>

#include <string>

namespace femgpu_test {

// Sets the Jacobian of form `name` (mass, laplace, helmholtz, elasticity,
// hyperelasticity) on field 0 of `ds`, and the constants.
PetscErrorCode set_pointwise_jacobian(PetscDS ds, const std::string &name, PetscReal lmbda, PetscReal mu);

bool is_vector_form(const std::string &name);

}  // namespace femgpu_test
