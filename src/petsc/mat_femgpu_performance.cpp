// MatView's performance lines: what one apply achieves on this rank, against the
// roofline of the paper's Eq. 16 (cost_model.h's roofline()).
//
// Time per apply: the wall time of the backend's call accumulated by MatFEMGPUApply
// (the GPU backends wait for the kernel, so it is honest, and includes launch overhead
// and, for OpenCL and host-array CUDA applies, the copies to and from the device); with
// no apply yet, the tuned (or cached) median. FLOPs per cell count the untransformed
// kernel. The roofline needs measured device parameters: the CUDA or OpenCL probe (its
// cache, or a probe now); the cpu backend has none, so only measured numbers print.
#include <sstream>
#include <stdexcept>

#include "petsc/mat_femgpu_impl.h"
#include "petsc/petsc_errors.h"
#include "model/cost_model.h"
#include "probe/opencl_probe.h"
#ifdef FEMGPU_HAVE_CUDA
  #include "probe/device_probe.h"
#endif

namespace femgpu {

namespace {

// The probe (cache or a probe now) of the backend's device.
CachedProbe probe_of(const MatFEMGPUContext &ctx)
{
  if (ctx.device.backend->name() == "opencl") return load_or_probe_opencl_report("", false);
#ifdef FEMGPU_HAVE_CUDA
  return load_or_probe_report(ctx.device.cuda_ordinal, "", false);
#else
  throw std::logic_error("fem_gpu: no probe for the " + ctx.device.backend->name() + " backend");
#endif
}

// The probed device of the backend, when tuning did not load it already; none for cpu.
PetscErrorCode ensure_device_params(Mat A, MatFEMGPUContext *ctx)
{
  PetscFunctionBegin;
  const std::string backend = ctx->device.backend->name();
  const bool has_probe = backend == "opencl" || (backend == "cuda" && ctx->device.cuda_ordinal >= 0);
  if (ctx->device.device_params_known || !has_probe) PetscFunctionReturn(PETSC_SUCCESS);
  FEMGPU_CXX(PetscObjectComm((PetscObject)A), {
    const CachedProbe probe = probe_of(*ctx);
    ctx->device.device_params = probe.probe.params;
    ctx->device.device_params_source = probe_source(probe);
    ctx->device.device_params_known = true;
  });
  PetscFunctionReturn(PETSC_SUCCESS);
}

const char *bound_name(const std::string &bound)
{
  return bound == "global" ? "global-memory bound" : bound == "local" ? "local-memory bound" : "FP64-peak bound";
}

}  // namespace

PetscErrorCode MatFEMGPUDescribePerformance(Mat A, MatFEMGPUContext *ctx, std::string *text)
{
  Vec coords;
  PetscInt n_coordinate_values = 0;
  PetscFunctionBegin;
  double seconds = 0;
  std::ostringstream os;
  if (ctx->device.apply_count > 1) {  // the first apply builds and uploads: left out
    seconds = (ctx->device.apply_seconds - ctx->device.first_apply_seconds) / static_cast<double>(ctx->device.apply_count - 1);
    os << "performance on this rank: " << seconds << " s per apply (wall time of the backend call, mean of " << ctx->device.apply_count - 1
       << " applies after the first; includes launch overhead and host-device copies)";
  } else if (ctx->device.apply_count == 1 && ctx->tuning.median_seconds <= 0) {
    seconds = ctx->device.apply_seconds;
    os << "performance on this rank: " << seconds << " s per apply (wall time of the first backend call, with its one-time builds and uploads)";
  } else if (ctx->tuning.median_seconds > 0) {
    seconds = ctx->tuning.median_seconds;
    os << "performance on this rank: " << seconds << " s per apply (the tuned median; no MatMult timed yet)";
  } else {
    *text = "performance: no apply timed yet";
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  const double flops = ctx->op.flops_per_cell * static_cast<double>(ctx->op.maps.n_cells);
  const double measured = flops / seconds / 1e9;
  os << "; " << measured << " GFLOP/s, " << static_cast<double>(ctx->op.maps.local_size) / seconds / 1e9 << " GDoF/s\n";
  PetscCall(ensure_device_params(A, ctx));
  if (!ctx->device.device_params_known) {
    os << "roofline (Eq. 16): needs a probed device (femgpu-probe: CUDA or OpenCL); none for the " << ctx->device.backend->name() << " backend";
    *text = os.str();
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DMGetCoordinatesLocal(ctx->op.dm, &coords));
  PetscCall(VecGetLocalSize(coords, &n_coordinate_values));
  const int word_bytes = bytes_per_real(MatFEMGPURequestedPrecision(ctx->options.schedule));
  const KernelShape shape = KernelShape::from(*ctx->op.ir, ctx->op.tab->n_points(), word_bytes);
  const long long dofs = static_cast<long long>(ctx->op.maps.local_size);
  // A coefficient in its own element reads its own local vector through its own map (a
  // DG0 one: a value and a map entry per cell); one on the trial element shares u's map.
  long long inputs = dofs, coefficient_map_entries = 0;
  bool trial_map_read = false;
  for (const auto &kv : ctx->op.coefficients) {
    const bool own = !kv.second.map.empty();
    inputs += own ? static_cast<long long>(kv.second.local_size) : dofs;
    if (own) coefficient_map_entries += static_cast<long long>(kv.second.map.size());
    else trial_map_read = true;
  }
  const long long map_entries = static_cast<long long>(ctx->op.maps.free.size() + ctx->op.maps.coordinates.size() + (trial_map_read ? ctx->op.maps.all.size() : 0)) +
                                coefficient_map_entries;
  const Roofline roof = roofline(shape, ctx->op.flops_per_cell, ctx->op.maps.n_cells, inputs, dofs, n_coordinate_values, map_entries,
                                 ctx->device.device_params);
  os << "roofline (Eq. 16): " << roof.gflops << " GFLOP/s, " << bound_name(roof.bound) << " (device parameters from "
     << ctx->device.device_params_source << "); measured / roofline = " << measured / roof.gflops;
  *text = os.str();
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
