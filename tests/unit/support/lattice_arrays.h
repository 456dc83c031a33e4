// A bilinear form's action arrays on a lattice mesh (fem/lattice_mesh.h): the mesh's
// coordinates, the trial function's values `x` on `map` (the test map too), and the form's
// constants shifted off their defaults, so a test that forgets them fails.
#pragma once

#include <vector>

#include "fem/action_arrays.h"
#include "fem/lattice_mesh.h"
#include "ir/action_ir.h"

namespace femgpu::test {

inline ActionArrays lattice_arrays(const ActionIR &ir, const LatticeMesh &m, const std::vector<double> &x, const std::vector<int> &map)
{
  ActionArrays a;
  a.n_cells = m.n_cells;
  a.coordinates = {m.coordinates.data(), m.coordinate_map.data()};
  a.trial = {x.data(), map.data()};
  a.test_map = map.data();
  for (const ConstantInfo &k : ir.constants) a.constants.push_back(k.default_value + 0.5);
  return a;
}

}  // namespace femgpu::test
