// Structured simplex box meshes without a mesh generator: 2 triangles per square,
// 6 Kuhn tetrahedra per cube (the paper's benchmark meshes). PETSc builds without
// Triangle/TetGen (Debian's 3.18, minimal CUDA builds) cannot make simplex boxes.
// Boundary faces carry the label "Face Sets" (for ds(i)): in 2D 1 bottom (y = lower),
// 2 right (x = upper), 3 top, 4 left; in 3D 1 bottom (z = lower), 2 top, 3 front
// (y = lower), 4 back, 5 right (x = upper), 6 left.
#include <petscdmplex.h>

#include <cmath>
#include <vector>

#include "femgpu.h"
#include "fem/structured_cells.h"
#include "petsc/base/petsc_compat.h"

namespace {

// The "Face Sets" value of a face whose vertices all have coordinate `d` at the lower
// (upper: side 1) end of the box, or 0.
PetscInt side_value(PetscInt dim, PetscInt d, int side)
{
  static const PetscInt two[2][2] = {{4, 2}, {1, 3}};           // [x, y][lower, upper]
  static const PetscInt three[3][2] = {{6, 5}, {3, 4}, {1, 2}};  // [x, y, z][lower, upper]
  return dim == 2 ? two[d][side] : three[d][side];
}

// Labels every boundary face of the serial box (rank 0 holds it all) by its side.
PetscErrorCode label_box_faces(DM dm, PetscInt dim, const PetscReal lower[], const PetscReal upper[])
{
  DMLabel label;
  Vec coords;
  PetscSection cs;
  const PetscScalar *ca;
  PetscInt fStart, fEnd, vStart, vEnd;
  PetscFunctionBegin;
  PetscCall(DMCreateLabel(dm, "Face Sets"));
  PetscCall(DMGetLabel(dm, "Face Sets", &label));
  PetscCall(DMGetCoordinatesLocal(dm, &coords));
  PetscCall(DMGetCoordinateSection(dm, &cs));
  PetscCall(VecGetArrayRead(coords, &ca));
  PetscCall(DMPlexGetHeightStratum(dm, 1, &fStart, &fEnd));
  PetscCall(DMPlexGetDepthStratum(dm, 0, &vStart, &vEnd));
  for (PetscInt f = fStart; f < fEnd; ++f) {
    PetscInt n, *closure = nullptr, on[3][2] = {{0, 0}, {0, 0}, {0, 0}}, nv = 0;
    PetscCall(DMPlexGetTransitiveClosure(dm, f, PETSC_TRUE, &n, &closure));
    for (PetscInt k = 0; k < n; ++k) {
      PetscInt off;
      if (closure[2 * k] < vStart || closure[2 * k] >= vEnd) continue;  // not a vertex
      PetscCall(PetscSectionGetOffset(cs, closure[2 * k], &off));
      ++nv;
      for (PetscInt d = 0; d < dim; ++d) {
        const PetscReal x = PetscRealPart(ca[off + d]), tol = 1e-12 * (upper[d] - lower[d]);
        on[d][0] += PetscAbsReal(x - lower[d]) < tol;
        on[d][1] += PetscAbsReal(x - upper[d]) < tol;
      }
    }
    PetscCall(DMPlexRestoreTransitiveClosure(dm, f, PETSC_TRUE, &n, &closure));
    for (PetscInt d = 0; d < dim; ++d)
      for (int side = 0; side < 2; ++side)
        if (nv == dim && on[d][side] == nv) PetscCall(DMLabelSetValue(label, f, side_value(dim, d, side)));
  }
  PetscCall(VecRestoreArrayRead(coords, &ca));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace

// As DMPlexCreateBoxMesh: NULL faces are 2 x 2 in 2D and 1 x 1 x 1 in 3D, NULL lower
// and upper bounds the unit box.
PetscErrorCode FEMGPUCreateBoxMesh(MPI_Comm comm, PetscInt dim, const PetscInt given_faces[], const PetscReal given_lower[],
                                   const PetscReal given_upper[], DM *dm)
{
  PetscMPIInt rank;
  std::vector<PetscInt> cells;
  std::vector<PetscReal> coords;
  PetscFunctionBegin;
  PetscAssertPointer(dm, 6);
  PetscCheck(dim == 2 || dim == 3, comm, PETSC_ERR_ARG_OUTOFRANGE, "FEMGPUCreateBoxMesh: dimension must be 2 or 3, got %" PetscInt_FMT, dim);
  const PetscInt default_faces[3] = {dim == 2 ? 2 : 1, dim == 2 ? 2 : 1, 1};
  const PetscReal zeros[3] = {0, 0, 0}, ones[3] = {1, 1, 1};
  const PetscInt *faces = given_faces ? given_faces : default_faces;
  const PetscReal *lower = given_lower ? given_lower : zeros, *upper = given_upper ? given_upper : ones;
  double cell_count = dim == 2 ? 2 : 6;  // in double: the product of large face counts overflows
  for (PetscInt d = 0; d < dim; ++d) {
    PetscCheck(faces[d] >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "FEMGPUCreateBoxMesh: faces[%" PetscInt_FMT "] = %" PetscInt_FMT " must be >= 1", d, faces[d]);
    PetscCheck(std::isfinite(lower[d]) && std::isfinite(upper[d]) && lower[d] < upper[d], comm, PETSC_ERR_ARG_OUTOFRANGE,
               "FEMGPUCreateBoxMesh: direction %" PetscInt_FMT " goes from %g to %g; the lower bound must be below the upper one", d, (double)lower[d],
               (double)upper[d]);
    cell_count *= static_cast<double>(faces[d]);
  }
  PetscCheck(cell_count * (dim + 1) <= static_cast<double>(PETSC_MAX_INT), comm, PETSC_ERR_ARG_OUTOFRANGE,
             "FEMGPUCreateBoxMesh: %g cells do not fit this PetscInt's cell list (configure PETSc with --with-64-bit-indices)", cell_count);
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscInt n_cells = 0, n_vertices = 0;
  if (rank == 0) {  // rank 0 builds the serial mesh; DMPlexDistribute spreads it
    const std::int64_t f[3] = {faces[0], faces[1], dim == 3 ? faces[2] : 1};
    for (std::int64_t v : femgpu::structured_cells(static_cast<int>(dim), f)) cells.push_back(static_cast<PetscInt>(v));
    n_cells = static_cast<PetscInt>(cells.size()) / (dim + 1);
    const PetscInt nz = dim == 3 ? faces[2] : 0;
    for (PetscInt k = 0; k <= nz; ++k)
      for (PetscInt j = 0; j <= faces[1]; ++j)
        for (PetscInt i = 0; i <= faces[0]; ++i) {
          const PetscInt idx[3] = {i, j, k};
          for (PetscInt d = 0; d < dim; ++d) coords.push_back(lower[d] + (upper[d] - lower[d]) * static_cast<PetscReal>(idx[d]) / static_cast<PetscReal>(faces[d]));
          ++n_vertices;
        }
  }
  PetscCall(DMPlexCreateFromCellListPetsc(comm, dim, n_cells, n_vertices, dim + 1, PETSC_TRUE, cells.data(), dim, coords.data(), dm));
  PetscCall(label_box_faces(*dm, dim, lower, upper));
  PetscCall(DMPlexDistributeSetDefault(*dm, PETSC_TRUE));
  PetscCall(PetscObjectSetName((PetscObject)*dm, "box"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FEMGPUCreateMeshFromOptions(MPI_Comm comm, DM *dm)
{
  PetscBool file, simplex = PETSC_TRUE;
  char name[PETSC_MAX_PATH_LEN];
  PetscInt dim = 2, faces[3] = {4, 4, 4}, n = 3;
  PetscReal lower[3] = {0, 0, 0}, upper[3] = {1, 1, 1};
  PetscFunctionBegin;
  PetscCall(PetscOptionsGetString(nullptr, nullptr, "-dm_plex_filename", name, sizeof(name), &file));
  PetscCall(PetscOptionsGetBool(nullptr, nullptr, "-dm_plex_simplex", &simplex, nullptr));
  if (file || !simplex) {  // PETSc reads files and makes tensor boxes itself
    PetscCall(DMCreate(comm, dm));
    PetscCall(DMSetType(*dm, DMPLEX));
  } else {
    PetscCall(PetscOptionsGetInt(nullptr, nullptr, "-dm_plex_dim", &dim, nullptr));
    PetscCall(PetscOptionsGetIntArray(nullptr, nullptr, "-dm_plex_box_faces", faces, &n, nullptr));
    n = 3;
    PetscCall(PetscOptionsGetRealArray(nullptr, nullptr, "-dm_plex_box_lower", lower, &n, nullptr));
    n = 3;
    PetscCall(PetscOptionsGetRealArray(nullptr, nullptr, "-dm_plex_box_upper", upper, &n, nullptr));
    PetscCall(FEMGPUCreateBoxMesh(comm, dim, faces, lower, upper, dm));
  }
  PetscCall(DMSetFromOptions(*dm));  // distribution, refinement, -dm_view ...
  PetscFunctionReturn(PETSC_SUCCESS);
}
