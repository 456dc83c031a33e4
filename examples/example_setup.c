/* Set-up shared by the linear examples; see example_setup.h. */
#include "example_setup.h"

#include <femgpu.h>
#include <petscdmplex.h>
#include <petscsnes.h>

/* fem_gpu unless -dm_mat_type (read by DMSetFromOptions) says otherwise. */
static PetscErrorCode SetDefaultMatType(DM dm)
{
  PetscBool set;
  PetscFunctionBeginUser;
  PetscCall(PetscOptionsHasName(NULL, NULL, "-dm_mat_type", &set));
  if (!set) PetscCall(DMSetMatType(dm, MATFEMGPU));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Faces on the bounding box into the label "marker". DMPlexMarkBoundaryFaces alone would
   also mark faces between ranks in some PETSc versions, so each face is checked. */
static PetscErrorCode MarkBoundary(DM dm)
{
  DMLabel   candidates, marker;
  IS        faces;
  PetscReal lo[3], hi[3];
  PetscInt  dim;
  PetscFunctionBeginUser;
  PetscCall(DMGetDimension(dm, &dim));
  PetscCall(DMGetBoundingBox(dm, lo, hi));
  PetscCall(DMLabelCreate(PETSC_COMM_SELF, "candidates", &candidates));
  PetscCall(DMPlexMarkBoundaryFaces(dm, 1, candidates));
  PetscCall(DMCreateLabel(dm, "marker"));
  PetscCall(DMGetLabel(dm, "marker", &marker));
  PetscCall(DMLabelGetStratumIS(candidates, 1, &faces));
  if (faces) {
    PetscInt        n;
    const PetscInt *f;
    PetscCall(ISGetLocalSize(faces, &n));
    PetscCall(ISGetIndices(faces, &f));
    for (PetscInt i = 0; i < n; ++i) {
      PetscReal c[3];
      PetscBool on_box = PETSC_FALSE;
      PetscCall(DMPlexComputeCellGeometryFVM(dm, f[i], NULL, c, NULL));
      for (PetscInt d = 0; d < dim; ++d) on_box = (PetscBool)(on_box || PetscAbsReal(c[d] - lo[d]) < 1e-10 || PetscAbsReal(c[d] - hi[d]) < 1e-10);
      if (on_box) PetscCall(DMLabelSetValue(marker, f[i], 1));
    }
    PetscCall(ISRestoreIndices(faces, &f));
    PetscCall(ISDestroy(&faces));
  }
  PetscCall(DMLabelDestroy(&candidates));
  PetscCall(DMPlexLabelComplete(dm, marker));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* b = -F(0): the residual at u = 0 with the boundary values inserted. */
PetscErrorCode ExampleComputeRHS(DM dm, Vec b)
{
  Vec ul, rl;
  PetscFunctionBeginUser;
  PetscCall(DMGetLocalVector(dm, &ul));
  PetscCall(DMGetLocalVector(dm, &rl));
  PetscCall(VecSet(ul, 0.0));
  PetscCall(VecSet(rl, 0.0));
  PetscCall(DMPlexInsertBoundaryValues(dm, PETSC_TRUE, ul, 0.0, NULL, NULL, NULL));
  PetscCall(DMPlexSNESComputeResidualFEM(dm, ul, rl, NULL));
  PetscCall(VecSet(b, 0.0));
  PetscCall(DMLocalToGlobal(dm, rl, ADD_VALUES, b));
  PetscCall(VecScale(b, -1.0));
  PetscCall(DMRestoreLocalVector(dm, &ul));
  PetscCall(DMRestoreLocalVector(dm, &rl));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ExampleCreateMesh(MPI_Comm comm, PetscInt default_dim, DM *dm)
{
  PetscBool set;
  char      dim[8];
  PetscFunctionBeginUser;
  PetscCall(PetscOptionsHasName(NULL, NULL, "-dm_plex_dim", &set));
  PetscCall(PetscSNPrintf(dim, sizeof(dim), "%" PetscInt_FMT, default_dim));
  if (!set) PetscCall(PetscOptionsSetValue(NULL, "-dm_plex_dim", dim));
  PetscCall(FEMGPUCreateMeshFromOptions(comm, dm));
  PetscCall(MarkBoundary(*dm));
  PetscCall(SetDefaultMatType(*dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ExampleReportTimes(MPI_Comm comm, PetscLogDouble operator_seconds, PetscLogDouble solve_seconds, PetscInt krylov_iterations)
{
  PetscReal mib;
  PetscFunctionBeginUser;
  if (operator_seconds >= 0) PetscCall(PetscPrintf(comm, "Time: operator %.3f s, ", (double)operator_seconds));
  else PetscCall(PetscPrintf(comm, "Time: "));
  PetscCall(PetscPrintf(comm, "solve %.3f s, %.4f ms per Krylov iteration\n", (double)solve_seconds,
                        krylov_iterations > 0 ? 1e3 * (double)solve_seconds / (double)krylov_iterations : 0.0));
  PetscCall(FEMGPUDeviceMemoryInUse(comm, &mib));
  if (mib >= 0) PetscCall(PetscPrintf(comm, "GPU memory in use after the solve: %.0f MiB (max over ranks, whole device)\n", (double)mib));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ExampleCreateMatrix(DM dm, Mat *A)
{
  MatType   type;
  PetscBool fem_gpu;
  PetscFunctionBeginUser;
  PetscCall(DMGetMatType(dm, &type));
  PetscCall(PetscStrcmp(type, MATFEMGPU, &fem_gpu));
  if (fem_gpu) PetscCall(DMSetMatrixPreallocateSkip(dm, PETSC_TRUE));
  PetscCall(DMCreateMatrix(dm, A));
  if (fem_gpu) PetscCall(DMSetMatrixPreallocateSkip(dm, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}
