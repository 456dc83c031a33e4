// Build each candidate as an OpenCL backend, time it by wall clock, keep the fastest.
// No shared-DOF round (tuner.h): OpenCL does not report register spills.
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
  std::vector<std::unique_ptr<ActionBackend>> backends(report.candidates.size());
  std::vector<double> out(n_out);
  auto time = [&](size_t i) {
    const Schedule &s = report.candidates[i].schedule;
    backends[i] = make_opencl_backend(ir, tab, s, share_dir);  // validates; the first apply builds
    TimedCandidate c = time_wall_clock([&] { backends[i]->apply(arrays, n_out, out.data()); }, settings);
    c.shared_bytes = shared_memory_bytes(s, ir);
    return c;
  };
  time_candidates(&report, time, settings);
  if (report.best >= 0) report.best_backend = std::move(backends[static_cast<size_t>(report.best)]);
  return report;
}

}  // namespace femgpu
