// Which solve -pc_fem_gpu_pmg_coarse auto (the default) gives the P1 level.
//
// The P1 level is assembled and solved by two GAMG cycles, or left a fem_gpu Mat and solved
// by a fixed Chebyshev/Jacobi polynomial (pmg_coarse.h). The polynomial needs no assembly
// and no GAMG setup, but its accuracy falls with the level's condition number, which grows
// as h^-2, i.e. as nodes^(2/dim) on a quasi-uniform mesh. Measured on an H100 with ex13 and
// ex17 unchanged (records/solvers/side_by_side/h100_5624b5d/ and h100_44d1903/ call I):
//   3D P2, 132k P1 nodes (nodes^(2/3) = 2.6k): SNESSolve 0.95-1.13 s with GAMG, 0.44-0.54 s
//     with the polynomial, 12 -> 13 CG iterations; ex17 3D P2 on the same level (3.3M
//     unknowns) 18 -> 20 in one record, 19 -> 28 in another, 3.2-3.7 -> 1.42 s;
//   3D P4, 20k P1 nodes (740): 0.71 -> 0.35 s;
//   3D P2, 1.09M P1 nodes (10.6k): 13 -> 24 iterations;
//   2D P2 and P4, 63k-250k P1 nodes (63k-250k): 35-154 iterations instead of 10-19.
// So the polynomial where nodes^(2/dim) is at most kMaxSpread (between the 2.6k that kept
// the iterations and the 10.6k that doubled them), and only from kMinNodes P1 nodes on:
// below that GAMG's setup takes milliseconds and solves the level more exactly. In 2D no
// level qualifies (nodes^(2/2) = nodes >= kMinNodes > kMaxSpread).
// Does not: look at the form (a coefficient's contrast also worsens the condition number;
// -pc_fem_gpu_pmg_coarse gamg chooses GAMG whatever the size).
#pragma once

#include <cmath>

namespace femgpu {

constexpr double kPMGAutoMinNodes = 10000, kPMGAutoMaxSpread = 4096;

// nodes: the P1 level's global nodes (unconstrained rows / components); dim: the mesh's.
inline bool pmg_auto_chebyshev(double nodes, int dim)
{
  // nodes^(2/dim) <= spread as nodes^2 <= spread^dim: exact in double for these integers
  return dim > 0 && nodes >= kPMGAutoMinNodes && nodes * nodes <= std::pow(kPMGAutoMaxSpread, dim);
}

}  // namespace femgpu
