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

/* The faces on the bounding box, all of its sides (side < 0) or one (side 2 d: x_d = min,
   2 d + 1: x_d = max), into the label `name` with `value`, closed under closure.
   DMPlexMarkBoundaryFaces alone would also mark faces between ranks in some PETSc
   versions, so each face is checked. */
PetscErrorCode ExampleMarkBoxFaces(DM dm, const char name[], PetscInt side, PetscInt value)
{
  DMLabel   candidates, marked;
  IS        faces;
  PetscReal lo[3], hi[3];
  PetscInt  dim;
  PetscFunctionBeginUser;
  PetscCall(DMGetDimension(dm, &dim));
  PetscCall(DMGetBoundingBox(dm, lo, hi));
  PetscCall(DMLabelCreate(PETSC_COMM_SELF, "candidates", &candidates));
  PetscCall(DMPlexMarkBoundaryFaces(dm, 1, candidates));
  PetscCall(DMCreateLabel(dm, name));
  PetscCall(DMGetLabel(dm, name, &marked));
  PetscCall(DMLabelGetStratumIS(candidates, 1, &faces));
  if (faces) {
    PetscInt        n;
    const PetscInt *f;
    PetscCall(ISGetLocalSize(faces, &n));
    PetscCall(ISGetIndices(faces, &f));
    for (PetscInt i = 0; i < n; ++i) {
      PetscReal c[3];
      PetscBool on_side = PETSC_FALSE;
      PetscCall(DMPlexComputeCellGeometryFVM(dm, f[i], NULL, c, NULL));
      for (PetscInt d = 0; d < dim; ++d) {
        const PetscReal tol = 1e-10 * (hi[d] - lo[d]);
        if ((side < 0 || side == 2 * d) && PetscAbsReal(c[d] - lo[d]) < tol) on_side = PETSC_TRUE;
        if ((side < 0 || side == 2 * d + 1) && PetscAbsReal(c[d] - hi[d]) < tol) on_side = PETSC_TRUE;
      }
      if (on_side) PetscCall(DMLabelSetValue(marked, f[i], value));
    }
    PetscCall(ISRestoreIndices(faces, &f));
    PetscCall(ISDestroy(&faces));
  }
  PetscCall(DMLabelDestroy(&candidates));
  PetscCall(DMPlexLabelComplete(dm, marked));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* b = -F(0): the residual at u = 0 with the boundary values inserted by the DM's SNES hook
   (PETSc's DMPlexSNESComputeBoundaryFEM, or femgpu's equal and faster one with
   -dm_fem_gpu_form_file). The residual is the
   DM's local one: PETSc's PetscDS residual, or with -dm_fem_gpu_form_file F.ufl femgpu's
   kernel of F (FEMGPUDMSetFromOptions), so that the physics can come from one form file. */
PetscErrorCode ExampleComputeRHS(DM dm, Vec b)
{
  Vec ul, rl;
  PetscErrorCode (*residual)(DM, Vec, Vec, void *) = NULL;
  PetscErrorCode (*boundary)(DM, Vec, void *)       = NULL;
  void *residual_ctx = NULL, *boundary_ctx = NULL;
  PetscFunctionBeginUser;
#if PETSC_VERSION_LT(3, 21, 0)
  PetscCall(DMPlexSetSNESLocalFEM(dm, NULL, NULL, NULL));
#else
  PetscCall(DMPlexSetSNESLocalFEM(dm, PETSC_FALSE, NULL));
#endif
  PetscCall(FEMGPUDMSetFromOptions(dm));
  PetscCall(DMSNESGetFunctionLocal(dm, &residual, &residual_ctx));
  PetscCall(DMSNESGetBoundaryLocal(dm, &boundary, &boundary_ctx));
  PetscCall(DMGetLocalVector(dm, &ul));
  PetscCall(DMGetLocalVector(dm, &rl));
  PetscCall(VecSet(ul, 0.0));
  PetscCall(VecSet(rl, 0.0));
  PetscCall(boundary(dm, ul, boundary_ctx)); /* as SNES does: PETSc's insertion, or femgpu's plan of it */
  PetscCall(residual(dm, ul, rl, residual_ctx));
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
  PetscCall(ExampleMarkBoxFaces(*dm, "marker", -1, 1));
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

PetscErrorCode ExampleAssembleOnDevice(DM dm, PetscErrorCode (*set_form)(Mat, void *), void *ctx, Mat *A)
{
  Mat     F;
  MatType dm_type;
  char    type[256];
  PetscFunctionBeginUser;
  PetscCall(DMGetMatType(dm, &dm_type));
  PetscCall(PetscStrncpy(type, dm_type, sizeof(type))); /* DMSetMatType frees the DM's string */
  PetscCall(DMSetMatType(dm, MATFEMGPU));
  PetscCall(ExampleCreateMatrix(dm, &F));
  PetscCall(DMSetMatType(dm, type));
  PetscCall(set_form(F, ctx));
  PetscCall(MatConvert(F, type, MAT_INITIAL_MATRIX, A));
  PetscCall(MatDestroy(&F));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The examples' stages, each with an event of the same span: PetscLogEventGetPerfInfo
   (stage, event) gives an event's time in a stage on PETSc 3.18 and 3.26 alike, while
   PetscLogStageGetPerfInfo exists only since 3.20. The event's time includes femgpu's
   stages pushed inside it (setup at the first MatMult or MatGetDiagonal). */
static const char *const example_stage_names[EXAMPLE_NUM_STAGES] = {"Residual", "Jacobian/PC setup", "KSP solve", "SNES solve"};
static PetscLogStage     example_stages[EXAMPLE_NUM_STAGES] = {-1, -1, -1, -1};
static PetscLogEvent     example_events[EXAMPLE_NUM_STAGES];

/* A stage and its event, registered at their first use: -log_view lists no stage that
   never ran. The breakdown needs the times without -log_view too, so logging starts. */
static PetscErrorCode RegisterStage(ExampleStage stage)
{
  static PetscClassId id = 0;
  PetscBool           active;
  PetscFunctionBeginUser;
  if (example_stages[stage] >= 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLogIsActive(&active));
  if (!active) PetscCall(PetscLogDefaultBegin());
  if (!id) PetscCall(PetscClassIdRegister("Example", &id));
  PetscCall(PetscLogStageRegister(example_stage_names[stage], &example_stages[stage]));
  PetscCall(PetscLogEventRegister(example_stage_names[stage], id, &example_events[stage]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ExampleStagePush(ExampleStage stage)
{
  PetscFunctionBeginUser;
  PetscCall(RegisterStage(stage));
  PetscCall(PetscLogStagePush(example_stages[stage]));
  PetscCall(PetscLogEventBegin(example_events[stage], 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ExampleStagePop(ExampleStage stage)
{
  PetscFunctionBeginUser;
  PetscCall(PetscLogEventEnd(example_events[stage], 0, 0, 0, 0));
  PetscCall(PetscLogStagePop());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Seconds of `event_name` in the stage `stage_name` on this rank (0 when either is unknown). */
static PetscErrorCode EventSeconds(const char *stage_name, const char *event_name, PetscLogDouble *seconds)
{
  PetscLogStage      stage;
  PetscLogEvent      event;
  PetscEventPerfInfo info;
  PetscFunctionBeginUser;
  *seconds = 0;
  PetscCall(PetscLogStageGetId(stage_name, &stage));
  PetscCall(PetscLogEventGetId(event_name, &event));
  if (stage < 0 || event < 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLogEventGetPerfInfo(stage, event, &info));
  *seconds = info.time;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ExampleReportStages(MPI_Comm comm)
{
  PetscLogDouble     t[EXAMPLE_NUM_STAGES + 2];
  PetscInt           count[EXAMPLE_NUM_STAGES];
  PetscEventPerfInfo info;
  PetscFunctionBeginUser;
  for (int s = 0; s < EXAMPLE_NUM_STAGES; ++s) {
    t[s] = 0;
    count[s] = 0;
    if (example_stages[s] < 0) continue;
    PetscCall(PetscLogEventGetPerfInfo(example_stages[s], example_events[s], &info));
    t[s]     = info.time;
    count[s] = info.count;
  }
  /* femgpu's stages hold its setup and tuning events (src/petsc/base/log_stage.h) */
  PetscCall(EventSeconds("femgpu setup", "FEMGPUSetUp", &t[EXAMPLE_NUM_STAGES]));
  PetscCall(EventSeconds("femgpu tuning", "FEMGPUTune", &t[EXAMPLE_NUM_STAGES + 1]));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, t, EXAMPLE_NUM_STAGES + 2, MPIU_PETSCLOGDOUBLE, MPI_MAX, comm));
  PetscCall(PetscPrintf(comm, "Stages:"));
  for (int s = 0; s < EXAMPLE_NUM_STAGES; ++s)
    if (count[s] > 0) PetscCall(PetscPrintf(comm, " %s %.3f s,", example_stage_names[s], (double)t[s]));
  PetscCall(PetscPrintf(comm, " of these femgpu setup %.3f s (tuning %.3f s)\n", (double)t[EXAMPLE_NUM_STAGES], (double)t[EXAMPLE_NUM_STAGES + 1]));
  PetscFunctionReturn(PETSC_SUCCESS);
}
