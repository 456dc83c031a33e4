// det J at every quadrature point of every cell (see plex_geometry_check.h).
#include "petsc/plex_geometry_check.h"

#include <petscdmplex.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "fem/tabulation.h"
#include "petsc/composed_object.h"
#include "petsc/petsc_compat.h"
#include "petsc/petsc_errors.h"

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

using Gradients = std::vector<std::vector<double>>;

// The reference gradients of the coordinate basis at the points: [direction] n_points x n_basis.
Gradients coordinate_gradients(int dim, int degree, const std::vector<double> &points, int *n_basis)
{
  const BasisTable t = tabulate_lagrange(dim, degree, points, 1);
  Gradients d;
  for (int k = 0; k < dim; ++k) {
    MultiIndex alpha{0, 0, 0};
    alpha[static_cast<size_t>(k)] = 1;
    d.push_back(t.at(alpha));
  }
  *n_basis = t.n_basis;
  return d;
}

constexpr long long kNone = std::numeric_limits<long long>::max();

// det J at point q of the cell whose coordinate nodes start at `node`.
double determinant_at(const int *node, const PetscScalar *x, int dim, int q, int n_basis, const Gradients &grad)
{
  double J[9] = {0};
  for (int j = 0; j < n_basis; ++j)
    for (int i = 0; i < dim; ++i)
      for (int k = 0; k < dim; ++k) J[i * dim + k] += PetscRealPart(x[node[j] + i]) * grad[static_cast<size_t>(k)][static_cast<size_t>(q * n_basis + j)];
  return determinant(J, dim);
}

// The first (cell, point), as cell * n_points + point, whose det J is not positive and
// finite; kNone if there is none.
long long first_invalid(const PlexMaps &m, const PetscScalar *x, int dim, int n_points, int n_basis, const Gradients &grad)
{
  long long at = kNone;
  const size_t cw = static_cast<size_t>(m.coordinate_width);
#pragma omp parallel for schedule(static) reduction(min : at) if (m.n_cells > (1 << 16))
  for (PetscInt cell = 0; cell < m.n_cells; ++cell)
    for (int q = 0; q < n_points; ++q) {
      const double det = determinant_at(m.coordinates.data() + static_cast<size_t>(cell) * cw, x, dim, q, n_basis, grad);
      if (!(std::isfinite(det) && det > 0)) {
        at = std::min(at, static_cast<long long>(cell) * n_points + q);
        break;
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
  if (checked && same_maps(checked->maps, maps) && std::count(checked->points.begin(), checked->points.end(), points)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMGetDimension(dm, &dim));
  PetscCall(DMPlexGetHeightStratum(dm, 0, &cStart, nullptr));
  // Affine cells have one J: the first point stands for all.
  const std::vector<double> at(points.begin(), points.begin() + (coordinate_degree == 1 ? std::min<size_t>(points.size(), static_cast<size_t>(dim)) : points.size()));
  const int n_points = static_cast<int>(at.size() / static_cast<size_t>(dim));
  int n_basis = 0;
  Gradients grad;
  FEMGPU_CXX(PETSC_COMM_SELF, grad = coordinate_gradients(static_cast<int>(dim), coordinate_degree, at, &n_basis));
  PetscCheck(maps->n_cells == 0 || n_basis == maps->coordinate_width, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "fem_gpu: %" PetscInt_FMT " coordinate nodes per cell for P%d coordinates", maps->coordinate_width, coordinate_degree);
  Vec coordinates;
  const PetscScalar *x;
  PetscCall(DMGetCoordinatesLocal(dm, &coordinates));
  PetscCall(VecGetArrayRead(coordinates, &x));
  const long long bad = first_invalid(*maps, x, static_cast<int>(dim), n_points, n_basis, grad);
  const PetscInt cell = bad == kNone ? -1 : static_cast<PetscInt>(bad / n_points), q = bad == kNone ? -1 : static_cast<PetscInt>(bad % n_points);
  const double det = bad == kNone ? 1 : determinant_at(maps->coordinates.data() + cell * maps->coordinate_width, x, static_cast<int>(dim), static_cast<int>(q), n_basis, grad);
  PetscCall(VecRestoreArrayRead(coordinates, &x));
  PetscCall(report_invalid(comm, cStart + cell, q, det, bad != kNone));
  if (!checked || !same_maps(checked->maps, maps)) {
    checked = new Checked{maps, {}};
    PetscCall(compose_owned((PetscObject)dm, kCheckedKey, checked));
  }
  checked->points.push_back(points);
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
