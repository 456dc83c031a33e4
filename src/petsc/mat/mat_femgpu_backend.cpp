// Choosing where a fem_gpu Mat runs: the backend (-mat_fem_gpu_backend) and, for the
// generated-kernel backends, the schedule (forced by -mat_fem_gpu_strategy and the
// tile options, unset tile sizes defaulting to whole loops; or, with strategy auto,
// tuned or read from the tuning cache by mat_femgpu_tune.cpp). A tuned winner becomes
// the backend as the tuner compiled it; nothing is compiled twice.
#include <algorithm>

#include "femgpu.h"
#include "petsc/base/petsc_errors.h"
#include "petsc/mat/mat_context.h"
#include "petsc/mat/mat_femgpu_backend.h"
#include "petsc/base/petsc_device.h"
#include "petsc/mat/mat_femgpu_tune.h"
#include "runtime/opencl_runtime.h"
#include "probe/opencl_probe.h"
#include "runtime/opencl_tuner.h"
#ifdef FEMGPU_HAVE_CUDA
  #include "cache/kernel_binary_cache.h"
  #include "runtime/cuda_tuner.h"
  #include "probe/device_probe.h"
#endif

namespace femgpu {

namespace {

Precision precision_of(const ScheduleRequest &r) { return MatFEMGPURequestedPrecision(r); }

// The schedule the options ask for: the strategy, with -mat_fem_gpu_schedule's words
// where the text named that strategy, completed for this form (tiles left out take whole
// loops); validate() refuses what the form or strategy cannot take.
Schedule requested_schedule(const ScheduleRequest &r, const ActionIR &ir, int Q)
{
  ScheduleText t;
  t.strategy = r.strategy == "tiled"       ? Strategy::Tiled
               : r.strategy == "mma"       ? Strategy::TensorCore
               : r.strategy == "assembled" ? Strategy::Assembled
                                           : Strategy::SingleCellPerWorkItem;
  if (r.forced.strategy == t.strategy) t.words = r.forced.words;
  return completed_schedule(t, ir, Q, precision_of(r));
}

#ifdef FEMGPU_HAVE_CUDA
PetscErrorCode cuda_ordinal(Mat A, const ScheduleRequest &r, int *ordinal)
{
  PetscFunctionBegin;
  *ordinal = static_cast<int>(r.device);
  if (*ordinal < 0) {
    PetscInt petsc_device;  // where PETSc keeps VECCUDA arrays, if it has a device
    PetscCall(petsc_cuda_ordinal(&petsc_device));
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
// The CUDA tuner (cuda_tuner.h) on device `ordinal`, ranked with the probed device
// (the probe's cache, or a probe now), which also serves MatView's roofline. Sets
// *chosen, and *tuned to the backend around the timed winner's loaded kernel: the
// candidates are compiled and timed in the requested precision, so the winner is the
// kernel the Mat runs.
PetscErrorCode tune_cuda_schedule(Mat A, MatFEMGPUContext *ctx, int ordinal, Schedule *chosen, std::unique_ptr<ActionBackend> *tuned)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)A);
  TuneTarget target;
  PetscFunctionBegin;
  FEMGPU_CXX(comm, {
    const cuda::DeviceInfo info = cuda::open_device(ordinal);
    const CachedProbe probe = load_or_probe_report(ordinal, "", false);
    const ProbeKey key = current_probe_key(ordinal);
    target.backend = "cuda";
    target.device = key.device;
    target.device_version = key.arch;
    target.driver_version = std::to_string(key.driver_version);
    target.nvrtc_version = key.nvrtc_version;
    target.params = probe.probe.params;
    target.params.local_max_per_group = info.shared_per_group_optin;
    target.params_source = probe_source(probe);
    ctx->device.device_params = probe.probe.params;
    ctx->device.device_params_known = true;
    ctx->device.device_params_source = target.params_source;
    const DeviceParams params = target.params;
    const Precision precision = MatFEMGPURequestedPrecision(ctx->options.schedule);
    target.tune = [ctx, info, params, ordinal, precision](const ActionArrays &arrays, size_t n, const TuneSettings &settings) -> TunerOutcome {
      DeviceActionData data(*ctx->op.ir, *ctx->op.tab, arrays, n, precision);
      CudaTuneReport report = tune_cuda(*ctx->op.ir, *ctx->op.tab, data, info, params, settings);
      TunerOutcome outcome;
      if (report.best_kernel) outcome.backend = make_cuda_backend(*ctx->op.ir, *ctx->op.tab, std::move(report.best_kernel), ordinal);
      outcome.report = std::move(report);  // its TuneReport part
      return outcome;
    };
  });
  PetscCall(MatFEMGPUTuneSchedule(A, ctx, target, chosen, tuned));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

// The OpenCL tuner (opencl_tuner.h), ranked with the probed OpenCL device (the probe's
// cache, or a probe now; opencl_probe.h), which also serves MatView's roofline; the
// local-memory limit is also capped at the one the OpenCL backend validates against.
// Sets *chosen, and *tuned to the tuner's best backend when it tuned (no second build).
PetscErrorCode tune_opencl_schedule(Mat A, MatFEMGPUContext *ctx, Schedule *chosen, std::unique_ptr<ActionBackend> *tuned)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)A);
  TuneTarget target;
  std::string probe_note;
  PetscFunctionBegin;
  FEMGPU_CXX(comm, {
    const CachedProbe probe = load_or_probe_opencl_report("", false);
    const ProbeKey &key = probe.probe.key;
    target.backend = "opencl";
    target.device = key.device;
    target.device_version = key.arch;
    target.driver_version = key.opencl_driver_version;
    target.params = probe.probe.params;
    target.params.local_max_per_group = std::min(target.params.local_max_per_group, static_cast<double>(kMaxStaticSharedBytes));
    // t_sync spreads barriers over the device's compute units (cost_model.h).
    if (probe.probe.multiprocessors > 0) target.params.multiprocessors = probe.probe.multiprocessors;
    target.params_source = probe_source(probe);
    probe_note = probe.note;
    ctx->device.device_params = probe.probe.params;
    ctx->device.device_params_known = true;
    ctx->device.device_params_source = target.params_source;
    const Precision precision = MatFEMGPURequestedPrecision(ctx->options.schedule);
    const DeviceParams params = target.params;
    target.can_run = [ctx](const Schedule &s) { check_opencl_schedule(*ctx->op.ir, *ctx->op.tab, s); };
    target.tune = [ctx, precision, params](const ActionArrays &arrays, size_t n, const TuneSettings &base) -> TunerOutcome {
      TuneSettings settings = base;  // cheap on PoCL: every candidate is built by the OpenCL compiler
      settings.items_per_cell_classes.clear();
      settings.quad_tile_classes = 0;
      settings.warmups = 2;
      settings.min_runs = 5;
      settings.min_seconds = 0.05;
      settings.max_runs = 100;
      OpenCLTuneReport report = tune_opencl(*ctx->op.ir, *ctx->op.tab, arrays, n, precision, params, settings);
      TunerOutcome outcome;
      outcome.backend = std::move(report.best_backend);
      outcome.report = std::move(report);  // its TuneReport part; the kernel was moved out
      return outcome;
    };
  });
  if (!probe_note.empty()) PetscCall(PetscInfo(A, "OpenCL device probe: %s\n", probe_note.c_str()));
  PetscCall(MatFEMGPUTuneSchedule(A, ctx, target, chosen, tuned));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Tuning times kernels on this rank's cells, so a rank without cells does not tune: it
