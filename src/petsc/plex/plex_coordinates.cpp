// The coordinate closure's order against femgpu's nodes (see plex_coordinates.h).
#include "petsc/plex/plex_coordinates.h"

#include <petscfe.h>

#include <cmath>

#include "form/form.h"
#include "fem/tabulation.h"
#include "petsc/base/petsc_compat.h"
#include "petsc/base/petsc_errors.h"

namespace femgpu {

namespace {

// The coordinate field's PetscFE, or null where the coordinate DM has no PetscFE field
// (PETSc's vertex coordinates: the closure lists the vertices in the P1 basis order).
PetscErrorCode coordinate_fe(DM dm, PetscFE *fe)
{
  DM cdm;
  PetscInt nf;
  PetscFunctionBegin;
  *fe = nullptr;
  PetscCall(DMGetCoordinateDM(dm, &cdm));
  PetscCall(DMGetNumFields(cdm, &nf));
  if (nf == 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscObject obj;
  PetscClassId id;
  PetscCall(DMGetField(cdm, 0, nullptr, &obj));
  PetscCall(PetscObjectGetClassId(obj, &id));
  if (id == PETSCFE_CLASSID) *fe = (PetscFE)obj;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The basis function of `values` (one point: Nb x Nc) that is 1 in component c, the
// others 0 there; -1 where there is not exactly one.
PetscInt nodal_basis(const PetscReal *values, PetscInt Nb, PetscInt Nc, PetscInt c)
{
  constexpr PetscReal tol = 1e-10;
  PetscInt found = -1;
  for (PetscInt b = 0; b < Nb; ++b) {
    const PetscReal v = values[b * Nc + c];
    if (std::abs(v - 1) < tol && found < 0) found = b;
    else if (!(std::abs(v) < tol)) return -1;
  }
  return found;
}

}  // namespace

PetscErrorCode plex_coordinate_closure_order(DM dm, PetscInt width, std::vector<int> *order)
{
  PetscInt dim;
  PetscFE fe;
  PetscFunctionBegin;
  PetscCall(DMGetCoordinateDim(dm, &dim));
  order->resize(static_cast<size_t>(width));
  for (PetscInt k = 0; k < width; ++k) (*order)[static_cast<size_t>(k)] = static_cast<int>(k);
  PetscCall(coordinate_fe(dm, &fe));
  if (!fe || width == 0) PetscFunctionReturn(PETSC_SUCCESS);
  const PetscInt nodes = width / dim;
  const int degree = nodes == dim + 1 ? 1 : nodes == lagrange_dimension(static_cast<int>(dim), 2) ? 2 : 0;
  PetscCheck(degree > 0 && nodes * dim == width, PETSC_COMM_SELF, PETSC_ERR_SUP,
             "fem_gpu supports P1 and P2 coordinates; this mesh has %" PetscInt_FMT " coordinate values per cell in %" PetscInt_FMT "D", width, dim);
  PetscInt Nb, Nc;
  PetscCall(PetscFEGetDimension(fe, &Nb));
  PetscCall(PetscFEGetNumComponents(fe, &Nc));
  PetscCheck(Nb == width && Nc == dim, PETSC_COMM_SELF, PETSC_ERR_SUP,
             "fem_gpu: the coordinate field's element has %" PetscInt_FMT " basis functions of %" PetscInt_FMT
             " components, but a cell's coordinate closure holds %" PetscInt_FMT " values",
             Nb, Nc, width);
  std::vector<double> points;
  FEMGPU_CXX(PETSC_COMM_SELF, points = lagrange_nodes(static_cast<int>(dim), degree));
  PetscTabulation T;
  PetscCall(PetscFECreateTabulation(fe, 1, nodes, points.data(), 0, &T));
  for (PetscInt i = 0; i < nodes; ++i)
    for (PetscInt c = 0; c < dim; ++c) {
      const PetscInt b = nodal_basis(T->T[0] + i * Nb * Nc, Nb, Nc, c);
      if (b < 0) PetscCall(PetscTabulationDestroy(&T));
      PetscCheck(b >= 0, PETSC_COMM_SELF, PETSC_ERR_SUP,
                 "fem_gpu cannot read this mesh's coordinates: the coordinate field's element is not P%d Lagrange with femgpu's nodes "
                 "(no basis function is 1 at node %" PetscInt_FMT " in component %" PetscInt_FMT " and 0 elsewhere)",
                 degree, i, c);
      (*order)[static_cast<size_t>(i * dim + c)] = static_cast<int>(b);
    }
  PetscCall(PetscTabulationDestroy(&T));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode plex_check_coordinate_layout(DM dm)
{
  PetscBool localized;
  PetscFunctionBegin;
  PetscCall(DMGetCoordinatesLocalized(dm, &localized));
  PetscCheck(!localized, PetscObjectComm((PetscObject)dm), PETSC_ERR_SUP,
             "fem_gpu does not support periodic meshes: PETSc keeps the coordinates of the cells that wrap around in a cellwise "
             "coordinate DM (DMGetCellCoordinateDM), which fem_gpu does not read");
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
