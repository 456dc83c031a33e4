// Build each candidate as an OpenCL backend, time it by wall clock, keep the fastest;
// then the same for the shared-DOF twins of the fastest (tuner.h).
#include "tune/opencl_tuner.h"

#include <vector>

namespace femgpu {

OpenCLTuneReport tune_opencl(const ActionIR &ir, const Tabulation &tab, const ActionArrays &arrays, std::size_t n_out,
                             Precision precision, const DeviceParams &device, const TuneSettings &settings,
                             const std::string &share_dir)
{
  OpenCLTuneReport report;
  report.candidates = tuning_candidates(ir, tab.n_points(), device, settings, &report.space_size, &report.space_truncated);
  for (TimedCandidate &c : report.candidates) c.schedule = c.schedule.with_precision(precision);
  std::vector<std::unique_ptr<ActionBackend>> backends;  // by candidate index over both rounds
  std::vector<double> out(n_out);
  auto time = [&](const Schedule &s, size_t slot) {
    if (backends.size() <= slot) backends.resize(slot + 1);
    backends[slot] = make_opencl_backend(ir, tab, s, share_dir);  // validates; the first apply builds
    TimedCandidate c = time_wall_clock([&] { backends[slot]->apply(arrays, n_out, out.data()); }, settings);
    c.shared_bytes = shared_memory_bytes(s, ir);
    return c;
  };
  time_candidates(&report, [&](size_t i) { return time(report.candidates[i].schedule, i); }, settings);
  TuneReport round;
  round.candidates = shared_dofs_twins(report.candidates, settings.shared_dofs_candidates);
  if (!round.candidates.empty()) {
    const size_t first = report.candidates.size();
    time_candidates(&round, [&](size_t i) { return time(round.candidates[i].schedule, first + i); }, settings);
    append_round(&report, std::move(round));
  }
  if (report.best >= 0) report.best_backend = std::move(backends[static_cast<size_t>(report.best)]);
  return report;
}

}  // namespace femgpu
