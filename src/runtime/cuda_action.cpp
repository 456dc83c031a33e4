// Device data and compiled kernels of one action (see cuda_action.h).
#include "runtime/cuda_action.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "kernel/build.h"
#include "kernel/emit.h"
#include "kernel/kernel_abi.h"
#include "kernel/sliced_spmv.h"
#include "runtime/cuda_assembled.h"
#include "runtime/nvrtc_compile.h"
#include "runtime/setup_phases.h"
#include "tune/occupancy.h"

namespace femgpu {

namespace {

std::vector<unsigned char> as_reals(const double *data, size_t n, Precision p)
{
  std::vector<unsigned char> bytes(n * static_cast<size_t>(bytes_per_real(p)));
  if (p == Precision::FP64) std::copy_n(reinterpret_cast<const unsigned char *>(data), bytes.size(), bytes.data());
  else
    for (size_t i = 0; i < n; ++i) reinterpret_cast<float *>(bytes.data())[i] = static_cast<float>(data[i]);
  return bytes;
}

cuda::Buffer reals(const double *data, size_t n, Precision p)
{
  cuda::Buffer b(std::max<size_t>(1, n) * static_cast<size_t>(bytes_per_real(p)));
  std::vector<unsigned char> bytes = as_reals(data, n, p);
  b.upload(bytes.data(), bytes.size());
  return b;
}

// One launch of a kernel whose parameters are `args`, bound to data's buffers.
void launch_kernel(const cuda::Module &module, const kernel::Kernel &k, const std::vector<KernelArg> &args,
                   const DeviceActionData &data, unsigned shared_bytes)
{
  std::vector<unsigned long long> pointers(args.size(), 0);
  std::vector<void *> params(args.size(), nullptr);
  int cells = data.n_cells();
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].kind == ArgKind::CellCount) {
      params[i] = &cells;
      continue;
    }
    pointers[i] = data.pointer(args[i]);
    params[i] = &pointers[i];
  }
  const unsigned groups = static_cast<unsigned>((cells + k.cells_per_group - 1) / k.cells_per_group);
  if (groups == 0) return;  // no cells on this rank
  module.launch(groups, static_cast<unsigned>(k.block_x), static_cast<unsigned>(k.block_y), shared_bytes, params.data());
}

const FunctionArrays &function_arrays(const ActionArrays &a, int function)
{
  if (function == kCoordinates) return a.coordinates;
  if (function == kTrialFunction) return a.trial;
  return a.coefficients.at(static_cast<size_t>(function - 2));
}

}  // namespace

std::shared_ptr<cuda::Buffer> device_indices(const std::shared_ptr<DeviceCopies> &copies, const int *host, std::size_t n)
{
  return device_copy<cuda::Buffer>(copies, "cuda", cuda::current_device(), host, n, [&]() {
    auto b = std::make_shared<cuda::Buffer>(std::max<size_t>(1, n) * sizeof(int));
    if (n) b->upload(host, n * sizeof(int));
    return b;
  });
}

std::size_t map_extent(const int *map, std::size_t n)
{
  int last = -1;
  for (std::size_t i = 0; map && i < n; ++i) last = std::max(last, map[i]);
  return static_cast<std::size_t>(last + 1);
}

void require_cell_matrix_index(const ActionIR &ir, long long n_cells)
{
  const long long w = cell_width(ir), entries = n_cells * w * w;
  if (entries > std::numeric_limits<int>::max())
    throw std::runtime_error("cuda cell matrices: " + std::to_string(n_cells) + " cells of " + std::to_string(w * w) + " entries hold " +
                             std::to_string(entries) + "; the cell-matrix kernel indexes at most 2^31 - 1 (fewer cells per process)");
}