// takes the schedule of the first rank that has cells (collective; one broadcast).
PetscErrorCode schedule_of_ranks_with_cells(MPI_Comm comm, PetscInt n_cells, Schedule *schedule)
{
  PetscMPIInt rank, size, root;
  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  root = n_cells > 0 ? rank : size;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &root, 1, MPI_INT, MPI_MIN, comm));
  if (root == size) PetscFunctionReturn(PETSC_SUCCESS);  // no cells anywhere: keep the default
  std::string text = to_string(*schedule);
  PetscMPIInt length = static_cast<PetscMPIInt>(text.size());
  PetscCallMPI(MPI_Bcast(&length, 1, MPI_INT, root, comm));
  text.resize(static_cast<size_t>(length));
  PetscCallMPI(MPI_Bcast(text.data(), length, MPI_CHAR, root, comm));
  if (n_cells == 0) FEMGPU_CXX(PETSC_COMM_SELF, *schedule = parse_schedule(text));
  PetscFunctionReturn(PETSC_SUCCESS);
}

bool cuda_present()
{
#ifdef FEMGPU_HAVE_CUDA
  return cuda::device_available();
#else
  return false;
#endif
}

// What `-mat_fem_gpu_backend auto` runs on: CUDA when a device and driver are there, else
// OpenCL when an OpenCL device is, else the CPU reference. The reference is the FP64
// oracle of the tests, far slower than PETSc's AIJ, so taking it is said once per process
// on stderr (PetscInfo alone would hide it from everyone who did not ask).
PetscErrorCode resolve_auto_backend(Mat A, std::string *name)
{
  static bool told = false;
  PetscFunctionBegin;
  if (cuda_present()) *name = "cuda";
  else if (opencl_device_available()) *name = "opencl";
  else *name = "cpu";
  PetscCall(PetscInfo(A, "-mat_fem_gpu_backend auto: %s\n", name->c_str()));
  if (*name == "cpu" && !told) {
    told = true;
    PetscCall(PetscFPrintf(PetscObjectComm((PetscObject)A), PETSC_STDERR,
                           "fem_gpu: no CUDA or OpenCL device found, so -mat_fem_gpu_backend auto runs the CPU reference "
                           "(the FP64 oracle, not a fast path); choose with -mat_fem_gpu_backend cpu|opencl|cuda\n"));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The OpenCL backend: the tuner's winner as it was built and timed, or one built for the
// requested (or cached, or another rank's) schedule.
PetscErrorCode make_opencl(Mat A, MatFEMGPUContext *ctx)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)A);
  std::unique_ptr<ActionBackend> tuned;
  PetscFunctionBegin;
  Schedule schedule = Schedule::single_cell_per_work_item();
  FEMGPU_CXX(comm, schedule = requested_schedule(ctx->options.schedule, *ctx->op.ir, ctx->op.tab->n_points()));
  ctx->device.backend.reset();
  if (ctx->options.schedule.strategy == "auto") {
    if (ctx->op.maps().n_cells > 0) PetscCall(tune_opencl_schedule(A, ctx, &schedule, &tuned));
    PetscCall(schedule_of_ranks_with_cells(comm, ctx->op.maps().n_cells, &schedule));
  }
  if (tuned) ctx->device.backend = std::move(tuned);
  else FEMGPU_CXX(comm, ctx->device.backend = make_opencl_backend(*ctx->op.ir, *ctx->op.tab, schedule));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#ifdef FEMGPU_HAVE_CUDA
