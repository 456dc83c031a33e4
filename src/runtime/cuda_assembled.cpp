// The assembled operator on the device (cuda_assembled.h).
#include "runtime/cuda_assembled.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "fem/sliced_pattern.h"
#include "runtime/cuda_action.h"
#include "runtime/entry_sum.h"
#include "schedule/schedule.h"

namespace femgpu {

namespace {

// The trial function's map: its own, or the test map where the arrays share it.
const int *trial_map_of(const ActionArrays &a) { return a.trial.map ? a.trial.map : a.test_map; }

template <class T> cuda::Buffer uploaded(const std::vector<T> &v)
{
  cuda::Buffer b(std::max<std::size_t>(1, v.size()) * sizeof(T));
  if (!v.empty()) b.upload(v.data(), v.size() * sizeof(T));
  return b;
}

std::string gigabytes(double bytes)
{
  char s[32];
  std::snprintf(s, sizeof s, "%.2f GB", bytes / 1e9);
  return s;
}

}  // namespace

CudaAssembledMatrix::CudaAssembledMatrix(const ActionIR &ir, const Tabulation &tab, const ActionArrays &arrays, std::size_t n_rows,
                                         const std::string &arch)
    : ir_(ir), tab_(tab), arch_(arch), n_cells_(arrays.n_cells), n_rows_(n_rows), test_map_(arrays.test_map),
      trial_map_(trial_map_of(arrays)), coordinate_map_(arrays.coordinates.map), coordinates_(arrays.coordinates.values)
{
  const auto t0 = std::chrono::steady_clock::now();
  if (n_rows > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw std::runtime_error("assembled operator: " + std::to_string(n_rows) + " rows; the SpMV indexes at most 2^31 - 1");
  // Before the host builds the pattern (seconds per 1e8 entries): the cell-matrix
  // kernel's index, and the device memory of the cell matrices alone (8 bytes an entry;
  // with the pattern and summation map, the whole need is checked below).
  require_cell_matrix_index(ir, n_cells_);
  const int w = cell_width(ir);
  const double cell_entries = static_cast<double>(n_cells_) * w * w;
  if (8.0 * cell_entries > 0.9 * static_cast<double>(cuda::free_memory()))
    throw std::runtime_error("assembled operator: its cell matrices alone need " + gigabytes(8.0 * cell_entries) + "; the device has " +
                             gigabytes(static_cast<double>(cuda::free_memory())) + " free");
  SlicedPattern p = sliced_pattern(n_cells_, w, test_map_, trial_map_, n_rows, n_rows);
  nonzeros_ = p.nonzeros;
  stored_ = p.stored();
  perm_entries_ = p.perm.size();
  // What assembly holds at once: the pattern, the values, the summation map (kept for
  // reassembly) and, while summing, every cell's matrix.
  const double need = 8.0 * static_cast<double>(p.slice_start.size()) + 20.0 * static_cast<double>(stored_) + 8.0 +
                      8.0 * static_cast<double>(p.perm.size()) + 8.0 * cell_entries;
  const double free = static_cast<double>(cuda::free_memory());
  if (need > 0.9 * free)
    throw std::runtime_error("assembled operator: its matrix (" + std::to_string(nonzeros_) + " nonzeros), summation map and cell matrices need " +
                             gigabytes(need) + "; the device has " + gigabytes(free) + " free");
  slice_start_ = uploaded(p.slice_start);
  columns_ = uploaded(p.columns);
  sum_ = make_cuda_entry_sum(p.jmap.data(), stored_, p.perm.data(), cuda::current_device());
  matrix_kernel_ = std::make_unique<CudaDiagonalKernel>(ir, tab, arch, true);
  matrix_kernel_->load();
  assemble(arrays);
  setup_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

CudaAssembledMatrix::~CudaAssembledMatrix() = default;

bool CudaAssembledMatrix::built_for(const ActionArrays &a, std::size_t n_rows) const
{
  return a.n_cells == n_cells_ && n_rows == n_rows_ && a.test_map == test_map_ && trial_map_of(a) == trial_map_ &&
         a.coordinates.map == coordinate_map_ && a.coordinates.values == coordinates_;
}

void CudaAssembledMatrix::reassemble(const ActionArrays &arrays)
{
  if (!built_for(arrays, n_rows_)) throw std::logic_error("CudaAssembledMatrix::reassemble: other maps or coordinates than it was built for");
  assemble(arrays);
}

// The cell matrices into a buffer of their own (FP64, the kernel's own device data, as
// MatConvert's), then each stored entry the sum of its cell entries in perm's order.
void CudaAssembledMatrix::assemble(const ActionArrays &given)
{
  if (n_cells_ == 0) return;
  ActionArrays a = given;
  a.trial.values = nullptr;  // the cell-matrix kernel reads no trial values
  a.trial.map = trial_map_;
  const int w = cell_width(ir_);
  const std::size_t entries = static_cast<std::size_t>(n_cells_) * static_cast<std::size_t>(w * w);
  {
    DeviceActionData data(ir_, tab_, a, map_extent(a.test_map, static_cast<std::size_t>(n_cells_) * static_cast<std::size_t>(w)), Precision::FP64);
    cuda::Buffer cells(entries * sizeof(double));
    data.use_device_arrays(0, {}, cells.device_pointer());
    matrix_kernel_->launch(data);
    values_ = sum_->sum(cells.device_pointer());  // complete when it returns, before `cells` is freed
  }
  constants_ = given.constants;
}

void CudaAssembledMatrix::multiply_add(const cuda::Module &spmv, unsigned long long x, unsigned long long y) const
{
  if (n_rows_ == 0) return;
  int n = static_cast<int>(n_rows_);
  unsigned long long pointers[5] = {slice_start_.device_pointer(), columns_.device_pointer(), values_, x, y};
  void *params[6] = {&n, &pointers[0], &pointers[1], &pointers[2], &pointers[3], &pointers[4]};
  const std::size_t groups = (n_rows_ + kAssembledThreadsPerGroup - 1) / kAssembledThreadsPerGroup;
  spmv.launch(static_cast<unsigned>(groups), kAssembledThreadsPerGroup, 1, 0, params);
}

std::size_t CudaAssembledMatrix::device_bytes() const
{
  // The sum's jmap and perm (8 bytes an entry each) and its values are on the device too.
  return slice_start_.size() + columns_.size() + 8 * (2 * stored_ + 1 + perm_entries_);
}

}  // namespace femgpu
