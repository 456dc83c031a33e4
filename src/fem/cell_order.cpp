// Cells along a Z-order curve of their centroids (cell_order.h).
#include "fem/cell_order.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

namespace femgpu {

namespace {

constexpr int kBits = 20;  // per coordinate: 60 bits of key in 3D

// x's low kBits bits spread `dim` apart (bit b to bit b * dim).
std::uint64_t spread(std::uint64_t x, int dim)
{
  std::uint64_t r = 0;
  for (int b = 0; b < kBits; ++b) r |= ((x >> b) & 1u) << (b * dim);
  return r;
}

}  // namespace

std::vector<int> morton_cell_order(int dim, int n_cells, int nodes_per_cell, const double *coordinates, const int *coordinate_map)
{
  if (dim < 1 || dim > 3) throw std::invalid_argument("morton_cell_order: dim " + std::to_string(dim) + " is not 1, 2 or 3");
  if (nodes_per_cell < dim + 1)
    throw std::invalid_argument("morton_cell_order: " + std::to_string(nodes_per_cell) + " nodes a cell, fewer than a simplex's " + std::to_string(dim + 1) + " vertices");
  std::vector<double> centroid(static_cast<size_t>(n_cells) * dim, 0.0);
  std::vector<double> lo(dim, std::numeric_limits<double>::max()), hi(dim, std::numeric_limits<double>::lowest());
  for (int c = 0; c < n_cells; ++c)
    for (int d = 0; d < dim; ++d) {
      double sum = 0.0;
      for (int v = 0; v <= dim; ++v) sum += coordinates[coordinate_map[static_cast<size_t>(c) * nodes_per_cell + v] + d];
      const double x = sum / (dim + 1);
      centroid[static_cast<size_t>(c) * dim + d] = x;
      lo[d] = std::min(lo[d], x), hi[d] = std::max(hi[d], x);
    }
  std::vector<std::uint64_t> key(static_cast<size_t>(n_cells), 0);
  const double cells = static_cast<double>((1u << kBits) - 1);
  for (int c = 0; c < n_cells; ++c)
    for (int d = 0; d < dim; ++d) {
      const double extent = hi[d] - lo[d];
      const double t = extent > 0 ? (centroid[static_cast<size_t>(c) * dim + d] - lo[d]) / extent : 0.0;
      key[static_cast<size_t>(c)] |= spread(static_cast<std::uint64_t>(t * cells + 0.5), dim) << d;
    }
  std::vector<int> order(static_cast<size_t>(n_cells));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return key[static_cast<size_t>(a)] < key[static_cast<size_t>(b)]; });
  return order;
}

void permute_cell_rows(std::vector<int> *map, int width, const std::vector<int> &order)
{
  if (map->size() != order.size() * static_cast<size_t>(width))
    throw std::invalid_argument("permute_cell_rows: the map holds " + std::to_string(map->size()) + " entries, not " +
                                std::to_string(order.size()) + " cells x " + std::to_string(width));
  std::vector<int> out(map->size());
  for (size_t i = 0; i < order.size(); ++i)
    std::copy_n(map->begin() + static_cast<std::ptrdiff_t>(static_cast<size_t>(order[i]) * width), width,
                out.begin() + static_cast<std::ptrdiff_t>(i * width));
  *map = std::move(out);
}

}  // namespace femgpu
