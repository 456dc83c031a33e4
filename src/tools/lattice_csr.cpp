// The assembled matrix of a lattice mesh's cell matrices (lattice_csr.h).
#include "tools/lattice_csr.h"

#include <algorithm>

namespace femgpu {

namespace {

// Row r's columns, sorted and unique: the DOFs of every cell that holds r.
void row_columns(const LatticeMesh &m, const std::vector<int> &first, const std::vector<int> &incidence, size_t r, std::vector<int> *out)
{
  const size_t w = m.map.size() / static_cast<size_t>(m.n_cells);
  out->clear();
  for (int k = first[r]; k < first[r + 1]; ++k) {
    const size_t cell = static_cast<size_t>(incidence[static_cast<size_t>(k)]) / w;
    out->insert(out->end(), m.map.begin() + static_cast<long>(cell * w), m.map.begin() + static_cast<long>((cell + 1) * w));
  }
  std::sort(out->begin(), out->end());
  out->erase(std::unique(out->begin(), out->end()), out->end());
}

}  // namespace

Csr lattice_csr(const LatticeMesh &m, const std::vector<double> &cell_matrices)
{
  const size_t n = m.n_dofs(), w = m.map.size() / static_cast<size_t>(m.n_cells);
  std::vector<int> first(n + 1, 0), incidence(m.map.size());  // the (cell, local row) entries of each DOF
  for (int d : m.map) ++first[static_cast<size_t>(d) + 1];
  for (size_t r = 0; r < n; ++r) first[r + 1] += first[r];
  std::vector<int> fill(first.begin(), first.end() - 1);
  for (size_t k = 0; k < m.map.size(); ++k) incidence[static_cast<size_t>(fill[static_cast<size_t>(m.map[k])]++)] = static_cast<int>(k);
  Csr a;
  a.rows.assign(n + 1, 0);
#pragma omp parallel
  {
    std::vector<int> cols;
#pragma omp for schedule(dynamic, 1024)
    for (size_t r = 0; r < n; ++r) row_columns(m, first, incidence, r, &cols), a.rows[r + 1] = static_cast<int>(cols.size());
  }
  for (size_t r = 0; r < n; ++r) a.rows[r + 1] += a.rows[r];
  a.columns.resize(static_cast<size_t>(a.rows[n]));
  a.values.assign(static_cast<size_t>(a.rows[n]), 0);
#pragma omp parallel
  {
    std::vector<int> cols;
#pragma omp for schedule(dynamic, 1024)
    for (size_t r = 0; r < n; ++r) {
      row_columns(m, first, incidence, r, &cols);
      int *row = a.columns.data() + a.rows[r];
      std::copy(cols.begin(), cols.end(), row);
      for (int k = first[r]; k < first[r + 1]; ++k) {
        const size_t entry = static_cast<size_t>(incidence[static_cast<size_t>(k)]), cell = entry / w, i = entry % w;
        for (size_t j = 0; j < w; ++j) {
          const int *at = std::lower_bound(row, row + cols.size(), static_cast<int>(m.map[cell * w + j]));
          a.values[static_cast<size_t>(a.rows[r] + (at - row))] += cell_matrices[(cell * w + i) * w + j];
        }
      }
    }
  }
  return a;
}

}  // namespace femgpu
