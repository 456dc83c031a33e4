// The CUDA backend: build the kernel for a schedule, compile it with NVRTC for the
// device's architecture, load it, keep tables, maps and coordinates on the device, and
// launch it on every apply.
#include <algorithm>

#include "kernel/build.h"
#include "kernel/emit.h"
#include "kernel/kernel_abi.h"
#include "runtime/cuda_backend.h"
#include "runtime/nvrtc_compile.h"

namespace femgpu {

namespace {

// Uploads `n` doubles as the kernel's real type.
void upload_reals(cuda::Buffer &b, const double *data, size_t n, Precision p)
{
  if (p == Precision::FP64) {
    b.upload(data, n * sizeof(double));
    return;
  }
  std::vector<float> f(data, data + n);
  b.upload(f.data(), n * sizeof(float));
}

size_t map_extent(const int *map, size_t entries)
{
  int top = -1;
  for (size_t i = 0; i < entries; ++i) top = std::max(top, map[i]);
  return static_cast<size_t>(top + 1);
}

}  // namespace

CudaBackend::CudaBackend(const ActionIR &ir, const Tabulation &tab, const Schedule &schedule, int device)
    : ir_(ir), tab_(tab), schedule_(schedule)
{
  info_ = cuda::open_device(device);
  // Shared memory is sized at launch (dynamic), so the device's opt-in limit applies.
  validate(schedule, ir, tab.n_points(), info_.shared_per_group_optin);
  if (threads_per_group(schedule) > info_.max_threads_per_group)
    throw std::invalid_argument("schedule " + to_string(schedule) + " has " + std::to_string(threads_per_group(schedule)) +
                                " threads per group; " + info_.name + " allows " + std::to_string(info_.max_threads_per_group));
  kernel_ = std::make_unique<kernel::Kernel>(kernel::build_kernel(ir, tab, schedule));
  source_ = kernel::emit_cuda(*kernel_);
  CompiledCubin cubin = nvrtc_compile(source_, "femgpu_action", info_.arch());
  module_ = std::make_unique<cuda::Module>(cubin.cubin, kernel_->name);
  resources_ = module_->resources();
  if (resources_.max_threads < threads_per_group(schedule))
    throw std::invalid_argument("schedule " + to_string(schedule) + " has " + std::to_string(threads_per_group(schedule)) +
                                " threads per group but the compiled kernel allows " + std::to_string(resources_.max_threads) +
                                " (" + std::to_string(resources_.registers) + " registers per thread)");
  const Precision p = schedule.precision();
  TableLayout layout = pack_tables(ir, tab);
  tables_ = cuda::Buffer(layout.data.size() * bytes_per_real(p));
  upload_reals(tables_, layout.data.data(), layout.data.size(), p);
  weights_ = cuda::Buffer(tab.rule.weights.size() * bytes_per_real(p));
  upload_reals(weights_, tab.rule.weights.data(), tab.rule.weights.size(), p);
  constants_ = cuda::Buffer(std::max<size_t>(1, ir.constants.size()) * bytes_per_real(p));
}

std::string CudaBackend::schedule() const
{
  return to_string(schedule_) + " on " + info_.name + " (" + std::to_string(resources_.registers) + " registers/thread, " +
         std::to_string(resources_.local_bytes) + " B local (spills), " + std::to_string(shared_memory_bytes(schedule_, ir_)) +
         " B shared)";
}

// Maps and coordinates go up once: the ActionBackend contract says they do not change.
void CudaBackend::upload_static(const ActionArrays &a, size_t n_out)
{
  const size_t cells = static_cast<size_t>(a.n_cells);
  auto upload_map = [&](const int *map, int function) {
    size_t entries = cells * static_cast<size_t>(function_dofs(ir_, function));
    cuda::Buffer b(std::max<size_t>(1, entries) * sizeof(int));
    b.upload(map, entries * sizeof(int));
    return b;
  };
  coordinate_map_ = upload_map(a.coordinates.map, kCoordinates);
  coordinate_count_ = map_extent(a.coordinates.map, cells * static_cast<size_t>(function_dofs(ir_, kCoordinates)));
  coordinates_ = cuda::Buffer(std::max<size_t>(1, coordinate_count_) * bytes_per_real(schedule_.precision()));
  upload_reals(coordinates_, a.coordinates.values, coordinate_count_, schedule_.precision());
  test_map_ = upload_map(a.test_map, kTrialFunction);
  maps_.clear();
  values_.clear();
  for (const KernelArg &arg : kernel_arguments(ir_)) {
    if (arg.kind != ArgKind::Map || arg.function == kCoordinates) continue;
    const FunctionArrays &f = arg.function == kTrialFunction ? a.trial : a.coefficients.at(static_cast<size_t>(arg.function - 2));
    maps_[arg.function] = upload_map(f.map, arg.function);
    values_[arg.function] = cuda::Buffer(std::max<size_t>(1, n_out) * bytes_per_real(schedule_.precision()));
  }
  out_ = cuda::Buffer(std::max<size_t>(1, n_out) * bytes_per_real(schedule_.precision()));
  static_ready_ = true;
}

void CudaBackend::apply(const ActionArrays &a, size_t n_out, double *out)
{
  const Precision p = schedule_.precision();
  if (!static_ready_) upload_static(a, n_out);
  for (auto &[function, buffer] : values_) {
    const FunctionArrays &f = function == kTrialFunction ? a.trial : a.coefficients.at(static_cast<size_t>(function - 2));
    upload_reals(buffer, f.values, n_out, p);
  }
  if (!a.constants.empty()) upload_reals(constants_, a.constants.data(), a.constants.size(), p);
  upload_reals(out_, out, n_out, p);
  launch(a.n_cells);
  if (p == Precision::FP64) {
    out_.download(out, n_out * sizeof(double));
  } else {
    std::vector<float> f(n_out);
    out_.download(f.data(), n_out * sizeof(float));
    std::copy(f.begin(), f.end(), out);
  }
}

void CudaBackend::launch(int n_cells)
{
  // Kernel arguments in kernel_abi.h order: each entry points at the argument's value.
  const std::vector<KernelArg> args = kernel_arguments(ir_);
  std::vector<unsigned long long> pointers(args.size(), 0);
  std::vector<void *> params(args.size(), nullptr);
  int cells = n_cells;
  for (size_t i = 0; i < args.size(); ++i) {
    const KernelArg &arg = args[i];
    switch (arg.kind) {
      case ArgKind::CellCount: params[i] = &cells; continue;
      case ArgKind::Values: pointers[i] = arg.function == kCoordinates ? coordinates_.device_pointer() : values_.at(arg.function).device_pointer(); break;
      case ArgKind::Map: pointers[i] = arg.function == kCoordinates ? coordinate_map_.device_pointer() : maps_.at(arg.function).device_pointer(); break;
      case ArgKind::TestMap: pointers[i] = test_map_.device_pointer(); break;
      case ArgKind::Tables: pointers[i] = tables_.device_pointer(); break;
      case ArgKind::Weights: pointers[i] = weights_.device_pointer(); break;
      case ArgKind::Constants: pointers[i] = constants_.device_pointer(); break;
      case ArgKind::Out: pointers[i] = out_.device_pointer(); break;
    }
    params[i] = &pointers[i];
  }
  const unsigned groups = static_cast<unsigned>((n_cells + kernel_->cells_per_group - 1) / kernel_->cells_per_group);
  module_->launch(groups, static_cast<unsigned>(kernel_->block_x), static_cast<unsigned>(kernel_->block_y),
                 static_cast<unsigned>(shared_memory_bytes(schedule_, ir_)), params.data());
}

double CudaBackend::time_launch_ms(int n_cells, int repetitions)
{
  cuda::EventTimer timer;
  timer.start();
  for (int r = 0; r < repetitions; ++r) launch(n_cells);
  return timer.stop_ms() / repetitions;
}

}  // namespace femgpu
