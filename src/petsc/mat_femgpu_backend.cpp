// Choosing where a fem_gpu Mat runs: the backend (-mat_fem_gpu_backend) and, for the
// generated-kernel backends, the schedule (forced by -mat_fem_gpu_strategy and the
// tile options; unset tile sizes default to whole loops).
#include "femgpu.h"
#include "petsc/mat_femgpu_impl.h"
#include "petsc/petsc_errors.h"
#ifdef FEMGPU_HAVE_CUDA
  #include <random>
  #include <sstream>

  #include "runtime/cuda_backend.h"
  #include "tune/cuda_tuner.h"
  #include "tune/device_probe.h"
#endif

namespace femgpu {

namespace {

Precision precision_of(const ScheduleRequest &r) { return r.precision == "fp32" ? Precision::FP32 : Precision::FP64; }

int pick(PetscInt requested, int fallback) { return requested >= 0 ? static_cast<int>(requested) : fallback; }

// The schedule the options ask for. Tiled sizes not given default to whole loops.
Schedule requested_schedule(const ScheduleRequest &r, const ActionIR &ir, int Q)
{
  if (r.strategy != "tiled") return Schedule::single_cell_per_work_item(static_cast<int>(r.work_group), precision_of(r));
  TileSizes t;
  t.cells_per_group = pick(r.cells_per_group, 1);
  t.items_per_cell = pick(r.items_per_cell, 32);
  t.quad_tile = pick(r.quad_tile, Q);
  t.eval_rows = pick(r.eval_rows, t.quad_tile);
  for (size_t g = 0; g < ir.groups.size(); ++g)
    t.eval_cols.push_back(g < r.eval_cols.size() ? static_cast<int>(r.eval_cols[g]) : ir.groups[g].n_basis);
  if (r.eval_cols.size() > ir.groups.size())
    throw std::invalid_argument("-mat_fem_gpu_tec has " + std::to_string(r.eval_cols.size()) + " entries; the form has " +
                                std::to_string(ir.groups.size()) + " evaluation groups");
  t.quad_rows = pick(r.quad_rows, ir.n_test_basis);
  t.quad_cols = pick(r.quad_cols, t.quad_tile);
  return Schedule::tiled(t, precision_of(r));
}

#ifdef FEMGPU_HAVE_CUDA
PetscErrorCode cuda_ordinal(Mat A, const ScheduleRequest &r, int *ordinal)
{
  PetscFunctionBegin;
  *ordinal = static_cast<int>(r.device);
  if (*ordinal < 0) {
    PetscInt petsc_device;  // where PETSc keeps VECCUDA arrays, if it has a device
    PetscCall(MatFEMGPUPetscDeviceOrdinal(&petsc_device));
    *ordinal = static_cast<int>(petsc_device);
  }
  if (*ordinal < 0) {
    PetscMPIInt rank;
    PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)A), &rank));
    int count = 1;
    FEMGPU_CXX(PetscObjectComm((PetscObject)A), count = cuda::device_count());
    *ordinal = count > 0 ? rank % count : 0;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

