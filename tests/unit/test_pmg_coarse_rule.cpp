// -pc_fem_gpu_pmg_coarse auto's rule (src/petsc/pmg/pmg_coarse_rule.h) on the levels it was
// measured on.
#include <catch2/catch.hpp>

#include "petsc/pmg/pmg_coarse_rule.h"

using femgpu::pmg_auto_chebyshev;

TEST_CASE("pmg coarse auto: the polynomial for 3D P1 levels of 10k to 262k nodes, GAMG elsewhere", "[pmg]")
{
  CHECK(pmg_auto_chebyshev(132651, 3));   // ex13 3D P2 at 843k cells: 12 -> 13 iterations
  CHECK(pmg_auto_chebyshev(19683, 3));    // 3D P4 at 1.09M unknowns
  CHECK_FALSE(pmg_auto_chebyshev(1092727, 3));  // 3D P2 at 8.7M unknowns: 13 -> 24
  CHECK_FALSE(pmg_auto_chebyshev(250000, 2));   // 2D P2 at 1M unknowns: 35-154 iterations
  CHECK_FALSE(pmg_auto_chebyshev(62500, 2));
  CHECK_FALSE(pmg_auto_chebyshev(9999, 3));     // small: GAMG's setup is cheap
  CHECK(pmg_auto_chebyshev(10000, 3));
  CHECK(pmg_auto_chebyshev(262144, 3));         // nodes^(2/3) = 4096, the bound
  CHECK_FALSE(pmg_auto_chebyshev(262145, 3));
  CHECK_FALSE(pmg_auto_chebyshev(5000, 2));
  CHECK_FALSE(pmg_auto_chebyshev(0, 3));
  CHECK_FALSE(pmg_auto_chebyshev(50000, 0));
}