// -mat_fem_gpu_kernel_cache: where this process keeps the CUDA kernels it compiles
// (runtime/kernel_binary_store.h), installed before this Mat's kernels are made; the
// kernels a Mat makes later (diagonal, cell matrices, p-multigrid transfers) use it too.
static PetscErrorCode use_kernel_cache(Mat A, const MatFEMGPUContext *ctx)
{
  std::shared_ptr<KernelBinaryStore> store;
  std::string folder = ctx->options.kernel_cache;
  PetscFunctionBegin;
  if (folder == "default") {
    try {
      folder = default_kernel_cache_folder();
    } catch (const std::exception &e) {
      PetscCall(PetscInfo(A, "fem_gpu: kernel cache off: %s\n", e.what()));
      folder = "none";
    }
  }
  if (folder != "none") FEMGPU_CXX(PetscObjectComm((PetscObject)A), store = make_kernel_binary_cache(folder));
  PetscCall(PetscInfo(A, "fem_gpu: compiled kernels kept in %s\n", store ? folder.c_str() : "no folder (-mat_fem_gpu_kernel_cache none)"));
  set_kernel_binary_store(store);
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The CUDA backend on its device: around the tuner's loaded winner (no second NVRTC
// compile), or compiled for the requested (or cached, or another rank's) schedule.
PetscErrorCode make_cuda(Mat A, MatFEMGPUContext *ctx)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)A);
  std::unique_ptr<ActionBackend> tuned;
  int ordinal;
  PetscFunctionBegin;
  PetscCheck(cuda_present(), comm, PETSC_ERR_SUP_SYS, "fem_gpu: -mat_fem_gpu_backend cuda, but no CUDA device or driver was found");
  PetscCall(cuda_ordinal(A, ctx->options.schedule, &ordinal));
  ctx->device.cuda_ordinal = ordinal;
  PetscCall(use_kernel_cache(A, ctx));
  Schedule schedule = Schedule::single_cell_per_work_item();
  FEMGPU_CXX(comm, schedule = requested_schedule(ctx->options.schedule, *ctx->op.ir, ctx->op.tab->n_points()));
  if (ctx->options.schedule.strategy == "auto") {
    if (ctx->op.maps().n_cells > 0) PetscCall(tune_cuda_schedule(A, ctx, ordinal, &schedule, &tuned));
    PetscCall(schedule_of_ranks_with_cells(comm, ctx->op.maps().n_cells, &schedule));
  }
  if (tuned) ctx->device.backend = std::move(tuned);
  else FEMGPU_CXX(comm, ctx->device.backend = make_cuda_backend(*ctx->op.ir, *ctx->op.tab, schedule, ordinal));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

}  // namespace

