// det J at every quadrature point of every cell (see plex_geometry_check.h).
#include "petsc/plex/plex_geometry_check.h"

#include <petscdmplex.h>
#include <petsctime.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "fem/tabulation.h"
#include "petsc/base/composed_object.h"
#include "petsc/base/petsc_compat.h"
#include "petsc/base/petsc_errors.h"

namespace femgpu {

namespace {

constexpr const char *kCheckedKey = "femgpu_geometry_checked";

// The maps and rules already checked on a DM.
struct Checked {
  std::weak_ptr<const PlexMaps> maps;
  std::vector<std::vector<double>> points;
};

bool same_maps(const std::weak_ptr<const PlexMaps> &a, const std::shared_ptr<const PlexMaps> &b)
{
  return !a.owner_before(b) && !b.owner_before(a);
}

double determinant(const double *J, int dim)
{
  if (dim == 2) return J[0] * J[3] - J[1] * J[2];
  return J[0] * (J[4] * J[8] - J[5] * J[7]) - J[1] * (J[3] * J[8] - J[5] * J[6]) + J[2] * (J[3] * J[7] - J[4] * J[6]);
}

// det J on a cell with P_k coordinates is a polynomial of degree dim (k - 1) (J's entries
// have degree k - 1), so its values at the M nodes of the P_dim(k-1) Lagrange element give
// it exactly at every point: det J is computed at those nodes (1 on an affine cell, 6 on a
// P2 triangle, 10 on a P2 tetrahedron) and interpolated to the rule's Q points, rather than
// J formed at each of the Q points (95 for the hyperelastic Jacobian on P2 tetrahedra).
struct DeterminantPlan {
  int dim = 0, n_basis = 0, n_nodes = 0, n_points = 0;
  std::vector<std::vector<double>> gradients;  // [direction] n_nodes x n_basis: the coordinate basis at the nodes
  std::vector<double> interpolation;           // n_points x n_nodes
};

DeterminantPlan determinant_plan(int dim, int coordinate_degree, const std::vector<double> &points)
{
  DeterminantPlan plan;
  const int degree = dim * (coordinate_degree - 1);
  const std::vector<double> nodes = lagrange_nodes(dim, degree);
  const BasisTable coordinate_basis = tabulate_lagrange(dim, coordinate_degree, nodes, 1);
  const BasisTable det_basis = tabulate_lagrange(dim, degree, points, 0);
  plan.dim = dim;
  plan.n_basis = coordinate_basis.n_basis;
  plan.n_nodes = det_basis.n_basis;
  plan.n_points = det_basis.n_points;
  for (int k = 0; k < dim; ++k) {
    MultiIndex alpha{0, 0, 0};
    alpha[static_cast<size_t>(k)] = 1;
    plan.gradients.push_back(coordinate_basis.at(alpha));
  }
  plan.interpolation = det_basis.at(MultiIndex{0, 0, 0});
  return plan;
}

constexpr long long kNone = std::numeric_limits<long long>::max();

// det J at every node (node_dets, n_nodes) of the cell whose coordinate nodes start at `node`.
void determinants_at_nodes(const DeterminantPlan &p, const int *node, const PetscScalar *x, double *node_dets)
{
  for (int m = 0; m < p.n_nodes; ++m) {
    double J[9] = {0};
    for (int j = 0; j < p.n_basis; ++j)
      for (int i = 0; i < p.dim; ++i)
        for (int k = 0; k < p.dim; ++k)
          J[i * p.dim + k] += PetscRealPart(x[node[j] + i]) * p.gradients[static_cast<size_t>(k)][static_cast<size_t>(m * p.n_basis + j)];
    node_dets[m] = determinant(J, p.dim);
  }
}

double determinant_at_point(const DeterminantPlan &p, const double *node_dets, int q)
{
  double det = 0;
  for (int m = 0; m < p.n_nodes; ++m) det += p.interpolation[static_cast<size_t>(q * p.n_nodes + m)] * node_dets[m];
  return det;
}

// The first (cell, point), as cell * n_points + point, whose det J is not positive and
// finite; kNone if there is none.
long long first_invalid(const PlexMaps &m, const PetscScalar *x, const DeterminantPlan &p)
{
  long long at = kNone;
  const size_t cw = static_cast<size_t>(m.coordinate_width);
#pragma omp parallel for schedule(static) reduction(min : at) if (m.n_cells > (1 << 16))
  for (PetscInt cell = 0; cell < m.n_cells; ++cell) {
    double node_dets[20];  // P_3 on a tetrahedron: 20 nodes, P2 coordinates' degree in 3D
    determinants_at_nodes(p, m.coordinates->data() + static_cast<size_t>(cell) * cw, x, node_dets);
    for (int q = 0; q < p.n_points; ++q) {
      const double det = determinant_at_point(p, node_dets, q);
      if (!(std::isfinite(det) && det > 0)) {
        at = std::min(at, static_cast<long long>(cell) * p.n_points + q);
        break;
      }
    }
  }
  return at;
}

// Collective: an error on every rank where any rank has an invalid determinant, naming the
// first such rank's cell, point and value (so that every rank stops, and the message does
// not depend on which rank's output survives the abort).
PetscErrorCode report_invalid(MPI_Comm comm, PetscInt cell, PetscInt q, double det, bool mine)
{
  PetscMPIInt rank, size, owner;
  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  owner = mine ? rank : size;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &owner, 1, MPI_INT, MPI_MIN, comm));
  if (owner == size) PetscFunctionReturn(PETSC_SUCCESS);
  PetscInt where[2] = {cell, q};
  PetscCallMPI(MPI_Bcast(where, 2, MPIU_INT, owner, comm));
  PetscCallMPI(MPI_Bcast(&det, 1, MPI_DOUBLE, owner, comm));
  char on_rank[64] = "";
  if (size > 1) PetscCall(PetscSNPrintf(on_rank, sizeof(on_rank), " (on rank %d)", owner));
  SETERRQ(comm, PETSC_ERR_ARG_OUTOFRANGE,
          "Invalid determinant %g for cell %" PetscInt_FMT "%s, quadrature point %" PetscInt_FMT
          ": fem_gpu needs det J > 0 at every quadrature point, as PETSc does (the cell is inverted, flat or has non-finite coordinates)",
          det, where[0], on_rank, where[1]);
}

}  // namespace

