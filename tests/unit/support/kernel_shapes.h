// Hand-written KernelShapes the cost-model and study tests check by hand.
#pragma once

#include "tune/kernel_shape.h"

namespace femgpu::test {

// Mass, P3 on triangles: Q = 12, n = n_W = 10, one table each way (the paper's Table 3, row 1).
inline KernelShape mass_p3_shape()
{
  KernelShape s;
  s.dim = 2;
  s.Q = 12;
  s.n_test = 10;
  s.n_eval = 1;
  s.n_test_tables = 1;
  s.coordinate_dofs = 6;
  s.groups.push_back({10, 1, 1, 10});
  return s;
}

}  // namespace femgpu::test
