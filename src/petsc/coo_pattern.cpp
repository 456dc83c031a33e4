// The unique, sorted COO pattern of the cell matrices (coo_pattern.h): the local indices
// that occur as rows are grouped by a counting sort over the closure maps, taken in global
// order, and each row's columns are made unique with a marker array (a sparse accumulator)
// before the few unique ones are sorted. jmap/perm are filled row by row.
#include "petsc/coo_pattern.h"

#include <algorithm>
#include <utility>

namespace femgpu {

namespace {

// Where each block's entries start in the appended cell matrices (blocks.size() + 1).
std::vector<PetscCount> entry_offsets(const std::vector<CooBlock> &blocks)
{
  std::vector<PetscCount> o(1, 0);
  for (const CooBlock &b : blocks) o.push_back(o.back() + static_cast<PetscCount>(b.n_cells) * b.width * b.width);
  return o;
}

// A "slot", one row of one cell matrix: its cell's local indices and its first entry.
struct Slot {
  const int *cell;
  PetscInt width;
  PetscCount entry;
};

// The slots of each local index (as a row), ascending: a counting sort. Entries with a
// negative local or global index are left out, as MatSetPreallocationCOO leaves them out.
struct RowSlots {
  std::vector<PetscCount> start;  // n_local + 1
  std::vector<Slot> slot;
};

PetscErrorCode row_slots(const std::vector<CooBlock> &blocks, const std::vector<PetscCount> &offset, PetscInt n_local, const PetscInt *g, RowSlots *rs)
{
  PetscFunctionBegin;
  rs->start.assign(static_cast<size_t>(n_local) + 1, 0);
  for (const CooBlock &b : blocks)
    for (PetscCount k = 0; k < static_cast<PetscCount>(b.n_cells) * b.width; ++k) {
      const int r = b.local[k];
      PetscCheck(r < n_local, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
                 "COO pattern of the cell matrices: closure map entry %d is past the local vector (%" PetscInt_FMT " entries)", r, n_local);
      if (r >= 0 && g[r] >= 0) ++rs->start[static_cast<size_t>(r) + 1];
    }
  for (PetscInt r = 0; r < n_local; ++r) rs->start[r + 1] += rs->start[r];
  rs->slot.resize(static_cast<size_t>(rs->start[n_local]));
  std::vector<PetscCount> next(rs->start.begin(), rs->start.end() - 1);
  for (size_t b = 0; b < blocks.size(); ++b) {
    const PetscInt w = blocks[b].width;
    for (PetscInt c = 0; c < blocks[b].n_cells; ++c)
      for (PetscInt i = 0; i < w; ++i) {
        const int r = blocks[b].local[c * w + i];
        if (r >= 0 && g[r] >= 0) rs->slot[next[r]++] = {blocks[b].local + c * w, w, offset[b] + (static_cast<PetscCount>(c) * w + i) * w};
      }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Per local index: the row last seen as having it as a column, its unique entry there,
// and the next free place among that entry's cell entries in perm.
struct Scratch {
  std::vector<PetscInt> mark;
  std::vector<PetscCount> pos, next;
  std::vector<std::pair<PetscInt, PetscInt>> columns;  // the current row's unique columns: (global, local)
  struct Kept {
    PetscInt column;  // local index
    PetscCount entry;
  };
  std::vector<Kept> kept;  // the current row's kept cell entries, in cell order
};

// Appends row r's unique entries, their jmap and perm, to the pattern.
void add_row(const RowSlots &rs, const PetscInt *g, PetscInt r, Scratch *s, CooPattern *p)
{
  s->columns.clear();
  s->kept.clear();
  for (PetscCount k = rs.start[r]; k < rs.start[r + 1]; ++k) {
    const Slot &sl = rs.slot[k];
    for (PetscInt j = 0; j < sl.width; ++j) {
      const PetscInt c = sl.cell[j];
      if (c < 0 || g[c] < 0) continue;
      s->kept.push_back({c, sl.entry + j});
      if (s->mark[c] != r) s->mark[c] = r, s->columns.push_back({g[c], c});
    }
  }
  std::sort(s->columns.begin(), s->columns.end());  // by global index (the local one only breaks ties)
  const PetscCount base = p->n_unique();
  for (size_t k = 0; k < s->columns.size(); ++k) {
    s->pos[s->columns[k].second] = base + static_cast<PetscCount>(k);
    p->rows.push_back(g[r]);
    p->cols.push_back(s->columns[k].first);
    p->jmap.push_back(0);
  }
  for (const Scratch::Kept &k : s->kept) ++p->jmap[s->pos[k.column] + 1];
  for (PetscCount u = base; u < p->n_unique(); ++u) p->jmap[u + 1] += p->jmap[u];
  for (const auto &c : s->columns) s->next[c.second] = p->jmap[s->pos[c.second]];
  for (const Scratch::Kept &k : s->kept) p->perm[s->next[k.column]++] = k.entry;
}

}  // namespace

PetscErrorCode coo_pattern_build(const std::vector<CooBlock> &blocks, PetscInt n_local, const PetscInt *global_of_local, CooPattern *pattern)
{
  RowSlots rs;
  PetscFunctionBegin;
  const std::vector<PetscCount> offset = entry_offsets(blocks);
  PetscCall(row_slots(blocks, offset, n_local, global_of_local, &rs));
  std::vector<PetscInt> order;  // the local indices that are rows, in global order
  for (PetscInt r = 0; r < n_local; ++r)
    if (rs.start[r + 1] > rs.start[r]) order.push_back(r);
  std::sort(order.begin(), order.end(), [&](PetscInt a, PetscInt b) { return global_of_local[a] < global_of_local[b]; });
  PetscCount kept = 0;  // a cell with n kept DOFs keeps n^2 entries
  for (const CooBlock &b : blocks)
    for (PetscInt c = 0; c < b.n_cells; ++c) {
      PetscCount n = 0;
      for (PetscInt j = 0; j < b.width; ++j) n += b.local[c * b.width + j] >= 0 && global_of_local[b.local[c * b.width + j]] >= 0;
      kept += n * n;
    }
  *pattern = CooPattern();
  pattern->n_entries = offset.back();
  // At most `kept` unique entries: reserved, not touched, so the arrays never move while
  // they grow (the copies and page faults of doubling were most of the time here).
  pattern->rows.reserve(static_cast<size_t>(kept));
  pattern->cols.reserve(static_cast<size_t>(kept));
  pattern->jmap.reserve(static_cast<size_t>(kept) + 1);
  pattern->jmap.assign(1, 0);
  pattern->perm.resize(static_cast<size_t>(kept));
  Scratch s;
  s.mark.assign(static_cast<size_t>(n_local), -1);
  s.pos.resize(static_cast<size_t>(n_local));
  s.next.resize(static_cast<size_t>(n_local));
  for (PetscInt r : order) add_row(rs, global_of_local, r, &s, pattern);
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
