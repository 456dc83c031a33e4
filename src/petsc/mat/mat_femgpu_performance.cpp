// MatView's performance lines: what one apply achieves on this rank, against its
// physical limit (physical_bound.h: minimal DRAM bytes or flops at the probed device's
// bandwidth and peak) and, as a comparison, the roofline of the paper's Eq. 16
// (cost_model.h's roofline(), a model that a kernel can exceed).
//
// Time per apply: the wall time of the backend's call accumulated by MatFEMGPUApply
// (the GPU backends wait for the kernel, so it is honest, and includes launch overhead
// and, for OpenCL and host-array CUDA applies, the copies to and from the device); with
// no apply yet, the tuned (or cached) median. FLOPs per cell count the untransformed
// kernel. The roofline needs measured device parameters: the CUDA or OpenCL probe (its
// cache, or a probe now); the cpu backend has none, so only measured numbers print.
#include <sstream>
#include <stdexcept>

#include "petsc/base/petsc_errors.h"
#include "petsc/mat/mat_context.h"
#include "petsc/mat/mat_femgpu_performance.h"
#include "tune/cost_model.h"
#include "tune/physical_bound.h"
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

// The seconds of one apply as MatView reports them, said in `os`; 0 when none was timed.
double apply_seconds(const MatFEMGPUContext &ctx, std::ostringstream &os)
{
  const DeviceState &d = ctx.device;
  if (d.apply_count > 1) {  // the first apply builds and uploads: left out
    const double seconds = (d.apply_seconds - d.first_apply_seconds) / static_cast<double>(d.apply_count - 1);
    os << "performance on this rank: " << seconds << " s per apply (wall time of the backend call, mean of " << d.apply_count - 1
       << " applies after the first; includes launch overhead and host-device copies)";
    return seconds;
  }
  if (d.apply_count == 1 && ctx.tuning.median_seconds <= 0) {
    os << "performance on this rank: " << d.apply_seconds << " s per apply (wall time of the first backend call, with its one-time builds and uploads)";
    return d.apply_seconds;
  }
  if (ctx.tuning.median_seconds > 0) {
    os << "performance on this rank: " << ctx.tuning.median_seconds << " s per apply (the tuned median; no MatMult timed yet)";
    return ctx.tuning.median_seconds;
  }
  return 0;
}

// What one apply on this rank reads and writes at least (physical_bound.h): x and y, each
// coefficient (its own local vector through its own map, or a vector on u's map), the
// maps and the coordinates.
OperatorTraffic operator_traffic(const MatFEMGPUContext &ctx, long long coordinate_values, int value_bytes)
{
  OperatorTraffic t;
  t.dofs_in = t.dofs_out = static_cast<long long>(ctx.op.maps().local_size);
  t.value_bytes = value_bytes;
  bool trial_map_read = false;
  t.map_entries = static_cast<long long>(ctx.op.maps().free.size());
  for (const auto &kv : ctx.op.coefficients) {
    const bool own = !kv.second.map.empty();
    t.coefficient_dofs += own ? static_cast<long long>(kv.second.local_size) : t.dofs_in;
    if (own) t.map_entries += static_cast<long long>(kv.second.map.size());
    else trial_map_read = true;
  }
  if (trial_map_read) t.map_entries += static_cast<long long>(ctx.op.maps().all.size());
  t.coordinate_values = coordinate_values;
  t.coordinate_map_entries = static_cast<long long>(ctx.op.maps().coordinates->size());
  return t;
}

}  // namespace

PetscErrorCode MatFEMGPUDescribePerformance(Mat A, MatFEMGPUContext *ctx, std::string *text)
{
  Vec coords;
  PetscInt n_coordinate_values = 0;
  std::ostringstream os;
  PetscFunctionBegin;
  const double seconds = apply_seconds(*ctx, os);
  if (seconds <= 0) {
    *text = "performance: no apply timed yet";
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  const long long nonzeros = ctx->device.backend->assembled_nonzeros();  // the assembled operator's SpMV, or none
  const bool assembled = nonzeros >= 0;
  const double flops = assembled ? 2.0 * static_cast<double>(nonzeros) : ctx->op.flops_per_cell * static_cast<double>(ctx->op.maps().n_cells);
  const double measured = flops / seconds / 1e9;
  os << "; " << measured << " GFLOP/s, " << static_cast<double>(ctx->op.maps().local_size) / seconds / 1e9 << " GDoF/s\n";
  PetscCall(ensure_device_params(A, ctx));
  if (!ctx->device.device_params_known) {
    os << "physical limit and roofline (Eq. 16): need a probed device (femgpu-probe: CUDA or OpenCL); none for the " << ctx->device.backend->name()
       << " backend";
    *text = os.str();
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DMGetCoordinatesLocal(ctx->op.dm, &coords));
  PetscCall(VecGetLocalSize(coords, &n_coordinate_values));
  const int word_bytes = bytes_per_real(MatFEMGPURequestedPrecision(ctx->options.schedule));
  const long long n = static_cast<long long>(ctx->op.maps().local_size);
  const OperatorTraffic traffic = assembled ? assembled_traffic(n, n, nonzeros) : operator_traffic(*ctx, n_coordinate_values, word_bytes);
  const bool tensor_cores = ctx->device.backend->schedule().rfind("mma", 0) == 0;
  const PhysicalBound phys = physical_bound(traffic, flops, tensor_cores, probed_limits(ctx->device.device_params, ctx->device.device_params_source));
  os << "physical limit: " << phys.seconds << " s per apply, " << (std::string(phys.bound) == "dram" ? "DRAM" : "FP64") << " bound (" << phys.bytes
     << " bytes at least, " << phys.flops << " flops; DRAM read bandwidth and FP64 peak from " << ctx->device.device_params_source
     << "); physical / measured time = " << phys.seconds / seconds << "\n";
  if (assembled) {
    os << "roofline (Eq. 16, the paper's model): none; it models action kernels, not the assembled operator's SpMV";
    *text = os.str();
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  const KernelShape shape = KernelShape::from(*ctx->op.ir, ctx->op.tab->n_points(), word_bytes);
  const Roofline roof = roofline(shape, ctx->op.flops_per_cell, ctx->op.maps().n_cells, traffic.dofs_in + traffic.coefficient_dofs, traffic.dofs_out,
                                 n_coordinate_values, traffic.map_entries + traffic.coordinate_map_entries, ctx->device.device_params);
  os << "roofline (Eq. 16, the paper's model; it can be exceeded): " << roof.gflops << " GFLOP/s, " << bound_name(roof.bound)
     << " (device parameters from " << ctx->device.device_params_source << "); measured / roofline = " << measured / roof.gflops;
  *text = os.str();
  PetscFunctionReturn(PETSC_SUCCESS);
}

}  // namespace femgpu
