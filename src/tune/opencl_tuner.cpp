// Build each candidate as an OpenCL backend, time it by wall clock, keep the fastest;
// then the local search (tuner.h's tile_neighbours) as on CUDA.
// No twin rounds (tuner.h): OpenCL does not report register spills.
#include "tune/opencl_tuner.h"

#include <vector>

namespace femgpu {

OpenCLTuneReport tune_opencl(const ActionIR &ir, const Tabulation &tab, const ActionArrays &arrays, std::size_t n_out, Precision precision,
                             const DeviceParams &device, const TuneSettings &settings, const std::string &share_dir)
{
  OpenCLTuneReport report;
  report.candidates = tuning_candidates(ir, tab.n_points(), device, settings, &report.space_size, &report.space_truncated);
  for (TimedCandidate &c : report.candidates) c.schedule = c.schedule.with_precision(precision);
  std::vector<std::unique_ptr<ActionBackend>> backends;
  std::vector<double> out(n_out);
  // Times `round`'s candidates, their backends appended to `backends` in the same order.
  auto time_round = [&](TuneReport &round) {
    const std::size_t first = backends.size();
    backends.resize(first + round.candidates.size());
    time_candidates(
        &round,
        [&](size_t i) {
          const Schedule &s = round.candidates[i].schedule;
          std::unique_ptr<ActionBackend> &b = backends[first + i];
          b = make_opencl_backend(ir, tab, s, share_dir);  // validates; the first apply builds
          TimedCandidate c = time_wall_clock([&] { b->apply(arrays, n_out, out.data()); }, settings);
          c.shared_bytes = shared_memory_bytes(s, ir);
          return c;
        },
        settings);
  };
  time_round(report);
  local_search(ir, tab.n_points(), device, settings, report, [&](std::vector<TimedCandidate> near) {
    TuneReport round;
    round.candidates = std::move(near);
    time_round(round);
    append_round(&report, std::move(round));
  });
  if (report.best >= 0) report.best_backend = std::move(backends[static_cast<size_t>(report.best)]);
  return report;
}

}  // namespace femgpu