PetscErrorCode plex_check_geometry(DM dm, const std::shared_ptr<const PlexMaps> &maps, int coordinate_degree, const std::vector<double> &points)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)dm);
  Checked *checked;
  PetscInt dim, cStart;
  PetscFunctionBegin;
  PetscCall(query_owned((PetscObject)dm, kCheckedKey, &checked));
  // On affine cells det J is one number a cell: a check at any rule's points is a check at
  // every rule's (the residual's, the Jacobian's), so those maps are checked once.
  const bool affine = coordinate_degree == 1;
  if (checked && same_maps(checked->maps, maps) && (affine ? !checked->points.empty() : std::count(checked->points.begin(), checked->points.end(), points)))
    PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMGetDimension(dm, &dim));
  PetscCall(DMPlexGetHeightStratum(dm, 0, &cStart, nullptr));
  DeterminantPlan plan;
  FEMGPU_CXX(PETSC_COMM_SELF, plan = determinant_plan(static_cast<int>(dim), coordinate_degree, points));
  PetscCheck(maps->n_cells == 0 || plan.n_basis == maps->coordinate_width, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "fem_gpu: %" PetscInt_FMT " coordinate nodes per cell for P%d coordinates", maps->coordinate_width, coordinate_degree);
  PetscCheck(plan.n_nodes <= 20, PETSC_COMM_SELF, PETSC_ERR_SUP, "fem_gpu checks det J on P1 and P2 coordinates, not P%d", coordinate_degree);
  Vec coordinates;
  const PetscScalar *x;
  PetscLogDouble t0, t1;
  PetscCall(PetscTime(&t0));
  PetscCall(DMGetCoordinatesLocal(dm, &coordinates));
  PetscCall(VecGetArrayRead(coordinates, &x));
  const long long bad = first_invalid(*maps, x, plan);
  const PetscInt cell = bad == kNone ? -1 : static_cast<PetscInt>(bad / plan.n_points), q = bad == kNone ? -1 : static_cast<PetscInt>(bad % plan.n_points);
  double det = 1, node_dets[20];
  if (bad != kNone) {
    determinants_at_nodes(plan, maps->coordinates->data() + cell * maps->coordinate_width, x, node_dets);
    det = determinant_at_point(plan, node_dets, static_cast<int>(q));
  }
  PetscCall(VecRestoreArrayRead(coordinates, &x));
  PetscCall(PetscTime(&t1));
  PetscCall(PetscInfo(dm, "fem_gpu: det J > 0 at %d points of each of %" PetscInt_FMT " cells: %s (%g s)\n", plan.n_points, maps->n_cells, bad == kNone ? "yes" : "no", t1 - t0));
  PetscCall(report_invalid(comm, cStart + cell, q, det, bad != kNone));
  if (!checked || !same_maps(checked->maps, maps)) {
    checked = new Checked{maps, {}};
    PetscCall(compose_owned((PetscObject)dm, kCheckedKey, checked));
  }
  checked->points.push_back(points);
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