DeviceActionData::DeviceActionData(const ActionIR &ir, const Tabulation &tab, const ActionArrays &a, size_t n_out, Precision p,
                                   size_t out_entries)
    : ir_(ir), host_arrays_(a), precision_(p), n_out_(n_out), out_entries_(out_entries ? out_entries : n_out), n_cells_(a.n_cells)
{
  SetupPhaseScope phase(SetupPhase::DeviceData);
  const std::vector<double> tables = device_tables(ir, tab);
  tables_ = reals(tables.data(), tables.size(), p);
  weights_ = reals(tab.weights.data(), tab.weights.size(), p);
  constants_ = cuda::Buffer(std::max<size_t>(1, ir.constants.size()) * static_cast<size_t>(bytes_per_real(p)));
  const size_t cells = static_cast<size_t>(a.n_cells);
  const size_t coord_entries = cells * static_cast<size_t>(map_width(ir, kCoordinates));
  coordinate_map_ = device_indices(a.device_copies, a.coordinates.map, coord_entries);
  int top = -1;  // a coordinate map entry is a node's first component
  for (size_t i = 0; i < coord_entries; ++i) top = std::max(top, a.coordinates.map[i]);
  coordinates_ = reals(a.coordinates.values, top < 0 ? 0 : static_cast<size_t>(top + ir.dim), p);
  test_map_ = device_indices(a.device_copies, a.test_map, cells * static_cast<size_t>(function_dofs(ir, kTrialFunction)));
  for (const KernelArg &arg : kernel_arguments(ir)) {
    if (arg.kind != ArgKind::Map || arg.function == kCoordinates) continue;
    // Functions with the test map's layout share its device copy.
    const FunctionArrays &f = function_arrays(a, arg.function);
    const size_t entries = cells * static_cast<size_t>(function_dofs(ir, arg.function));
    if (f.map != a.test_map) maps_[arg.function] = device_indices(a.device_copies, f.map, entries);
    // The trial function's values are the local vector (n_out); a coefficient in its own
    // element has a vector of its own, as long as its map's largest entry + 1.
    const size_t extent = arg.function != kTrialFunction && f.map != a.test_map && f.map ? map_extent(f.map, entries) : n_out;
    extents_[arg.function] = extent;
    values_[arg.function] = cuda::Buffer(std::max<size_t>(1, extent) * static_cast<size_t>(bytes_per_real(p)));
  }
  out_ = cuda::Buffer(std::max<size_t>(1, out_entries_) * static_cast<size_t>(bytes_per_real(p)));
  if (a.trial.values || ir.rank == 1) upload_values(a);  // host values, unless the caller keeps them on the device
  else upload_constants(a);
}

void DeviceActionData::upload_values(const ActionArrays &a)
{
  for (auto &[function, buffer] : values_) {
    const double *values = function_arrays(a, function).values;
    if (!values) continue;  // null: the caller keeps them on the device (use_device_arrays)
    std::vector<unsigned char> bytes = as_reals(values, extents_.at(function), precision_);
    buffer.upload(bytes.data(), bytes.size());
  }
  upload_constants(a);
}

void DeviceActionData::upload_coefficients(const ActionArrays &a)
{
  for (auto &[function, buffer] : values_) {
    const double *values = function_arrays(a, function).values;
    if (function == kTrialFunction || !values) continue;  // null: kept on the device, or unused
    std::vector<unsigned char> bytes = as_reals(values, extents_.at(function), precision_);
    buffer.upload(bytes.data(), bytes.size());
  }
  upload_constants(a);
}

void DeviceActionData::upload_constants(const ActionArrays &a)
{
  if (constants_uploaded_ && a.constants == host_arrays_.constants) return;
  host_arrays_.constants = a.constants;
  if (!a.constants.empty()) {
    std::vector<unsigned char> bytes = as_reals(a.constants.data(), a.constants.size(), precision_);
    constants_.upload(bytes.data(), bytes.size());
  }
  constants_uploaded_ = true;
}

void DeviceActionData::upload_out(const double *out)
{
  std::vector<unsigned char> bytes = as_reals(out, out_entries_, precision_);
  out_.upload(bytes.data(), bytes.size());
}

void DeviceActionData::zero_out() { cuda::memset_zero(out_.device_pointer(), out_.size()); }

