// The program behind nvrtc_compile_estimates.txt: for one case of femgpu-bench, the first
// budgeted round of the CUDA plan (first list + tensor-core shapes in anytime_order), each
// candidate's unrolled size (kernel_size.h), compile estimate (compile_estimate.h) and
// NVRTC compile time on one thread (sm_90). No GPU needed.
//
// Build against a build tree (here build/, with the CUDA toolkit found), from the top folder
// (one command):
//   g++ -std=c++17 -O1 -Isrc -Iinclude -I/usr/local/cuda/include $(pkg-config --cflags petsc)
//     -I/usr/lib/x86_64-linux-gnu/openmpi/include records/tuning/nvrtc_compile_times.cpp
//     src/tools/bench_case.cpp -o build/nvrtc-compile-times build/libfemgpu_core.a
//     $(pkg-config --libs petsc) /usr/local/cuda/lib/libnvrtc.so -lOpenCL -ldl -lmpi
// Run from the build tree (it finds share/femgpu next to it):
//   build/nvrtc-compile-times OP DIM DEGREE [N=16] [STOP_AFTER_SECONDS] [probed|default] [queue]
// "probed": rank with the H200's probed parameters (h200_device_params.json), as on the device.
// "queue": compile, of the whole round, only the candidates a 10 s budget's compile queue
// starts (compile_queue.h, with every decision taken at time 0: those whose estimate plus
// 0.5 s of timing fit, and the cheapest of the first three), up to N of them; the others
// are printed with their estimate and "-" for the compile.
// Prints: case, index, schedule, size, estimate s, compile s.
#include <petscsys.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "kernel/build.h"
#include "kernel/emit.h"
#include "kernel/kernel_size.h"
#include "runtime/nvrtc_compile.h"
#include "tools/bench_case.h"
#include "tune/compile_estimate.h"
#include "tune/compile_queue.h"
#include "tune/tune_plan.h"

using namespace femgpu;

namespace {

struct FirstRoundOnly {};

double seconds_since(std::chrono::steady_clock::time_point t0) { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); }

}  // namespace

int main(int argc, char **argv)
{
  if (argc < 4) return std::fprintf(stderr, "usage: %s OP DIM DEGREE [N] [STOP_AFTER_SECONDS] [probed]\n", argv[0]), 1;
  PetscInitializeNoArguments();
  const int dim = std::atoi(argv[2]), degree = std::atoi(argv[3]);
  const std::size_t take = argc > 4 ? std::strtoul(argv[4], nullptr, 10) : 16;
  const double stop_after = argc > 5 ? std::atof(argv[5]) : 1e9;
  std::unique_ptr<BenchCase> c = lower_case(argv[1], dim, degree);
  TuneSettings s;
  s.budget_seconds = 10;  // the anytime order of a budgeted tuning
  PlanContext ctx;
  ctx.ir = &c->ir;
  ctx.Q = c->tab.n_points();
  ctx.shared_limit = 232448;  // the H200's opt-in shared memory per group
  ctx.settings = &s;
  if (argc > 6 && std::string(argv[6]) == "probed") {
    ctx.device.beta_global = 4.41e12, ctx.device.beta_local = 33.02e12, ctx.device.beta_ldg = 33.03e12;
    ctx.device.flops_peak = 33.02e12, ctx.device.sg_sat_global = 12, ctx.device.sg_sat_local = 5;
  }
  std::vector<TimedCandidate> first;
  TuneReport report;
  try {
    run_plan(settings_plan(s, default_cuda_plan(s)), ctx, &report, [&](TuneReport *, std::vector<TimedCandidate> round, bool) {
      first = std::move(round);
      throw FirstRoundOnly{};
    });
  } catch (const FirstRoundOnly &) {
  }
  const bool queued = argc > 7 && std::string(argv[7]) == "queue";
  std::vector<kernel::Kernel> kernels;
  std::vector<double> estimates;
  for (const TimedCandidate &t : first) {
    kernels.push_back(kernel::build_kernel(c->ir, c->tab, t.schedule));
    estimates.push_back(compile_estimate_seconds(kernels.back()));
  }
  CompileQueue queue(estimates, s.budget_seconds, 0.5);
  std::vector<bool> starts(first.size(), !queued);
  if (queued)
    for (std::size_t i = queue.next(0); i != CompileQueue::kNone; i = queue.next(0)) starts[i] = true;
  double total = 0;
  std::size_t compiled = 0;
  for (std::size_t i = 0; i < first.size() && (queued || i < take); ++i) {
    const kernel::Kernel &k = kernels[i];
    std::string measured = "-";
    if (starts[i] && compiled < take && total < stop_after) {
      const std::string source = kernel::emit_cuda(k);
      const auto t0 = std::chrono::steady_clock::now();
      nvrtc_compile(source, "femgpu_action", "sm_90");
      const double t = seconds_since(t0);
      total += t, ++compiled;
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.3f", t);
      measured = buf;
    }
    std::printf("%s\t%zu\t%s\t%.0f\t%.2f\t%s\n", c->name().c_str(), i, to_string(first[i].schedule).c_str(), kernel::unrolled_size(k),
                estimates[i], measured.c_str());
    std::fflush(stdout);
  }
  PetscFinalize();
  return 0;
}
