// The assembled operator's layout (Strategy::Assembled, schedule.h): the cell matrices of
// a bilinear form summed into a sliced ELLPACK matrix, the sparse format the assembled
// kernel (kernel/sliced_spmv.h) reads.
//
// Sliced ELLPACK: the rows in slices of kSliceRows (a warp); each slice is as wide as its
// longest row, its shorter rows padded with column 0 and value 0, and its entries are
// stored column after column (entry j of the slice's row r at start + j * kSliceRows + r),
// so the 32 threads of a warp, one per row, read 32 consecutive values and columns at each
// step. On a simplex mesh the rows of a slice differ by a few entries (boundary rows),
// so the padding is small, and no row pointer is read per row.
//
// Takes: the cell-to-DOF maps of the test and trial functions (n_cells x width, fem's
// ActionArrays convention: negative entries are constrained DOFs, which receive and
// give nothing) and the number of rows (the output's length).
// Returns: the slices, their columns, and where each stored entry's value comes from:
// jmap/perm in the layout of PETSc's COO assembly (entry s is the sum of the cell-matrix
// entries perm[jmap[s]] ... perm[jmap[s+1]-1], each an index cell * width^2 + i * width +
// j into the cell matrices), which runtime/entry_sum.h sums on the device.
// Also: estimate_nonzeros (a sample of rows, before building anything), and the host sum
// and product that the tests check the layout with.
// Does not: compute cell matrices or touch a device.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace femgpu {

struct SlicedPattern {
  static constexpr int kSliceRows = 32;
  std::size_t n_rows = 0;
  long long nonzeros = 0;                 // distinct (row, column) pairs, padding left out
  std::vector<long long> slice_start;     // n_slices + 1 entry offsets
  std::vector<int> columns;               // one per stored entry (padding: 0)
  std::vector<std::int64_t> jmap, perm;   // the cell-matrix entries summed into each stored entry
  std::size_t stored() const { return columns.size(); }
};

// Builds the pattern; width: DOFs per cell of both maps (the cell matrices are width x
// width, test rows and trial columns); threads: how many build it (0: the host's cores;
// any number gives the same pattern). Throws std::invalid_argument for a map entry at or
// above n_rows (test) or n_columns (trial).
SlicedPattern sliced_pattern(int n_cells, int width, const int *test_map, const int *trial_map, std::size_t n_rows, std::size_t n_columns,
                             int threads = 0);

// The nonzeros of sliced_pattern's matrix, estimated from up to `samples` rows spread
// evenly over the rows (their distinct columns counted exactly), in time linear in the
// map's length: whether the assembled operator can win is decided before building it.
double estimate_nonzeros(int n_cells, int width, const int *test_map, const int *trial_map, std::size_t n_rows, int samples = 2048);

// The stored values: each entry the sum of its cell-matrix entries (host; the tests'
// reference for the device sum).
std::vector<double> sum_cell_matrices(const SlicedPattern &p, const double *cell_matrices);
// y += A x on the host, A the pattern with `values` (sum_cell_matrices' layout).
void sliced_multiply_add(const SlicedPattern &p, const std::vector<double> &values, const double *x, double *y);

}  // namespace femgpu