void DeviceActionData::download_out(double *out) const
{
  if (precision_ == Precision::FP64) {
    out_.download(out, out_entries_ * sizeof(double));
    return;
  }
  std::vector<float> f(out_entries_);
  out_.download(f.data(), out_entries_ * sizeof(float));
  std::copy(f.begin(), f.end(), out);
}

void DeviceActionData::use_device_arrays(unsigned long long trial, const std::vector<unsigned long long> &coefficients,
                                         unsigned long long out)
{
  // Clearing (all zero: the host path) is fine in any precision; PETSc's device arrays are FP64.
  const bool any = trial || out || std::any_of(coefficients.begin(), coefficients.end(), [](unsigned long long p) { return p != 0; });
  if (any && precision_ != Precision::FP64) throw std::invalid_argument("device-resident vectors need an FP64 schedule");
  external_values_.clear();
  if (trial) external_values_[kTrialFunction] = trial;
  for (size_t i = 0; i < coefficients.size(); ++i)
    if (coefficients[i]) external_values_[coefficient_function(static_cast<int>(i))] = coefficients[i];
  external_out_ = out;
}

unsigned long long DeviceActionData::pointer(const KernelArg &arg) const
{
  switch (arg.kind) {
    case ArgKind::Values:
      if (arg.function == kCoordinates) return coordinates_.device_pointer();
      if (auto it = external_values_.find(arg.function); it != external_values_.end()) return it->second;
      return values_.at(arg.function).device_pointer();
    case ArgKind::Map:
      if (arg.function == kCoordinates) return coordinate_map_->device_pointer();
      if (auto it = maps_.find(arg.function); it != maps_.end()) return it->second->device_pointer();
      return test_map_->device_pointer();
    case ArgKind::TestMap: return test_map_->device_pointer();
    case ArgKind::Tables: return tables_.device_pointer();
    case ArgKind::Weights: return weights_.device_pointer();
    case ArgKind::Constants: return constants_.device_pointer();
    case ArgKind::Out: return external_out_ ? external_out_ : out_.device_pointer();
    default: return 0;
  }
}

unsigned long long DeviceActionData::trial_pointer() const { return pointer(KernelArg{ArgKind::Values, kTrialFunction, "g_u"}); }

unsigned long long DeviceActionData::out_pointer() const { return pointer(KernelArg{ArgKind::Out, 0, "g_out"}); }

size_t DeviceActionData::device_bytes() const
{
  size_t total = tables_.size() + weights_.size() + constants_.size() + coordinates_.size() + coordinate_map_->size() +
                 test_map_->size() + out_.size();
  for (const auto &kv : maps_) total += kv.second->size();
  for (const auto &kv : values_) total += kv.second.size();
  return total;
}

CudaKernel::CudaKernel(const ActionIR &ir, const Tabulation &tab, const Schedule &schedule, const cuda::DeviceInfo &device)
    : CudaKernel(ir, tab, schedule, device.arch(), device.shared_per_group_optin, device.max_threads_per_group, nullptr, true)
{
  load();
}

CudaKernel::CudaKernel(const ActionIR &ir, const Tabulation &tab, const Schedule &schedule, const std::string &arch,
                       long long shared_limit, int threads_limit, std::unique_ptr<kernel::Kernel> built, bool kept)
    : ir_(ir), tab_(tab), arch_(arch), schedule_(schedule), threads_limit_(threads_limit)
{
  // Shared memory is sized at launch (dynamic), so the device's opt-in limit applies.
  validate(schedule, ir, tab.n_points(), shared_limit);
  if (schedule.strategy() == Strategy::Assembled) {
    source_ = kernel::sliced_spmv_cuda_source();
    cubin_ = kept ? compile_cubin_kept(source_, kernel::kSlicedSpmvName, arch) : nvrtc_compile(source_, kernel::kSlicedSpmvName, arch).cubin;
    return;
  }
  if (threads_per_group(schedule) > threads_limit)
    throw std::invalid_argument("schedule " + to_string(schedule) + " has " + std::to_string(threads_per_group(schedule)) +
                                " threads per group; the device allows " + std::to_string(threads_limit));
  shared_bytes_ = shared_memory_bytes(schedule, ir);
  kernel_ = built ? std::move(built) : std::make_unique<kernel::Kernel>(kernel::build_kernel(ir, tab, schedule));
  source_ = kernel::emit_cuda(*kernel_);
  cubin_ = kept ? compile_cubin_kept(source_, "femgpu_action", arch) : nvrtc_compile(source_, "femgpu_action", arch).cubin;
}

