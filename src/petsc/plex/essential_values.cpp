// Essential boundary values from a plan built once (essential_values.h): which constrained
// DOFs each DM_BC_ESSENTIAL boundary writes, found from the constrained DOFs of its label's
// points; where each sits, from one pass over the closure maps.
#include "petsc/plex/essential_values.h"

#include <petscds.h>
#include <petscfe.h>

#include "petsc/plex/section_arrays.h"

namespace femgpu {

namespace {

// Where an essential boundary acts: its label's values and the components it constrains
// (none listed: all). The arrays are the PetscDS's, valid while the plan is built.
struct BoundaryPoints {
  DMLabel label = nullptr;
  PetscInt n_values = 0, n_components = 0;
  const PetscInt *values = nullptr, *components = nullptr;
};

// The essential boundaries' functions and where they act, in the DS's order; or why the
// plan cannot stand for PETSc's insertion.
PetscErrorCode read_boundaries(DM dm, EssentialPlan *plan, std::vector<BoundaryPoints> *where)
{
  PetscDS ds;
  PetscInt n, nds;
  PetscFunctionBegin;
  PetscCall(DMGetNumDS(dm, &nds));
  if (nds != 1) {
    plan->unsupported = "the DM has several PetscDS regions";
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DMGetDS(dm, &ds));
  PetscCall(PetscDSGetNumBoundary(ds, &n));
  for (PetscInt b = 0; b < n; ++b) {
    DMBoundaryConditionType type;
    BoundaryPoints at;
    void (*function)(void) = nullptr, (*function_t)(void) = nullptr;
    void *context = nullptr;
    PetscCall(PetscDSGetBoundary(ds, b, nullptr, &type, nullptr, &at.label, &at.n_values, &at.values, nullptr, &at.n_components, &at.components,
                                 &function, &function_t, &context));
    if (type == DM_BC_NATURAL || type == DM_BC_NATURAL_FIELD) continue;  // nothing to insert
    if (type != DM_BC_ESSENTIAL) {
      plan->unsupported = "boundary " + std::to_string(b) + " is not DM_BC_ESSENTIAL with a function";
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    plan->boundaries.push_back({reinterpret_cast<EssentialFunction>(function), reinterpret_cast<EssentialFunction>(function_t), context});
    where->push_back(at);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// owner[i]: the index in plan->boundaries of the last essential boundary constraining local
// DOF i (-1: none). A boundary constrains the section's constrained DOFs of its components
// on its label's points (the label is complete: it holds the closure of the boundary).
PetscErrorCode constrained_owners(DM dm, const EssentialPlan &plan, const std::vector<BoundaryPoints> &where, std::vector<int> *owner)
{
  PetscSection section;
  SectionArrays s;
  PetscInt storage;
  PetscFunctionBegin;
  PetscCall(DMGetLocalSection(dm, &section));
  PetscCall(PetscSectionGetStorageSize(section, &storage));
  PetscCall(section_arrays(section, -1, &s));
  owner->assign(static_cast<size_t>(storage), -1);
  for (size_t b = 0; b < where.size(); ++b) {
    const BoundaryPoints &at = where[b];
    for (PetscInt v = 0; v < at.n_values && at.label; ++v) {
      IS points;
      PetscInt np;
      const PetscInt *p;
      PetscCall(DMLabelGetStratumIS(at.label, at.values[v], &points));
      if (!points) continue;
      PetscCall(ISGetLocalSize(points, &np));
      PetscCall(ISGetIndices(points, &p));
      for (PetscInt i = 0; i < np; ++i) {
        if (!s.contains(p[i])) continue;
        const PetscInt *cind = s.n_constrained(p[i]) ? s.constrained(p[i]) : nullptr;
        for (PetscInt c = 0; c < s.n_constrained(p[i]); ++c) {
          bool in_comps = at.n_components == 0;
          for (PetscInt k = 0; k < at.n_components; ++k) in_comps = in_comps || cind[c] % plan.components == at.components[k];
          if (in_comps) (*owner)[static_cast<size_t>(s.offset(p[i]) + cind[c])] = static_cast<int>(b);
        }
      }
      PetscCall(ISRestoreIndices(points, &p));
      PetscCall(ISDestroy(&points));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The reference coordinates of a Lagrange element's nodes, in closure (basis) order: the
// points of its point-evaluation functionals, one per node (the first of its components').
PetscErrorCode functional_points(PetscFE fe, PetscInt dim, PetscInt components, PetscInt n_nodes, std::vector<PetscReal> *xi)
{
  PetscDualSpace dual;
  PetscFunctionBegin;
  PetscCall(PetscFEGetDualSpace(fe, &dual));
  xi->resize(static_cast<size_t>(n_nodes * dim));
  for (PetscInt k = 0; k < n_nodes; ++k) {
    PetscQuadrature q;
    PetscInt qdim, nc, np;
    const PetscReal *points;
    PetscCall(PetscDualSpaceGetFunctional(dual, k * components, &q));
    PetscCall(PetscQuadratureGetData(q, &qdim, &nc, &np, &points, nullptr));
    PetscCheck(np == 1 && qdim == dim, PETSC_COMM_SELF, PETSC_ERR_SUP, "fem_gpu: functional %" PetscInt_FMT " is not a point evaluation", k * components);
    for (PetscInt d = 0; d < dim; ++d) (*xi)[static_cast<size_t>(k * dim + d)] = points[d];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The inverse of a 2x2 or 3x3 row-major matrix (cofactors over the determinant).
void invert(const PetscReal *a, PetscInt n, PetscReal *inv)
{
  if (n == 2) {
    const PetscReal det = a[0] * a[3] - a[1] * a[2];
    inv[0] = a[3] / det, inv[1] = -a[1] / det, inv[2] = -a[2] / det, inv[3] = a[0] / det;
    return;
  }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {  // inv[j][i] = cofactor(i, j)
      const int r0 = (i + 1) % 3, r1 = (i + 2) % 3, c0 = (j + 1) % 3, c1 = (j + 2) % 3;
      inv[j * 3 + i] = a[r0 * 3 + c0] * a[r1 * 3 + c1] - a[r0 * 3 + c1] * a[r1 * 3 + c0];
    }
  const PetscReal det = a[0] * inv[0] + a[1] * inv[3] + a[2] * inv[6];
  for (int k = 0; k < 9; ++k) inv[k] /= det;
}

// The barycentric coordinates of the field's nodes with respect to the coordinate nodes
// (P1: the vertices, in the order PETSc's P1 element numbers them): n_nodes x (dim + 1).
PetscErrorCode node_weights(DM dm, PetscInt components, PetscInt n_nodes, std::vector<PetscReal> *lambda)
{
  PetscObject obj;
  PetscFE p1;
  PetscInt dim;
  std::vector<PetscReal> xi, v;
  PetscFunctionBegin;
  PetscCall(DMGetDimension(dm, &dim));
  PetscCall(DMGetField(dm, 0, nullptr, &obj));
  PetscCall(functional_points((PetscFE)obj, dim, components, n_nodes, &xi));
  PetscCall(PetscFECreateLagrange(PETSC_COMM_SELF, dim, 1, PETSC_TRUE, 1, PETSC_DETERMINE, &p1));
  PetscCall(functional_points(p1, dim, 1, dim + 1, &v));
  PetscCall(PetscFEDestroy(&p1));
  // xi - v0 = M mu with M's columns v_j - v0; lambda = (1 - sum mu, mu).
  PetscReal M[9], Minv[9];
  for (PetscInt d = 0; d < dim; ++d)
    for (PetscInt j = 0; j < dim; ++j) M[d * dim + j] = v[static_cast<size_t>((j + 1) * dim + d)] - v[static_cast<size_t>(d)];
  invert(M, dim, Minv);
  lambda->assign(static_cast<size_t>(n_nodes * (dim + 1)), 0);
  for (PetscInt k = 0; k < n_nodes; ++k) {
    PetscReal *l = lambda->data() + k * (dim + 1);
    l[0] = 1;
    for (PetscInt j = 0; j < dim; ++j) {
      for (PetscInt d = 0; d < dim; ++d) l[j + 1] += Minv[j * dim + d] * (xi[static_cast<size_t>(k * dim + d)] - v[static_cast<size_t>(d)]);
      l[0] -= l[j + 1];
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// One pass over the cells that hold a constrained DOF (found by threads first: a few
// percent of the mesh), in cell order: each constrained DOF's node, evaluated once per
// (node, boundary).
void place_nodes(const PlexMaps &maps, const std::vector<int> &owner, const std::vector<PetscReal> &lambda, const PetscScalar *coords, EssentialPlan *plan)
{
  const PetscInt dim = plan->dim, C = plan->components, n_nodes = maps.width / C;
  std::vector<char> placed(owner.size(), 0), holds(static_cast<size_t>(maps.n_cells), 0);
#pragma omp parallel for schedule(static) if (maps.n_cells > (1 << 16))
  for (PetscInt cell = 0; cell < maps.n_cells; ++cell) {
    const int *dofs = maps.all.data() + cell * maps.width;
    for (PetscInt k = 0; k < maps.width && !holds[static_cast<size_t>(cell)]; ++k) holds[static_cast<size_t>(cell)] = owner[static_cast<size_t>(dofs[k])] >= 0;
  }
  for (PetscInt cell = 0; cell < maps.n_cells; ++cell) {
    if (!holds[static_cast<size_t>(cell)]) continue;
    const int *dofs = maps.all.data() + cell * maps.width;
    const int *vertex = maps.coordinates->data() + cell * maps.coordinate_width;
    for (PetscInt k = 0; k < n_nodes; ++k) {
      for (PetscInt c = 0; c < C; ++c) {
        const int i = dofs[k * C + c];
        const int b = owner[static_cast<size_t>(i)];
        if (b < 0 || placed[static_cast<size_t>(i)]) continue;
        // The DOFs of this node that the same boundary writes, gathered under one evaluation.
        EssentialPlan::Node node{{0, 0, 0}, b, static_cast<int>(plan->writes.size()), 0};
        for (PetscInt c2 = c; c2 < C; ++c2) {
          const int i2 = dofs[k * C + c2];
          if (owner[static_cast<size_t>(i2)] != b || placed[static_cast<size_t>(i2)]) continue;
          placed[static_cast<size_t>(i2)] = 1;
          plan->writes.push_back({i2, static_cast<int>(c2)});
          ++node.count;
        }
        const PetscReal *l = lambda.data() + k * (dim + 1);
        for (PetscInt d = 0; d < dim; ++d)
          for (PetscInt j = 0; j <= dim; ++j) node.x[d] += l[j] * PetscRealPart(coords[vertex[j] + d]);
        plan->nodes.push_back(node);
      }
    }
  }
}

}  // namespace

PetscErrorCode essential_plan_build(DM dm, const PlexMaps &maps, EssentialPlan *plan)
{
  Vec coordinates;
  PetscInt nf;
  PetscObject obj;
  PetscFunctionBegin;
  *plan = EssentialPlan{};
  PetscCall(DMGetDimension(dm, &plan->dim));
  PetscCall(DMGetNumFields(dm, &nf));
  if (nf != 1) plan->unsupported = "the DM has " + std::to_string(nf) + " fields";
  else if (maps.coordinate_width != plan->dim + 1) plan->unsupported = "the coordinates are not affine (P1)";
  if (!plan->unsupported.empty()) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMGetField(dm, 0, nullptr, &obj));
  PetscCall(PetscFEGetNumComponents((PetscFE)obj, &plan->components));
  std::vector<BoundaryPoints> where;
  PetscCall(read_boundaries(dm, plan, &where));
  if (!plan->unsupported.empty() || plan->boundaries.empty()) PetscFunctionReturn(PETSC_SUCCESS);
  std::vector<int> owner;
  std::vector<PetscReal> lambda;
  PetscCall(constrained_owners(dm, *plan, where, &owner));
  PetscCall(node_weights(dm, plan->components, maps.width / plan->components, &lambda));
  PetscCall(DMGetCoordinatesLocal(dm, &coordinates));
  PetscCall(PetscObjectStateGet((PetscObject)coordinates, &plan->coordinates_state));
  const PetscScalar *coords;
  PetscCall(VecGetArrayRead(coordinates, &coords));
  place_nodes(maps, owner, lambda, coords, plan);
  PetscCall(VecRestoreArrayRead(coordinates, &coords));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode essential_plan_values(const EssentialPlan &plan, PetscReal time, bool time_derivative, PetscScalar *values)
{
  std::vector<PetscScalar> u(static_cast<size_t>(plan.components));
  PetscFunctionBegin;
  PetscCheck(plan.unsupported.empty(), PETSC_COMM_SELF, PETSC_ERR_PLIB, "fem_gpu: essential values from an unsupported plan (%s)", plan.unsupported.c_str());
  PetscCheck(!time_derivative || essential_plan_has_time_derivatives(plan), PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "fem_gpu: time derivatives of essential values from a plan whose boundaries lack them");
  for (const EssentialPlan::Node &node : plan.nodes) {
    const EssentialPlan::Boundary &b = plan.boundaries[static_cast<size_t>(node.boundary)];
    PetscCall((time_derivative ? b.time_derivative : b.function)(plan.dim, time, node.x, plan.components, u.data(), b.context));
    for (int w = node.first; w < node.first + node.count; ++w) values[w] = u[static_cast<size_t>(plan.writes[static_cast<size_t>(w)].component)];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode essential_plan_insert(const EssentialPlan &plan, PetscReal time, Vec x_local, bool time_derivative)
{
  PetscScalar *x;
  std::vector<PetscScalar> values(plan.writes.size());
  PetscFunctionBegin;
  PetscCall(essential_plan_values(plan, time, time_derivative, values.data()));
  PetscCall(VecGetArray(x_local, &x));
  for (size_t w = 0; w < values.size(); ++w) x[plan.writes[w].index] = values[w];
  PetscCall(VecRestoreArray(x_local, &x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

bool essential_plan_has_time_derivatives(const EssentialPlan &plan)
{
  for (const EssentialPlan::Boundary &b : plan.boundaries)
    if (!b.time_derivative) return false;
  return true;
}

}  // namespace femgpu