PetscErrorCode MatFEMGPUMakeBackend(Mat A, MatFEMGPUContext *ctx)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)A);
  PetscFunctionBegin;
  std::string b = ctx->options.backend_name;
  if (b == "auto") PetscCall(resolve_auto_backend(A, &b));
  if (b == "cpu") {
    // The reference runs no schedule: a request for one would silently change nothing.
    PetscCheck(ctx->options.schedule.strategy == "auto" && ctx->options.schedule.precision == "fp64", comm, PETSC_ERR_SUP,
               "fem_gpu: -mat_fem_gpu_strategy %s -mat_fem_gpu_precision %s: the cpu backend is the FP64 reference (the paper's Algorithm 2) "
               "and runs no kernel schedule; use -mat_fem_gpu_backend opencl or cuda",
               ctx->options.schedule.strategy.c_str(), ctx->options.schedule.precision.c_str());
    ctx->device.backend = make_reference_backend(*ctx->op.ir, *ctx->op.tab);
  } else if (b == "opencl") {
    PetscCall(make_opencl(A, ctx));
  } else if (b == "cuda") {
#ifdef FEMGPU_HAVE_CUDA
    PetscCall(make_cuda(A, ctx));
#else
    SETERRQ(comm, PETSC_ERR_SUP, "fem_gpu: this build has no CUDA backend (configure with the CUDA toolkit present)");
#endif
  } else {
    SETERRQ(comm, PETSC_ERR_ARG_UNKNOWN_TYPE, "fem_gpu: unknown backend '%s' (use auto, cpu, opencl or cuda)", b.c_str());
  }
  if (ctx->options.view_source) PetscCall(PetscPrintf(comm, "%s\n", ctx->device.backend->source().c_str()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
