// femgpu-bench's options (femgpu_bench.cpp): which cases, how they are tuned and timed,
// what is written, and the modes that replace the normal run (-schedule, -study, -rerank).
//
// Takes: PETSc's options database. Returns: BenchArgs, or a PETSc error naming the option.
// Does not: open a device.
#pragma once

#include <petscsys.h>

#include <string>
#include <vector>

#include "tune/cost_model.h"
#include "tools/femgpu_bench_study.h"
#include "tune/tuner.h"

namespace femgpu {

// The bench's options: which cases, how they are tuned and timed, what is written.
struct BenchArgs {
  BenchOptions cases;  // operators, dimensions, degrees, mesh sizes, compile threads, monitor
  TuneSettings settings;
  std::string forced, study, json, csv, rerank_in, rerank_params;
  std::vector<double> rerank_ns{0, kModelBarrierSeconds * 1e9};
  int verify_cells = 1024;
  // The SpMV baseline's cap on cell-matrix entries (bench_spmv.h); 0: no baseline. At 1e8
  // the capped matrices are still 0.19-1.1 GB, 4-22x the H100's and H200's 50 MB L2 (3D P1
  // the smallest: 15.7 million nonzeros, 2D P8 the largest: 94 million), so SpMV streams
  // them from DRAM; 4e8, the cap before, spent about 4x the host time per case on assembly.
  // Curves that compare on the case's own mesh raise it (bench/curves/README.md).
  double spmv_max_cell_entries = 1e8;
  std::string commit;  // -commit, default $FEMGPU_COMMIT: the build the rows come from
};

PetscErrorCode read_bench_options(BenchArgs *a);

}  // namespace femgpu
