// The sliced ELLPACK layout of an assembled operator (sliced_pattern.h).
#include "fem/sliced_pattern.h"

#include <algorithm>
#include <exception>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

namespace femgpu {

namespace {

// For each row, the cell-local test positions (cell * width + i) whose map entry is that
// row: rows[row_begin[r] .. row_begin[r+1]) (a transposed test map).
struct RowIncidence {
  std::vector<std::int64_t> row_begin, positions;
};

RowIncidence row_incidence(int n_cells, int width, const int *test_map, std::size_t n_rows)
{
  RowIncidence inc;
  inc.row_begin.assign(n_rows + 1, 0);
  const std::int64_t n = static_cast<std::int64_t>(n_cells) * width;
  for (std::int64_t k = 0; k < n; ++k) {
    const int r = test_map[k];
    if (r < 0) continue;
    if (static_cast<std::size_t>(r) >= n_rows)
      throw std::invalid_argument("assembled operator: the test map's entry " + std::to_string(r) + " (cell " + std::to_string(k / width) +
                                  ") is outside the " + std::to_string(n_rows) + " rows");
    ++inc.row_begin[static_cast<std::size_t>(r) + 1];
  }
  for (std::size_t r = 0; r < n_rows; ++r) inc.row_begin[r + 1] += inc.row_begin[r];
  inc.positions.resize(static_cast<std::size_t>(inc.row_begin[n_rows]));
  std::vector<std::int64_t> next(inc.row_begin.begin(), inc.row_begin.end() - 1);
  for (std::int64_t k = 0; k < n; ++k)
    if (test_map[k] >= 0) inc.positions[static_cast<std::size_t>(next[static_cast<std::size_t>(test_map[k])]++)] = k;
  return inc;
}

// One row's (column, cell-matrix entry) pairs, sorted by column then entry.
void row_pairs(const RowIncidence &inc, std::size_t r, int width, const int *trial_map, std::size_t n_columns,
               std::vector<std::pair<int, std::int64_t>> *pairs)
{
  pairs->clear();
  for (std::int64_t at = inc.row_begin[r]; at < inc.row_begin[r + 1]; ++at) {
    const std::int64_t k = inc.positions[static_cast<std::size_t>(at)];  // cell * width + i
    const std::int64_t cell = k / width, i = k % width;
    const std::int64_t base = (cell * width + i) * width;  // cell * width^2 + i * width
    for (int j = 0; j < width; ++j) {
      const int c = trial_map[cell * width + j];
      if (c < 0) continue;
      if (static_cast<std::size_t>(c) >= n_columns)
        throw std::invalid_argument("assembled operator: the trial map's entry " + std::to_string(c) + " (cell " + std::to_string(cell) +
                                    ") is outside the " + std::to_string(n_columns) + " columns");
      pairs->emplace_back(c, base + j);
    }
  }
  std::sort(pairs->begin(), pairs->end());
}

// Where each distinct column of sorted pairs starts, and the end: size distinct + 1.
void column_starts(const std::vector<std::pair<int, std::int64_t>> &pairs, std::vector<std::size_t> *starts)
{
  starts->clear();
  for (std::size_t k = 0; k < pairs.size(); ++k)
    if (k == 0 || pairs[k].first != pairs[k - 1].first) starts->push_back(k);
  starts->push_back(pairs.size());
}

// A run of slices' rows: their (column, entry) pairs sorted and the distinct columns'
// starts, one lane of a slice at a time.
struct SliceRows {
  std::vector<std::vector<std::pair<int, std::int64_t>>> pairs{SlicedPattern::kSliceRows};
  std::vector<std::vector<std::size_t>> starts{SlicedPattern::kSliceRows};
  // Slice s's rows; returns its width (its longest row's distinct columns).
  std::size_t load(const RowIncidence &inc, std::size_t s, std::size_t n_rows, int width, const int *trial_map, std::size_t n_columns)
  {
    std::size_t slice_width = 0;
    for (int lane = 0; lane < SlicedPattern::kSliceRows; ++lane) {
      const std::size_t r = s * SlicedPattern::kSliceRows + static_cast<std::size_t>(lane);
      pairs[lane].clear();
      if (r < n_rows) row_pairs(inc, r, width, trial_map, n_columns, &pairs[lane]);
      column_starts(pairs[lane], &starts[lane]);
      slice_width = std::max(slice_width, starts[lane].size() - 1);
    }
    return slice_width;
  }
  // The loaded slice's cell-matrix entries and nonzeros.
  void count(std::int64_t *entries, std::int64_t *nonzeros) const
  {
    *entries = *nonzeros = 0;
    for (int lane = 0; lane < SlicedPattern::kSliceRows; ++lane) {
      *entries += static_cast<std::int64_t>(pairs[lane].size());
      *nonzeros += static_cast<std::int64_t>(starts[lane].size() - 1);
    }
  }
  // The loaded slice s, w wide, into p from its perm entry `at` on: entry j of lane r at
  // slice_start + j * R + r; jmap[e + 1] is where entry e's cell-matrix entries end in perm
  // (padding: an empty range).
  void write(std::size_t s, std::size_t w, std::int64_t at, SlicedPattern *p) const
  {
    std::size_t e = static_cast<std::size_t>(p->slice_start[s]);
    for (std::size_t j = 0; j < w; ++j)
      for (int lane = 0; lane < SlicedPattern::kSliceRows; ++lane, ++e) {
        const std::vector<std::size_t> &st = starts[lane];
        if (j + 1 < st.size()) {
          p->columns[e] = pairs[lane][st[j]].first;
          for (std::size_t k = st[j]; k < st[j + 1]; ++k) p->perm[static_cast<std::size_t>(at++)] = pairs[lane][k].second;
        }
        p->jmap[e + 1] = at;
      }
  }
};

// Runs body(begin, end) over `count` items on up to `threads` threads, contiguous runs.
void on_threads(std::size_t count, int threads, const std::function<void(std::size_t, std::size_t)> &body)
{
  const std::size_t n = std::max<std::size_t>(1, std::min<std::size_t>(static_cast<std::size_t>(std::max(1, threads)), count));
  if (n == 1) return body(0, count);
  std::vector<std::thread> pool;
  std::exception_ptr failed;
  std::mutex m;
  for (std::size_t t = 0; t < n; ++t)
    pool.emplace_back([&, t] {
      try {
        body(count * t / n, count * (t + 1) / n);
      } catch (...) {
        std::lock_guard<std::mutex> lock(m);
        if (!failed) failed = std::current_exception();
      }
    });
  for (std::thread &th : pool) th.join();
  if (failed) std::rethrow_exception(failed);
}

// Below this many slices one thread builds the pattern (threads cost more than they save).
constexpr std::size_t kThreadedSlices = 4096;

}  // namespace

// Two passes over the slices, each split into runs for threads: the first sizes every
// slice (its width and its cell-matrix entries), the second writes the slice at its
// offsets. The result is the same for any number of threads. The second pass sorts each
// slice's rows again rather than keeping the first pass's: kept, they would be a second
// copy of perm (8 bytes a cell-matrix entry, 8 GB at the tuner's cap of 1e9).
SlicedPattern sliced_pattern(int n_cells, int width, const int *test_map, const int *trial_map, std::size_t n_rows, std::size_t n_columns,
                             int threads)
{
  constexpr int R = SlicedPattern::kSliceRows;
  SlicedPattern p;
  p.n_rows = n_rows;
  const RowIncidence inc = row_incidence(n_cells, width, test_map, n_rows);
  const std::size_t n_slices = (n_rows + R - 1) / R;
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (n_slices < kThreadedSlices) threads = 1;
  // Pass 1: each slice's width, nonzeros and summed entries.
  std::vector<std::int64_t> slice_width(n_slices), slice_entries(n_slices), slice_nonzeros(n_slices);
  on_threads(n_slices, threads, [&](std::size_t begin, std::size_t end) {
    SliceRows rows;
    for (std::size_t s = begin; s < end; ++s) {
      slice_width[s] = static_cast<std::int64_t>(rows.load(inc, s, n_rows, width, trial_map, n_columns));
      rows.count(&slice_entries[s], &slice_nonzeros[s]);
    }
  });
  // Offsets: slice_start (stored entries) and each slice's first perm entry.
  p.slice_start.assign(n_slices + 1, 0);
  std::vector<std::int64_t> perm_start(n_slices + 1, 0);
  for (std::size_t s = 0; s < n_slices; ++s) {
    p.slice_start[s + 1] = p.slice_start[s] + slice_width[s] * R;
    perm_start[s + 1] = perm_start[s] + slice_entries[s];
    p.nonzeros += slice_nonzeros[s];
  }
  p.columns.assign(static_cast<std::size_t>(p.slice_start[n_slices]), 0);
  p.perm.resize(static_cast<std::size_t>(perm_start[n_slices]));
  p.jmap.resize(p.columns.size() + 1);
  p.jmap[0] = 0;
  // Pass 2: each slice written at its offsets.
  on_threads(n_slices, threads, [&](std::size_t begin, std::size_t end) {
    SliceRows rows;
    for (std::size_t s = begin; s < end; ++s) rows.write(s, rows.load(inc, s, n_rows, width, trial_map, n_columns), perm_start[s], &p);
  });
  return p;
}

double estimate_nonzeros(int n_cells, int width, const int *test_map, const int *trial_map, std::size_t n_rows, int samples)
{
  if (n_rows == 0 || samples <= 0) return 0;
  const RowIncidence inc = row_incidence(n_cells, width, test_map, n_rows);
  const std::size_t n = std::min(n_rows, static_cast<std::size_t>(samples));
  std::vector<std::pair<int, std::int64_t>> pairs;
  std::vector<std::size_t> starts;
  double distinct = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t r = k * n_rows / n;
    row_pairs(inc, r, width, trial_map, static_cast<std::size_t>(-1) / 2, &pairs);
    column_starts(pairs, &starts);
    distinct += static_cast<double>(starts.size() - 1);
  }
  return distinct / static_cast<double>(n) * static_cast<double>(n_rows);
}

std::vector<double> sum_cell_matrices(const SlicedPattern &p, const double *cell_matrices)
{
  std::vector<double> values(p.stored(), 0.0);
  for (std::size_t s = 0; s < p.stored(); ++s)
    for (std::int64_t k = p.jmap[s]; k < p.jmap[s + 1]; ++k) values[s] += cell_matrices[p.perm[static_cast<std::size_t>(k)]];
  return values;
}

void sliced_multiply_add(const SlicedPattern &p, const std::vector<double> &values, const double *x, double *y)
{
  constexpr int R = SlicedPattern::kSliceRows;
  for (std::size_t s = 0; s + 1 < p.slice_start.size(); ++s)
    for (int lane = 0; lane < R; ++lane) {
      const std::size_t r = s * R + static_cast<std::size_t>(lane);
      if (r >= p.n_rows) break;
      double sum = 0;
      for (long long k = p.slice_start[s] + lane; k < p.slice_start[s + 1]; k += R)
        sum += values[static_cast<std::size_t>(k)] * x[p.columns[static_cast<std::size_t>(k)]];
      y[r] += sum;
    }
}

}  // namespace femgpu