void CudaKernel::load()
{
  if (module_) return;
  SetupPhaseScope phase(SetupPhase::KernelLoad);
  module_ = std::make_unique<cuda::Module>(cubin_, kernel_ ? kernel_->name : std::string(kernel::kSlicedSpmvName));
  resources_ = module_->resources();
  if (resources_.max_threads < threads_per_group(schedule_))
    throw std::invalid_argument("schedule " + to_string(schedule_) + " has " + std::to_string(threads_per_group(schedule_)) +
                                " threads per group but the compiled kernel allows " + std::to_string(resources_.max_threads) +
                                " (" + std::to_string(resources_.registers) + " registers per thread)");
  // The driver sizes the shared memory of an SM for the most groups it might hold; a
  // kernel whose registers hold fewer leaves the rest to L1 (its table loads hit more).
  const int percent = shared_percent_for(sm_limits(cuda::device_info(cuda::current_device())), threads_per_group(schedule_),
                                         resources_.registers, shared_bytes_ + resources_.static_shared_bytes);
  if (percent > 0) module_->prefer_shared_percent(percent);
}

CudaKernel::~CudaKernel() = default;

void CudaKernel::launch_assembled(const DeviceActionData &data) const
{
  const ActionArrays &a = data.host_arrays();
  if (a.n_cells == 0) return;
  if (!assembled_ || !assembled_->built_for(a, data.n_out())) {
    assembled_.reset();  // its device memory first
    assembled_ = std::make_unique<CudaAssembledMatrix>(ir_, tab_, a, data.n_out(), arch_);
  } else if (!assembled_->holds_constants(a.constants)) {
    assembled_->reassemble(a);
  }
  assembled_->multiply_add(*module_, data.trial_pointer(), data.out_pointer());
}

void CudaKernel::launch(const DeviceActionData &data) const
{
  if (data.precision() != schedule_.precision()) throw std::invalid_argument("kernel and device data differ in precision");
  if (!module_) throw std::logic_error("CudaKernel::launch before load()");
  if (schedule_.strategy() == Strategy::Assembled) return launch_assembled(data);
  launch_kernel(*module_, *kernel_, kernel_arguments(ir_), data, static_cast<unsigned>(shared_bytes_));
}

CudaDiagonalKernel::CudaDiagonalKernel(const ActionIR &ir, const Tabulation &tab, const std::string &arch, bool cell_matrix)
    : ir_(ir), cell_matrix_(cell_matrix)
{
  SetupPhaseScope phase(SetupPhase::KernelMake);
  kernel_ = std::make_unique<kernel::Kernel>(cell_matrix ? kernel::build_cell_matrix(ir, tab) : kernel::build_diagonal(ir, tab));
  source_ = kernel::emit_cuda(*kernel_);
  cubin_ = compile_cubin_kept(source_, kernel_->name, arch);
}

void CudaDiagonalKernel::load()
{
  if (module_) return;
  SetupPhaseScope phase(SetupPhase::KernelLoad);
  module_ = std::make_unique<cuda::Module>(cubin_, kernel_->name);
}

void CudaDiagonalKernel::launch(const DeviceActionData &data) const
{
  if (data.precision() != Precision::FP64) throw std::invalid_argument("the diagonal kernel needs FP64 device data");
  if (!module_) throw std::logic_error("CudaDiagonalKernel::launch before load()");
  if (cell_matrix_) require_cell_matrix_index(ir_, data.n_cells());
  launch_kernel(*module_, *kernel_, cell_matrix_ ? cell_matrix_arguments(ir_) : diagonal_arguments(ir_), data, 0);
}

}  // namespace femgpu
