// The shared problem of the PETSc comparisons (aij_problem.h).
#include "aij_problem.h"

#include <petscdmplex.h>
#include <petscfe.h>

#include <cmath>

#include "fem/quadrature.h"
#include "femgpu.h"
#include "left_boundary.h"
#include "petsc/plex/mesh_geometry.h"
#include "pointwise_jacobians.h"

namespace femgpu_test {

namespace {

PetscErrorCode zero(PetscInt, PetscReal, const PetscReal[], PetscInt Nc, PetscScalar *u, void *)
{
  for (PetscInt c = 0; c < Nc; ++c) u[c] = 0.0;
  return PETSC_SUCCESS;
}

// A smooth function, different in every component; non-zero on "left"; times *scale.
PetscErrorCode smooth(PetscInt dim, PetscReal, const PetscReal x[], PetscInt Nc, PetscScalar *u, void *scale)
{
  for (PetscInt c = 0; c < Nc; ++c) {
    u[c] = 0.1 * (c + 1);
    for (PetscInt d = 0; d < dim; ++d) u[c] += 0.2 * std::sin(1.3 * (c + 1) * x[d] + 0.7 * d);
    u[c] *= *static_cast<PetscReal *>(scale);
  }
  return PETSC_SUCCESS;
}

// femgpu's rule of this degree as PETSc's quadrature of the field (curved cells).
PetscErrorCode use_femgpu_rule(PetscFE fe, PetscInt dim, PetscInt degree)
{
  PetscQuadrature q;
  PetscReal *points, *weights;
  PetscFunctionBegin;
  femgpu::QuadratureRule rule = femgpu::simplex_quadrature(static_cast<int>(dim), static_cast<int>(degree), femgpu::default_share_dir());
  PetscCall(PetscMalloc1(rule.points.size(), &points));
  PetscCall(PetscMalloc1(rule.weights.size(), &weights));
  for (size_t i = 0; i < rule.points.size(); ++i) points[i] = rule.points[i];
  for (size_t i = 0; i < rule.weights.size(); ++i) weights[i] = rule.weights[i];
  PetscCall(PetscQuadratureCreate(PETSC_COMM_SELF, &q));
  PetscCall(PetscQuadratureSetData(q, dim, 1, rule.size(), points, weights));
  PetscCall(PetscQuadratureSetOrder(q, degree));
  PetscCall(PetscFESetQuadrature(fe, q));
  PetscCall(PetscQuadratureDestroy(&q));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode create_problem(MPI_Comm comm, const Case &c, DM *dm)
{
  PetscInt dim, left = 1;
  PetscFE fe;
  DMLabel label;
  PetscDS ds;
  PetscFunctionBegin;
  PetscCall(FEMGPUCreateMeshFromOptions(comm, dm));
  PetscCall(MarkLeftBoundary(*dm));
  PetscCall(femgpu::set_coordinate_degree(*dm, c.coordinate_degree));
  PetscCall(femgpu::perturb_interior_coordinates(*dm, c.perturb));
  PetscCall(DMGetDimension(*dm, &dim));
  const PetscInt components = is_vector_form(c.form) ? dim : 1;
  // Stroud rules of order q are exact to degree 2q+1: q = k covers the 2k of the linear
  // forms, q = 2k the 4(k-1) of the hyperelastic Jacobian on affine cells.
  const PetscInt order = c.form == "hyperelasticity" ? 2 * c.degree : c.degree;
  PetscCall(PetscFECreateLagrange(comm, dim, components, PETSC_TRUE, c.degree, order, &fe));
  if (c.coordinate_degree == 2) PetscCall(use_femgpu_rule(fe, dim, c.quadrature_degree));
  PetscCall(DMAddField(*dm, nullptr, (PetscObject)fe));
  PetscCall(PetscFEDestroy(&fe));
  PetscCall(DMCreateDS(*dm));
  PetscCall(DMGetLabel(*dm, "left", &label));
  PetscCall(DMAddBoundary(*dm, DM_BC_ESSENTIAL, "left", label, 1, &left, 0, 0, nullptr, (void (*)(void))zero, nullptr, nullptr, nullptr));
  PetscCall(DMGetDS(*dm, &ds));
  PetscCall(set_pointwise_jacobian(ds, c.form, c.lmbda, c.mu));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode project_linearization_point(DM dm, PetscReal scale, Vec w)
{
  PetscErrorCode (*funcs[1])(PetscInt, PetscReal, const PetscReal[], PetscInt, PetscScalar *, void *) = {smooth};
  void *contexts[1] = {&scale};
  PetscFunctionBegin;
  PetscCall(DMProjectFunctionLocal(dm, 0.0, funcs, contexts, INSERT_ALL_VALUES, w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode create_fem_gpu(DM dm, const Case &c, Vec w, Mat *A)
{
  PetscFunctionBegin;
  PetscCall(DMSetMatType(dm, MATFEMGPU));
  PetscCall(DMCreateMatrix(dm, A));
  PetscCall(MatFEMGPUSetFormFile(*A, (c.forms_dir + "/" + c.form + ".ufl").c_str()));
  if (c.form == "hyperelasticity") PetscCall(MatFEMGPUSetCoefficient(*A, "w", w));
  if (is_vector_form(c.form)) {
    PetscCall(MatFEMGPUSetConstant(*A, "lmbda", c.lmbda));
    PetscCall(MatFEMGPUSetConstant(*A, "mu", c.mu));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu_test
