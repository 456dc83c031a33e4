// The unique, sorted COO pattern of the cell matrices (coo_pattern.h): the local indices
// that occur as rows are grouped by a counting sort over the closure maps (runs of cells on
// threads, each run's slots after the runs' before it: a row's slots in cell order), taken
// in global order, and each row's columns are made unique with a marker array (a sparse accumulator)
// before the few unique ones are sorted. jmap/perm are filled row by row; each row's place
// in perm is known beforehand (its cells' kept entries), so runs of rows go to threads.
#include "petsc/plex/coo_pattern.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace femgpu {

namespace {

// Where each block's entries start in the appended cell matrices (blocks.size() + 1).
std::vector<PetscCount> entry_offsets(const std::vector<CooBlock> &blocks)
{
  std::vector<PetscCount> o(1, 0);
  for (const CooBlock &b : blocks) o.push_back(o.back() + static_cast<PetscCount>(b.n_cells) * b.width * b.width);
  return o;
}

// A "slot", one row of one cell matrix: its block, cell and row within the cell (8 bytes:
// a slot per kept cell-matrix row, 12M at a P1 level of 843k tetrahedra).
struct Slot {
  std::int32_t cell;
  std::uint16_t block, row;
};

// What a slot stands for: its cell's local indices, its first entry in the appended cell
// matrices, and how many of the cell's DOFs are kept (the row's kept entries).
struct Cells {
  const std::vector<CooBlock> &blocks;
  const std::vector<PetscCount> &offset;         // entry_offsets
  std::vector<std::vector<std::uint16_t>> kept;  // per block, per cell
  const int *cell(const Slot &s) const { return blocks[s.block].local + static_cast<size_t>(s.cell) * blocks[s.block].width; }
  PetscInt width(const Slot &s) const { return blocks[s.block].width; }
  PetscCount entry(const Slot &s) const
  {
    const PetscCount w = blocks[s.block].width;
    return offset[s.block] + (static_cast<PetscCount>(s.cell) * w + s.row) * w;
  }
};

// The slots of each local index (as a row), ascending: a counting sort. Entries with a
// negative local or global index are left out, as MatSetPreallocationCOO leaves them out.
struct RowSlots {
  std::vector<PetscCount> start;  // n_local + 1
  std::vector<Slot, DefaultInitAllocator<Slot>> slot;
};

// Above this many cell-matrix entries the counting sort runs on threads (OpenMP builds),
// each with its own counts of every row, as long as those fit this many counts in all.
constexpr PetscCount kThreadedEntries = PetscCount(1) << 18;
constexpr PetscCount kThreadCounts = PetscCount(1) << 24;

// The counting sort on `threads` runs of cells (the blocks' cells one after the other): each
// run counts its rows, then scatters its slots after those of the runs before it in every
// row, so a row's slots are in cell order whatever the number of threads.
PetscErrorCode row_slots(Cells *cells, PetscInt n_local, const PetscInt *g, RowSlots *rs)
{
  const std::vector<CooBlock> &blocks = cells->blocks;
  PetscFunctionBegin;
  PetscCheck(blocks.size() <= 0xffff, PETSC_COMM_SELF, PETSC_ERR_SUP, "COO pattern of the cell matrices: %zu blocks of cells (at most 65535)", blocks.size());
  std::vector<PetscCount> first_cell(1, 0);  // each block's first cell in the runs' sequence
  cells->kept.assign(blocks.size(), {});
  for (size_t b = 0; b < blocks.size(); ++b) {
    const CooBlock &blk = blocks[b];
    PetscCheck(blk.width <= 0xffff && blk.n_cells <= PETSC_MPI_INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP,
               "COO pattern of the cell matrices: %" PetscInt_FMT " cells of %" PetscInt_FMT " DOFs in one block (at most 2^31 cells of 65535)", blk.n_cells,
               blk.width);
    cells->kept[b].resize(static_cast<size_t>(blk.n_cells));
    first_cell.push_back(first_cell.back() + blk.n_cells);
  }
  int threads = 1;
#ifdef _OPENMP
  const PetscCount per_thread = std::max<PetscCount>(kThreadCounts / (static_cast<PetscCount>(n_local) + 1), 1);
  if (cells->offset.back() > kThreadedEntries) threads = static_cast<int>(std::min<PetscCount>(omp_get_max_threads(), per_thread));
#endif
  const size_t n = static_cast<size_t>(n_local);
  // Run t's cells, in order: f(block, cell).
  auto for_cells = [&](int t, auto &&f) {
    const PetscCount q0 = first_cell.back() * t / threads, q1 = first_cell.back() * (t + 1) / threads;
    for (size_t b = 0; b < blocks.size(); ++b)
      for (PetscCount q = std::max(q0, first_cell[b]); q < std::min(q1, first_cell[b + 1]); ++q) f(b, static_cast<PetscInt>(q - first_cell[b]));
  };
  std::vector<std::int32_t, DefaultInitAllocator<std::int32_t>> count(static_cast<size_t>(threads) * n);  // [run][row]
  std::vector<int> past(static_cast<size_t>(threads), -1);                                               // a map entry past the local vector
#pragma omp parallel for schedule(static, 1) num_threads(threads)
  for (int t = 0; t < threads; ++t) {
    std::int32_t *mine = count.data() + static_cast<size_t>(t) * n;
    std::fill(mine, mine + n, 0);
    for_cells(t, [&](size_t b, PetscInt c) {
      const CooBlock &blk = blocks[b];
      std::uint16_t kept = 0;
      for (PetscInt j = 0; j < blk.width; ++j) {
        const int r = blk.local[c * blk.width + j];
        if (r >= n_local) past[static_cast<size_t>(t)] = std::max(past[static_cast<size_t>(t)], r);
        else if (r >= 0 && g[r] >= 0) ++mine[r], ++kept;
      }
      cells->kept[b][static_cast<size_t>(c)] = kept;
    });
  }
  const int bad = *std::max_element(past.begin(), past.end());
  PetscCheck(bad < 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "COO pattern of the cell matrices: closure map entry %d is past the local vector (%" PetscInt_FMT " entries)", bad, n_local);
  rs->start.assign(n + 1, 0);
#pragma omp parallel for schedule(static) num_threads(threads)
  for (PetscInt r = 0; r < n_local; ++r) {  // each run's first place in the row, the row's size
    std::int32_t running = 0;
    for (int t = 0; t < threads; ++t) {
      std::int32_t &c = count[static_cast<size_t>(t) * n + static_cast<size_t>(r)];
      const std::int32_t had = c;
      c = running;
      running += had;
    }
    rs->start[static_cast<size_t>(r) + 1] = running;
  }
  for (size_t r = 0; r < n; ++r) rs->start[r + 1] += rs->start[r];
  rs->slot.resize(static_cast<size_t>(rs->start[n]));
#pragma omp parallel for schedule(static, 1) num_threads(threads)
  for (int t = 0; t < threads; ++t) {
    std::int32_t *next = count.data() + static_cast<size_t>(t) * n;
    for_cells(t, [&](size_t b, PetscInt c) {
      const int *cell = blocks[b].local + c * blocks[b].width;
      for (PetscInt i = 0; i < blocks[b].width; ++i)
        if (cell[i] >= 0 && g[cell[i]] >= 0)
          rs->slot[static_cast<size_t>(rs->start[static_cast<size_t>(cell[i])] + next[cell[i]]++)] = {static_cast<std::int32_t>(c), static_cast<std::uint16_t>(b),
                                                                                                     static_cast<std::uint16_t>(i)};
    });
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// How many slots ahead add_row asks for a cell's indices.
constexpr PetscCount kPrefetchSlots = 8;

// One thread's scratch, per local index: the row last seen as having it as a column, its
// place among the row's unique columns, and the next free place of that entry in perm.
struct Scratch {
  std::vector<PetscInt> mark;
  std::vector<PetscCount> pos, next;
  std::vector<std::pair<PetscInt, PetscInt>> columns;  // the current row's unique columns: (global, local)
  std::vector<PetscCount> count;                        // their cell entries
  struct Kept {
    PetscInt column;  // local index
    PetscCount entry;
  };
  std::vector<Kept> kept;  // the current row's kept cell entries, in cell order

  explicit Scratch(PetscInt n_local) : mark(static_cast<size_t>(n_local), -1), pos(static_cast<size_t>(n_local)), next(static_cast<size_t>(n_local)) {}
};

// The unique entries of a run of consecutive rows (one thread's), appended in order.
struct Part {
  DefaultInitVector<PetscInt> rows, cols;
  DefaultInitVector<PetscCount> jmap;  // each unique entry's first place in perm
};

// Row r's unique entries appended to `part`, its cell entries written to perm from
// `first` on (the kept entries of the rows before it).
void add_row(const Cells &cells, const RowSlots &rs, const PetscInt *g, PetscInt r, PetscCount first, Scratch *s, Part *part, int *perm)
{
  s->columns.clear();
  s->kept.clear();
  for (PetscCount k = rs.start[r]; k < rs.start[r + 1]; ++k) {
    const Slot &sl = rs.slot[k];
    // The row's cells lie anywhere in the maps (a refined mesh numbers a vertex's cells
    // far apart): their indices are asked for a few slots ahead, so the misses overlap.
    if (k + kPrefetchSlots < static_cast<PetscCount>(rs.slot.size())) __builtin_prefetch(cells.cell(rs.slot[k + kPrefetchSlots]));
    const int *cell = cells.cell(sl);
    const PetscCount entry = cells.entry(sl);
    for (PetscInt j = 0; j < cells.width(sl); ++j) {
      const PetscInt c = cell[j];
      if (c < 0 || g[c] < 0) continue;
      s->kept.push_back({c, entry + j});
      if (s->mark[c] != r) s->mark[c] = r, s->columns.push_back({g[c], c});
    }
  }
  std::sort(s->columns.begin(), s->columns.end());  // by global index (the local one only breaks ties)
  s->count.assign(s->columns.size(), 0);
  for (size_t k = 0; k < s->columns.size(); ++k) s->pos[s->columns[k].second] = static_cast<PetscCount>(k);
  for (const Scratch::Kept &k : s->kept) ++s->count[s->pos[k.column]];
  for (size_t k = 0; k < s->columns.size(); ++k) {
    part->rows.push_back(g[r]);
    part->cols.push_back(s->columns[k].first);
    part->jmap.push_back(first);
    s->next[s->columns[k].second] = first;
    first += s->count[k];
  }
  for (const Scratch::Kept &k : s->kept) perm[s->next[k.column]++] = static_cast<int>(k.entry);
}

// The parts one after the other: the pattern's rows, cols and jmap (its last entry `kept`).
// Each part is copied by a thread of its own into arrays left untouched until then (tens of
// MB at a P1 level of 843k tetrahedra, whose first touch costs as much as the copy).
void join(std::vector<Part> &parts, PetscCount kept, CooPattern *p)
{
  if (parts.size() == 1) {  // one thread: no copy
    p->rows = std::move(parts[0].rows), p->cols = std::move(parts[0].cols), p->jmap = std::move(parts[0].jmap);
    p->jmap.push_back(kept);
    return;
  }
  std::vector<size_t> at(parts.size() + 1, 0);
  for (size_t i = 0; i < parts.size(); ++i) at[i + 1] = at[i] + parts[i].rows.size();
  p->rows.resize(at.back()), p->cols.resize(at.back()), p->jmap.resize(at.back() + 1);
  const int n_parts = static_cast<int>(parts.size());
#pragma omp parallel for schedule(static, 1) num_threads(n_parts)
  for (int i = 0; i < n_parts; ++i) {
    Part &part = parts[static_cast<size_t>(i)];
    std::copy(part.rows.begin(), part.rows.end(), p->rows.begin() + static_cast<std::ptrdiff_t>(at[static_cast<size_t>(i)]));
    std::copy(part.cols.begin(), part.cols.end(), p->cols.begin() + static_cast<std::ptrdiff_t>(at[static_cast<size_t>(i)]));
    std::copy(part.jmap.begin(), part.jmap.end(), p->jmap.begin() + static_cast<std::ptrdiff_t>(at[static_cast<size_t>(i)]));
    part = Part();
  }
  p->jmap.back() = kept;
}

// Above this many rows, threads (OpenMP builds) take contiguous runs of rows; the result
// does not depend on how many.
constexpr size_t kThreadedRows = 20000;

}  // namespace

PetscErrorCode coo_pattern_build(const std::vector<CooBlock> &blocks, PetscInt n_local, const PetscInt *global_of_local, CooPattern *pattern)
{
  RowSlots rs;
  PetscFunctionBegin;
  const std::vector<PetscCount> offset = entry_offsets(blocks);
  PetscCheck(offset.back() <= static_cast<PetscCount>(INT32_MAX), PETSC_COMM_SELF, PETSC_ERR_SUP,
             "COO pattern of the cell matrices: %" PetscCount_FMT " cell-matrix entries on this process; at most 2^31 - 1 (use more processes)", offset.back());
  Cells cells{blocks, offset, {}};
  PetscCall(row_slots(&cells, n_local, global_of_local, &rs));
  std::vector<PetscInt> order;  // the local indices that are rows, in global order
  for (PetscInt r = 0; r < n_local; ++r)
    if (rs.start[r + 1] > rs.start[r]) order.push_back(r);
  std::sort(order.begin(), order.end(), [&](PetscInt a, PetscInt b) { return global_of_local[a] < global_of_local[b]; });
  std::vector<PetscCount> first(order.size() + 1, 0);  // each row's first place in perm
  for (size_t t = 0; t < order.size(); ++t) {
    first[t + 1] = first[t];
    for (PetscCount k = rs.start[order[t]]; k < rs.start[order[t] + 1]; ++k) first[t + 1] += cells.kept[rs.slot[k].block][static_cast<size_t>(rs.slot[k].cell)];
  }
  *pattern = CooPattern();
  pattern->n_entries = offset.back();
  pattern->perm.resize(static_cast<size_t>(first.back()));
  int threads = 1;
#ifdef _OPENMP
  if (order.size() > kThreadedRows) threads = omp_get_max_threads();
#endif
  std::vector<Part> parts(static_cast<size_t>(threads));
  auto run = [&](int t, int nt) {  // thread t of nt: its run of rows
    Scratch s(n_local);
    const size_t begin = order.size() * t / nt, end = order.size() * (t + 1) / nt;
    for (size_t i = begin; i < end; ++i) add_row(cells, rs, global_of_local, order[i], first[i], &s, &parts[t], pattern->perm.data());
  };
#ifdef _OPENMP
#pragma omp parallel num_threads(threads)
  run(omp_get_thread_num(), omp_get_num_threads());
#else
  run(0, 1);
#endif
  join(parts, first.back(), pattern);
  PetscFunctionReturn(PETSC_SUCCESS);
}

void coo_pattern_sum(const CooPattern &pattern, const PetscScalar *cell_values, PetscScalar *unique)
{
  const PetscCount n = pattern.n_unique();
  for (PetscCount u = 0; u < n; ++u) {
    PetscScalar s = 0;
    for (PetscCount k = pattern.jmap[u]; k < pattern.jmap[u + 1]; ++k) s += cell_values[pattern.perm[k]];
    unique[u] = s;
  }
}

}  // namespace femgpu
