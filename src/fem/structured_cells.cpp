// Structured triangles and Kuhn tetrahedra.
#include "fem/structured_cells.h"

#include <algorithm>
#include <array>

namespace femgpu {

std::vector<std::int64_t> structured_cells(int dim, const std::int64_t faces[3])
{
  using I = std::int64_t;
  const I nx = faces[0], ny = faces[1], nz = dim == 3 ? faces[2] : 1;
  auto vid = [&](I i, I j, I k) { return (k * (ny + 1) + j) * (nx + 1) + i; };
  std::vector<I> cells;
  cells.reserve(static_cast<size_t>(nx * ny * nz * (dim == 2 ? 6 : 24)));
  for (I k = 0; k < nz; ++k)
    for (I j = 0; j < ny; ++j)
      for (I i = 0; i < nx; ++i) {
        if (dim == 2) {
          I a = vid(i, j, 0), b = vid(i + 1, j, 0), c = vid(i, j + 1, 0), d = vid(i + 1, j + 1, 0);
          cells.insert(cells.end(), {a, b, d, a, d, c});  // counterclockwise
          continue;
        }
        // One tet per permutation p of the axes, walking from (i,j,k) to (i+1,j+1,k+1).
        std::array<int, 3> p{0, 1, 2};
        do {
          std::array<I, 3> at{i, j, k};
          std::array<I, 4> t;
          t[0] = vid(at[0], at[1], at[2]);
          for (int s = 0; s < 3; ++s) {
            at[static_cast<size_t>(p[static_cast<size_t>(s)])] += 1;
            t[static_cast<size_t>(s + 1)] = vid(at[0], at[1], at[2]);
          }
          // Odd permutations give the other orientation; swap to keep all alike.
          int inversions = (p[0] > p[1]) + (p[0] > p[2]) + (p[1] > p[2]);
          if (inversions % 2 == 0) std::swap(t[1], t[2]);
          cells.insert(cells.end(), t.begin(), t.end());
        } while (std::next_permutation(p.begin(), p.end()));
      }
  return cells;
}

}  // namespace femgpu
