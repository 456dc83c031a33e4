#include "reference/reference_transfer.h"

#include <cstddef>

namespace femgpu {

void reference_transfer(const TransferArrays &a, TransferDirection direction, const double *in, double *out)
{
  const int C = a.shape.components, nr = a.shape.row_basis, nc = a.shape.col_basis;
  const bool forward = direction == TransferDirection::Forward;
  for (int cell = 0; cell < a.n_cells; ++cell) {
    const int *rows = a.row_map + static_cast<size_t>(cell) * nr * C;
    const int *cols = a.col_map + static_cast<size_t>(cell) * nc * C;
    for (int c = 0; c < C; ++c)
      for (int i = 0; i < nr; ++i) {
        const int r = rows[i * C + c];
        if (r < 0) continue;
        for (int j = 0; j < nc; ++j) {
          const int s = cols[j * C + c];
          if (s < 0) continue;
          const double t = a.table[static_cast<size_t>(i) * nc + j] * a.row_weight[r];
          if (forward) out[r] += t * in[s];
          else out[s] += t * in[r];
        }
      }
  }
}

}  // namespace femgpu