#ifdef FEMGPU_HAVE_CUDA
// Tuning on the first MatMult: the paper's search space ranked by the cost model (with
// the probed device), SCPWI and the best candidates compiled and timed on this Mat's
// maps and coordinates with random values; the fastest becomes the schedule.
PetscErrorCode tune_schedule(Mat A, MatFEMGPUContext *ctx, int ordinal, Schedule *chosen)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)A);
  Vec coords;
  const PetscScalar *ca;
  ActionArrays arrays;
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(FEMGPU_Tune, A, 0, 0, 0));
  PetscCall(DMGetCoordinatesLocal(ctx->dm, &coords));
  PetscCall(VecGetArrayRead(coords, &ca));
  const size_t n = static_cast<size_t>(ctx->maps.local_size);
  std::vector<double> u(n), w(n);
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> r(-1, 1);
  for (size_t i = 0; i < n; ++i) u[i] = r(rng), w[i] = 0.1 * r(rng);
  PetscCall(MatFEMGPUFillArrays(ctx, u.data(), ca, false, &arrays));
  for (FunctionArrays &f : arrays.coefficients) f.values = w.data();
  FEMGPU_CXX(comm, {
    cuda::DeviceInfo info = cuda::open_device(ordinal);
    DeviceParams device = load_or_probe(ordinal, "", false);
    device.local_max_per_group = info.shared_per_group_optin;
    TuneSettings settings;
    settings.candidates = static_cast<size_t>(ctx->tune_candidates);
    settings.limits.eta_alias_min = ctx->eta_alias_min;
    settings.limits.eta_simd_min = ctx->eta_simd_min;
    settings.limits.wg_max = static_cast<int>(ctx->wg_max);
    if (ctx->tune_monitor) settings.monitor = [comm](const std::string &line) { (void)PetscPrintf(comm, "  fem_gpu tune: %s\n", line.c_str()); };
    DeviceActionData data(*ctx->ir, *ctx->tab, arrays, n, Precision::FP64);
    TuneReport report = tune_cuda(*ctx->ir, *ctx->tab, data, info, device, settings);
    if (report.best < 0) throw std::runtime_error("fem_gpu: no schedule could run: " + report.candidates.front().error);
    const TimedCandidate &best = report.candidates[static_cast<size_t>(report.best)];
    *chosen = best.schedule.with_precision(precision_of(ctx->schedule));
    std::ostringstream os;
    os << "tuned: " << report.candidates.size() << " candidates of " << report.space_size << " timed in "
       << report.compile_seconds + report.timing_seconds << " s; best " << to_string(best.schedule) << " at " << best.median_ms << " ms";
    ctx->tune_summary = os.str();
  });
  PetscCall(VecRestoreArrayRead(coords, &ca));
  PetscCall(PetscLogEventEnd(FEMGPU_Tune, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

bool cuda_present()
{
#ifdef FEMGPU_HAVE_CUDA
  return cuda::device_available();
#else
  return false;
#endif
}

}  // namespace

PetscErrorCode MatFEMGPUMakeBackend(Mat A, MatFEMGPUContext *ctx)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)A);
  PetscFunctionBegin;
  std::string b = ctx->backend_name;
  if (b == "auto") b = cuda_present() ? "cuda" : "cpu";
  if (b == "cpu") {
    ctx->backend = make_reference_backend(*ctx->ir, *ctx->tab);
  } else if (b == "opencl") {
    FEMGPU_CXX(comm, ctx->backend = make_opencl_backend(*ctx->ir, *ctx->tab, requested_schedule(ctx->schedule, *ctx->ir, ctx->tab->n_points()),
                                                       default_share_dir()));
  } else if (b == "cuda") {
#ifdef FEMGPU_HAVE_CUDA
    PetscCheck(cuda_present(), comm, PETSC_ERR_SUP_SYS, "fem_gpu: -mat_fem_gpu_backend cuda, but no CUDA device or driver was found");
    int ordinal;
    PetscCall(cuda_ordinal(A, ctx->schedule, &ordinal));
    Schedule schedule = Schedule::single_cell_per_work_item();
    FEMGPU_CXX(comm, schedule = requested_schedule(ctx->schedule, *ctx->ir, ctx->tab->n_points()));
    if (ctx->schedule.strategy == "auto" && ctx->maps.n_cells > 0) PetscCall(tune_schedule(A, ctx, ordinal, &schedule));
    FEMGPU_CXX(comm, ctx->backend = std::make_unique<CudaBackend>(*ctx->ir, *ctx->tab, schedule, ordinal));
#else
    SETERRQ(comm, PETSC_ERR_SUP, "fem_gpu: this build has no CUDA backend (configure with the CUDA toolkit present)");
#endif
  } else {
    SETERRQ(comm, PETSC_ERR_ARG_UNKNOWN_TYPE, "fem_gpu: unknown backend '%s' (use auto, cpu, opencl or cuda)", b.c_str());
  }
  if (ctx->view_source) PetscCall(PetscPrintf(comm, "%s\n", ctx->backend->source().c_str()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
