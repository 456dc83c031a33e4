// The results of femgpu-bench -study: per case, the plan, every timed candidate and
// the study values derived from them; the paper-shaped tables and the JSON record.
//
// Takes: StudyCase values filled by femgpu_bench_study.cpp.
// Returns: text (tables, one-line case summaries) and JSON; a case that did not finish
// (-study_max_seconds) appears in the JSON but not in the tables.
// Does not: time or compile anything.
#pragma once

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "tools/bench_case.h"
#include "tools/femgpu_bench_study.h"
#include "runtime/cuda_tuner.h"
#include "tools/studies.h"

namespace femgpu {

struct StudyCase {
  std::string op;
  int dim = 2, degree = 1, Q = 0, cells = 0;
  std::set<std::string> studies;
  std::unique_ptr<BenchCase> lowered;
  StudyPlan plan;
  std::vector<TimedCandidate> timed;  // plan.unique(), in order
  double compile_wait_seconds = 0, timing_seconds = 0;
  bool ran = false, complete = false;
};

std::string join(const std::set<std::string> &names);

// Derived values (NaN when the study was not run or nothing ran).
double case_rho(const StudyCase &c, int *used = nullptr);  // Table 6
double case_topk(const StudyCase &c, std::size_t k);       // Table 7: Q~_k
double case_ablation(const StudyCase &c, std::size_t row, std::size_t b);     // Table 5: P_Theta' / P_Theta
double case_sensitivity(const StudyCase &c, std::size_t row, std::size_t b);  // Table 8: P(h) / P(h*)

std::string case_summary(const StudyCase &c);
std::string study_tables(const std::vector<StudyCase> &cases, int b);
std::string study_json(const std::vector<StudyCase> &cases, const std::string &device, const BenchOptions &options, int warmups, int runs);

}  // namespace femgpu
