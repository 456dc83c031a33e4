// P2 coordinates and reproducible interior perturbations (see mesh_geometry.h).
#include "petsc/plex/mesh_geometry.h"

#include <petscdmplex.h>
#include <petscdt.h>
#include <petscfe.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "petsc/base/petsc_compat.h"

namespace femgpu {

namespace {

std::uint64_t splitmix64(std::uint64_t z)
{
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// A value in [-1, 1] that depends only on the point (to 1e-9) and the direction.
double hashed_unit(const PetscScalar *x, PetscInt dim, PetscInt direction)
{
  std::uint64_t h = splitmix64(static_cast<std::uint64_t>(direction));
  for (PetscInt d = 0; d < dim; ++d) h = splitmix64(h ^ static_cast<std::uint64_t>(std::llround(PetscRealPart(x[d]) * 1e9)));
  return 2.0 * static_cast<double>(h >> 11) / static_cast<double>(1ULL << 53) - 1.0;
}

// detJ > 0 at the points of a Stroud rule in every cell (curved cells can fold inside
// while their vertices look fine, which DMPlexCheckGeometry of PETSc 3.18 misses).
PetscErrorCode check_orientation(DM dm)
{
  PetscInt dim, cStart, cEnd, n_points;
  PetscQuadrature q;
  PetscFunctionBegin;
  PetscCall(DMGetDimension(dm, &dim));
  PetscCall(DMPlexGetHeightStratum(dm, 0, &cStart, &cEnd));
  PetscCall(PetscDTStroudConicalQuadrature(dim, 1, 4, -1.0, 1.0, &q));
  PetscCall(PetscQuadratureGetData(q, nullptr, nullptr, &n_points, nullptr, nullptr));
  std::vector<PetscReal> v(static_cast<size_t>(n_points * dim)), J(static_cast<size_t>(n_points * dim * dim)), detJ(static_cast<size_t>(n_points));
  for (PetscInt c = cStart; c < cEnd; ++c) {
    PetscCall(DMPlexComputeCellGeometryFEM(dm, c, q, v.data(), J.data(), nullptr, detJ.data()));
    for (PetscReal d : detJ)
      PetscCheck(d > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "the perturbed mesh has an inverted cell %" PetscInt_FMT " (detJ = %g); use a smaller perturbation", c, (double)d);
  }
  PetscCall(PetscQuadratureDestroy(&q));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

PetscErrorCode set_coordinate_degree(DM dm, PetscInt degree)
{
  PetscInt dim;
  PetscFE fe;
  PetscFunctionBegin;
  PetscCheck(degree == 1 || degree == 2, PetscObjectComm((PetscObject)dm), PETSC_ERR_ARG_OUTOFRANGE, "coordinate degree must be 1 or 2, got %" PetscInt_FMT, degree);
  if (degree == 1) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMGetDimension(dm, &dim));
  PetscCall(PetscFECreateLagrange(PetscObjectComm((PetscObject)dm), dim, dim, PETSC_TRUE, degree, PETSC_DETERMINE, &fe));
#if PETSC_VERSION_LT(3, 19, 0)
  PetscCall(DMProjectCoordinates(dm, fe));
#else
  PetscCall(DMSetCoordinateDisc(dm, fe, PETSC_FALSE, PETSC_TRUE));  // the 3.2x signature (localized, project)
#endif
  PetscCall(PetscFEDestroy(&fe));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode perturb_interior_coordinates(DM dm, PetscReal amplitude)
{
  PetscInt dim, n;
  PetscReal lo[3], hi[3];
  Vec coords, moved;
  PetscScalar *x;
  PetscFunctionBegin;
  if (amplitude == 0.0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMGetCoordinateDim(dm, &dim));
  PetscCall(DMGetBoundingBox(dm, lo, hi));
  PetscCall(DMGetCoordinatesLocal(dm, &coords));
  PetscCall(VecDuplicate(coords, &moved));
  PetscCall(VecCopy(coords, moved));
  PetscCall(VecGetLocalSize(moved, &n));
  PetscCall(VecGetArray(moved, &x));
  for (PetscInt node = 0; node < n / dim; ++node) {
    PetscScalar *p = x + node * dim;
    bool boundary = false;
    for (PetscInt d = 0; d < dim; ++d) {
      const PetscReal tol = 1e-10 * (hi[d] - lo[d]);
      boundary = boundary || PetscRealPart(p[d]) < lo[d] + tol || PetscRealPart(p[d]) > hi[d] - tol;
    }
    if (boundary) continue;
    PetscScalar shift[3];
    for (PetscInt d = 0; d < dim; ++d) shift[d] = amplitude * hashed_unit(p, dim, d);
    for (PetscInt d = 0; d < dim; ++d) p[d] += shift[d];
  }
  PetscCall(VecRestoreArray(moved, &x));
  PetscCall(DMSetCoordinatesLocal(dm, moved));
  PetscCall(VecDestroy(&moved));
  PetscCall(check_orientation(dm));  // an inverted cell is an error, not a silent |detJ|
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
