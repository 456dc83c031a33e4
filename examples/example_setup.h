/* Set-up shared by the linear examples (ex1, ex2, ex4): a simplex box mesh with its
   boundary in the label "marker", fem_gpu as the default matrix type, and the
   right-hand side b = -F(0) from the PetscDS residual. */
#ifndef FEMGPU_EXAMPLE_SETUP_H
#define FEMGPU_EXAMPLE_SETUP_H

#include <petscdm.h>

#if PETSC_VERSION_LT(3, 19, 0) /* Debian 12's PETSc 3.18 */
  #define PETSC_SUCCESS 0
#endif

/* The mesh of the options (default dimension default_dim unless -dm_plex_dim is
   given), its bounding-box faces marked, and fem_gpu unless -dm_mat_type says otherwise. */
PetscErrorCode ExampleCreateMesh(MPI_Comm comm, PetscInt default_dim, DM *dm);

/* The bounding box's faces, all sides (side < 0) or one (2 d: x_d = min, 2 d + 1:
   x_d = max), in the label `name` with `value`, closed under closure. */
PetscErrorCode ExampleMarkBoxFaces(DM dm, const char name[], PetscInt side, PetscInt value);

/* b = -F(0): the residual at u = 0 with the boundary values inserted. */
PetscErrorCode ExampleComputeRHS(DM dm, Vec b);

/* DMCreateMatrix, without the AIJ nonzero pattern when the type is fem_gpu: DMPlex
   computes that pattern for every type it does not know to be a shell (about 8 s for
   4M DOFs on one core), and a fem_gpu Mat stores no entries. */
PetscErrorCode ExampleCreateMatrix(DM dm, Mat *A);

/* The DM's -dm_mat_type (an assembled type) as femgpu's MatConvert of a fem_gpu Mat on
   the same DM, set up by set_form (form file, constants): cell matrices on the GPU,
   inserted by COO, instead of DMPlex's host assembly. The examples' -exN_device_assembly. */
PetscErrorCode ExampleAssembleOnDevice(DM dm, PetscErrorCode (*set_form)(Mat, void *), void *ctx, Mat *A);

/* One line of timings and one of GPU memory: the operator's creation (assembly for an
   assembled matrix; a fem_gpu Mat sets itself up on first use, inside the solve), the
   solve, the solve per Krylov iteration, and the memory in use on the GPU after the
   solve (FEMGPUDeviceMemoryInUse; skipped without a CUDA device). A negative
   operator_seconds leaves the operator out (SNES builds it inside the solve). */
PetscErrorCode ExampleReportTimes(MPI_Comm comm, PetscLogDouble operator_seconds, PetscLogDouble solve_seconds, PetscInt krylov_iterations);

/* Log stages of the examples' phases, as PETSc users time a solve (-log_view shows them):
   "Residual" (the right-hand side), "Jacobian/PC setup" (the operator, KSPSetUp),
   "KSP solve" or "SNES solve". The library adds "femgpu setup" and "femgpu tuning". */
typedef enum { EXAMPLE_STAGE_RESIDUAL, EXAMPLE_STAGE_OPERATOR, EXAMPLE_STAGE_KSP_SOLVE, EXAMPLE_STAGE_SNES_SOLVE, EXAMPLE_NUM_STAGES } ExampleStage;
PetscErrorCode ExampleStagePush(ExampleStage stage);
PetscErrorCode ExampleStagePop(ExampleStage stage);

/* One line: the seconds of every stage entered (max over ranks), and femgpu's setup and
   tuning, which run inside them (at the first MatMult or MatGetDiagonal). */
PetscErrorCode ExampleReportStages(MPI_Comm comm);

#endif
