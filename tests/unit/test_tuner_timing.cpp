// Timing the candidate list (tuner.h's time_candidates) through a backend's callback: the
// fastest wins, a failure scores infinity and tuning goes on, a candidate cut by the
// cutoff says so on its monitor line and is never the best, and the cutoff (a timing
// choice) stays out of the tuning cache's key. The GPU side of the cutoff (cuda_timing's
// time_kernel) runs on the device: records/experiments/h200_retune_cutoff.txt.
#include <catch2/catch.hpp>

#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "tune/tune_plan.h"
#include "tune/tuner.h"

using namespace femgpu;

namespace {

TimedCandidate timed(double ms, int runs, bool cut)
{
  TimedCandidate c;
  c.median_ms = c.mean_ms = ms;
  c.runs = runs;
  c.cut = cut;
  return c;
}

}  // namespace

TEST_CASE("time_candidates keeps the fastest, reports cut and failed candidates, and goes on", "[tune][cutoff]")
{
  TuneReport report;
  for (int wg : {32, 64, 128, 256}) {
    TimedCandidate c;
    c.schedule = Schedule::single_cell_per_work_item(wg);
    report.candidates.push_back(c);
  }
  // 32: 5 ms in full; 64: cut after one 12 ms run; 128: the callback throws; 256: 4 ms.
  const std::vector<TimedCandidate> results{timed(5.0, 15, false), timed(12.0, 1, true), TimedCandidate{}, timed(4.0, 20, false)};
  std::vector<std::string> lines;
  TuneSettings s;
  s.cutoff = 2;
  s.monitor = [&](const std::string &line) { lines.push_back(line); };
  time_candidates(
      &report,
      [&](std::size_t i) {
        if (i == 2) throw std::runtime_error("launch failed: too many resources");
        return results[i];
      },
      s, nullptr, nullptr);
  REQUIRE(report.best == 3);
  REQUIRE(lines.size() == 4);
  CHECK(lines[0].find("5 ms (median of 15)") != std::string::npos);
  CHECK(lines[1].find("12 ms (one run, cut") != std::string::npos);
  CHECK(report.candidates[1].cut);
  CHECK(report.candidates[1].runs == 1);
  CHECK(lines[2].find("failed (launch failed: too many resources)") != std::string::npos);
  CHECK(report.candidates[2].median_ms == std::numeric_limits<double>::infinity());
  CHECK(lines[3].find("4 ms (median of 20)") != std::string::npos);
  // The callback's schedule is replaced by the list's: the monitor names each candidate.
  CHECK(lines[3].rfind("scpwi wg=256", 0) == 0);
}

TEST_CASE("the tuning cutoff is not part of the tuning cache's key", "[tune][cutoff]")
{
  TuneSettings a, b;
  b.cutoff = 2;
  CHECK(tuning_settings_text(a) == tuning_settings_text(b));
  b.plan = parse_tune_plan("first; tensor_core n=7");  // a setting that changes the list is
  CHECK(tuning_settings_text(a) != tuning_settings_text(b));
}
