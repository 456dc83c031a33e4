// Checks a femgpu-bench kernel on its case's own mesh and operands: the action of the
// given schedule on a sample of the mesh's cells against the FP64 CPU reference of
// Algorithm 2 (reference_action.h). The sampled cells keep their rows of every map, so
// they add into the same DOFs (shared nodes included) as in the timed runs.
//
// Takes: the case, its operands (bench_case.h), the loaded kernel that was timed, how
// many cells and a seed. Returns: the cells checked and max |GPU - CPU| / max |CPU| over
// the output. Does not: tune, time or compile.
#pragma once

#include "runtime/cuda_action.h"
#include "tools/bench_case.h"

namespace femgpu {

struct BenchVerification {
  int cells = 0;
  double relative_error = 0.0;
};

BenchVerification verify_on_sample(const BenchCase &c, const BenchOperands &o, const CudaKernel &kernel, int max_cells, unsigned seed);

}  // namespace femgpu
