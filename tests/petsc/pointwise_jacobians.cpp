// The pointwise Jacobians of pointwise_jacobians.h. PETSc's layouts: u_x[c*dim + d] =
// du_c/dx_d; g3[((fc*Nc + gc)*dim + df)*dim + dg] pairs test (component fc, derivative
// df) with trial (component gc, derivative dg).
#include "pointwise_jacobians.h"

#include "petsc/base/petsc_compat.h"

#define POINTWISE_ARGS                                                                                              \
  PetscInt dim, PetscInt, PetscInt, const PetscInt[], const PetscInt[], const PetscScalar[], const PetscScalar[],    \
      const PetscScalar u_x[], const PetscInt[], const PetscInt[], const PetscScalar[], const PetscScalar[],          \
      const PetscScalar[], PetscReal, PetscReal, const PetscReal[], PetscInt, const PetscScalar constants[]

namespace femgpu_test {

namespace {

// a = u v
void g0_mass(POINTWISE_ARGS, PetscScalar g0[])
{
  (void)dim, (void)u_x, (void)constants;
  g0[0] = 1.0;
}

// a = grad u . grad v
void g3_laplace(POINTWISE_ARGS, PetscScalar g3[])
{
  (void)u_x, (void)constants;
  for (PetscInt d = 0; d < dim; ++d) g3[d * dim + d] = 1.0;
}

// a = lmbda div u div v + 2 mu eps(u) : eps(v)
void g3_elasticity(POINTWISE_ARGS, PetscScalar g3[])
{
  (void)u_x;
  const PetscScalar lmbda = constants[0], mu = constants[1];
  for (PetscInt fc = 0; fc < dim; ++fc)
    for (PetscInt gc = 0; gc < dim; ++gc)
      for (PetscInt df = 0; df < dim; ++df)
        for (PetscInt dg = 0; dg < dim; ++dg)
          g3[((fc * dim + gc) * dim + df) * dim + dg] =
              lmbda * (fc == df) * (gc == dg) + mu * ((fc == gc) * (df == dg) + (fc == dg) * (gc == df));
}

// St. Venant-Kirchhoff: P = F S, S = lmbda tr(E) I + 2 mu E, E = (F^T F - I)/2,
// F = I + grad w (w is PETSc's solution argument). g3 = dP / d(grad u), one column
// (gc, dg) at a time from dF = e_gc e_dg^T:
//   dE = (dF^T F + F^T dF)/2,  dS = lmbda tr(dE) I + 2 mu dE,  dP = dF S + F dS.
void g3_hyperelasticity(POINTWISE_ARGS, PetscScalar g3[])
{
  const PetscScalar lmbda = constants[0], mu = constants[1];
  PetscScalar F[3][3], E[3][3], S[3][3];
  for (PetscInt i = 0; i < dim; ++i)
    for (PetscInt j = 0; j < dim; ++j) F[i][j] = (i == j) + u_x[i * dim + j];
  PetscScalar trE = 0;
  for (PetscInt i = 0; i < dim; ++i)
    for (PetscInt j = 0; j < dim; ++j) {
      E[i][j] = -0.5 * (i == j);
      for (PetscInt k = 0; k < dim; ++k) E[i][j] += 0.5 * F[k][i] * F[k][j];
    }
  for (PetscInt i = 0; i < dim; ++i) trE += E[i][i];
  for (PetscInt i = 0; i < dim; ++i)
    for (PetscInt j = 0; j < dim; ++j) S[i][j] = lmbda * trE * (i == j) + 2 * mu * E[i][j];
  for (PetscInt gc = 0; gc < dim; ++gc)
    for (PetscInt dg = 0; dg < dim; ++dg) {
      PetscScalar dE[3][3], dS[3][3], trdE = 0;
      // (dF^T F)_ij = dF_gc,i F_gc,j with dF_gc,dg = 1 only: nonzero for i == dg.
      for (PetscInt i = 0; i < dim; ++i)
        for (PetscInt j = 0; j < dim; ++j) dE[i][j] = 0.5 * ((i == dg) * F[gc][j] + (j == dg) * F[gc][i]);
      for (PetscInt i = 0; i < dim; ++i) trdE += dE[i][i];
      for (PetscInt i = 0; i < dim; ++i)
        for (PetscInt j = 0; j < dim; ++j) dS[i][j] = lmbda * trdE * (i == j) + 2 * mu * dE[i][j];
      for (PetscInt fc = 0; fc < dim; ++fc)
        for (PetscInt df = 0; df < dim; ++df) {
          PetscScalar dP = (fc == gc) * S[dg][df];
          for (PetscInt k = 0; k < dim; ++k) dP += F[fc][k] * dS[k][df];
          g3[((fc * dim + gc) * dim + df) * dim + dg] = dP;
        }
    }
}

}  // namespace

bool is_vector_form(const std::string &name) { return name == "elasticity" || name == "hyperelasticity"; }

PetscErrorCode set_pointwise_jacobian(PetscDS ds, const std::string &name, PetscReal lmbda, PetscReal mu)
{
  PetscScalar constants[2] = {lmbda, mu};
  PetscFunctionBegin;
  PetscCall(PetscDSSetConstants(ds, 2, constants));
  if (name == "mass") PetscCall(PetscDSSetJacobian(ds, 0, 0, g0_mass, nullptr, nullptr, nullptr));
  else if (name == "laplace") PetscCall(PetscDSSetJacobian(ds, 0, 0, nullptr, nullptr, nullptr, g3_laplace));
  else if (name == "helmholtz") PetscCall(PetscDSSetJacobian(ds, 0, 0, g0_mass, nullptr, nullptr, g3_laplace));
  else if (name == "elasticity") PetscCall(PetscDSSetJacobian(ds, 0, 0, nullptr, nullptr, nullptr, g3_elasticity));
  else if (name == "hyperelasticity") PetscCall(PetscDSSetJacobian(ds, 0, 0, nullptr, nullptr, nullptr, g3_hyperelasticity));
  else SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "no pointwise Jacobian for form '%s'", name.c_str());
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu_test
