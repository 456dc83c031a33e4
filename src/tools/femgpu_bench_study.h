// femgpu-bench -study: the paper's Tables 5-8 on the GPU (docs/studies.md).
//
// Takes: the bench's common options (operators, dimensions, degrees, mesh sizes, b,
// compile threads); reads its own -study_* options from PETSc's options database.
// Returns: the exit code; prints the tables and writes -study_json.
// Does not: change how the normal bench runs.
#pragma once

#include <string>
#include <vector>

#include "tune/cost_model.h"

namespace femgpu {

struct BenchOptions {
  std::vector<std::string> ops;
  std::vector<int> dims;
  int n2 = 1280, n3 = 56;
  int min_degree = 1, max_degree_2d = 8, max_degree_3d = 6;
  int b = 9;
  int compile_threads = 16;
  bool monitor = false;
  bool compress_points = true;  // -compress_points: tables at compressed points where exact
};

// `which`: ablation, spearman, topk, sensitivity, all, or a comma-separated list.
int run_study(const std::string &which, const BenchOptions &options);

// The cost model's DeviceParams from a probe cache JSON file, leniently: the numbers it
// has, the defaults for the rest (any format). Throws std::runtime_error when unreadable.
DeviceParams params_from_file(const std::string &path);

}  // namespace femgpu
