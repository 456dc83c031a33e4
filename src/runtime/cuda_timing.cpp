// Compiling candidates in parallel and timing compiled kernels with CUDA events: the
// timer the CUDA tuner, femgpu-bench's -schedule and the studies share (cuda_timing.h).
#include "runtime/cuda_timing.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <future>
#include <limits>

#include "tune/median.h"
#include "runtime/cuda_assembled.h"

namespace femgpu {

TimedCandidate time_kernel(const CudaKernel &k, const DeviceActionData &data, const TuneSettings &s, double cutoff_ms)
{
  TimedCandidate c;
  c.schedule = k.schedule();
  c.registers = k.resources().registers;
  c.local_bytes = k.resources().local_bytes;
  c.shared_bytes = k.shared_bytes();
  int warmups = s.warmups, min_runs = s.min_runs;
  double min_seconds = s.min_seconds;
  if (std::isfinite(cutoff_ms) || s.candidate_seconds > 0) {
    // The first launch loads the module's code lazily; the second is the check. Both
    // count as warm-ups.
    cuda::EventSeries check(2);
    k.launch(data);
    check.record(0);
    k.launch(data);
    check.record(1);
    check.synchronize(1);
    warmups -= 2;
    if (check.ms(0) > cutoff_ms) {
      c.cut = true;
      c.runs = 1;
      c.median_ms = c.mean_ms = check.ms(0);
      if (k.assembled()) c.setup_seconds = k.assembled()->setup_seconds();
      return c;
    }
    // A slow kernel under a budget: a few runs tell its median as well as the protocol's.
    if (s.candidate_seconds > 0 && check.ms(0) * s.min_runs > s.candidate_seconds * 1e3) {
      warmups = 0;
      min_runs = std::max(3, static_cast<int>(s.candidate_seconds * 1e3 / check.ms(0)));
      min_seconds = 0;
    }
  }
  for (int i = 0; i < warmups; ++i) k.launch(data);
  cuda::synchronize();
  // Runs are queued back to back in batches, an event between each two, behind one
  // untimed lead launch: the GPU never waits for the host inside a timed run, so a run's
  // time is its kernel's (and the GPU's gap between kernels), not the host's launch
  // latency. Timed one launch at a time, the 34 us P1 kernels read 1.5-3 us (5-9%) slower
  // than ncu's duration of the same kernel (bench/experiments/h200_p1_scpwi_gathers.txt).
  constexpr int kBatch = 16;
  cuda::EventSeries events(kBatch + 1);
  std::vector<double> ms;
  double total = 0;
  while ((static_cast<int>(ms.size()) < min_runs || total < min_seconds * 1e3) && static_cast<int>(ms.size()) < s.max_runs) {
    const int done = static_cast<int>(ms.size());
    const int batch = std::min({kBatch, done < min_runs ? min_runs - done : kBatch, s.max_runs - done});
    k.launch(data);  // the lead
    events.record(0);
    for (int i = 0; i < batch; ++i) {
      k.launch(data);
      events.record(i + 1);
    }
    events.synchronize(batch);
    for (int i = 0; i < batch; ++i) {
      ms.push_back(events.ms(i));
      total += ms.back();
    }
  }
  c.runs = static_cast<int>(ms.size());
  c.median_ms = median(ms);
  c.mean_ms = total / static_cast<double>(ms.size());
  if (k.assembled()) c.setup_seconds = k.assembled()->setup_seconds();  // built at the first launch
  return c;
}

std::vector<std::unique_ptr<CudaKernel>> compile_candidates(const ActionIR &ir, const Tabulation &tab, std::vector<TimedCandidate> &candidates,
                                                            const cuda::DeviceInfo &info, int threads)
{
  std::vector<std::unique_ptr<CudaKernel>> kernels(candidates.size());
  const size_t batch = static_cast<size_t>(std::max(1, threads));
  for (size_t start = 0; start < kernels.size(); start += batch) {
    std::vector<std::future<std::unique_ptr<CudaKernel>>> jobs;
    for (size_t i = start; i < std::min(kernels.size(), start + batch); ++i)
      jobs.push_back(std::async(std::launch::async, [&, i] {
        return std::make_unique<CudaKernel>(ir, tab, candidates[i].schedule, info.arch(), info.shared_per_group_optin,
                                            info.max_threads_per_group);
      }));
    for (size_t i = start; i < std::min(kernels.size(), start + batch); ++i) {
      try {
        kernels[i] = jobs[i - start].get();
      } catch (const std::exception &e) {
        candidates[i].error = e.what();
      }
    }
  }
  return kernels;
}

int time_compiled_candidates(std::vector<TimedCandidate> &candidates, std::vector<std::unique_ptr<CudaKernel>> &kernels,
                             const DeviceActionData &data, const TuneSettings &settings, const std::function<bool()> &stop,
                             double *fastest_ms, const char *stop_reason, const std::function<void(std::size_t)> &ready)
{
  TuneReport report;
  report.candidates.swap(candidates);
  const bool cutting = fastest_ms != nullptr && settings.cutoff > 0;
  auto time = [&](size_t i) {
    if (ready) ready(i);
    if (!kernels[i]) throw std::runtime_error("not compiled");
    kernels[i]->load();
    const double cutoff_ms = cutting ? settings.cutoff * *fastest_ms : std::numeric_limits<double>::infinity();
    TimedCandidate c = time_kernel(*kernels[i], data, settings, cutoff_ms);
    if (fastest_ms != nullptr && !c.cut) *fastest_ms = std::min(*fastest_ms, c.median_ms);
    return c;
  };
  auto out_of_memory = [](const std::exception &e) { return dynamic_cast<const cuda::DeviceOutOfMemory *>(&e) != nullptr; };
  time_candidates(&report, time, settings, out_of_memory, stop, stop_reason);
  candidates.swap(report.candidates);
  return report.best;
}

}  // namespace femgpu
