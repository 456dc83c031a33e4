// The budgeted compile queue (compile_queue.h) replayed on fake compile times: which
// candidates start and when their compiles end, against the fixed batches the CUDA tuner
// used before (a batch of compile_threads takes its slowest compile, and the first batch
// always runs); and its worker threads (compile_workers.h) on short sleeps.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <queue>
#include <thread>

#include "tune/compile_queue.h"
#include "tune/compile_workers.h"

using namespace femgpu;

namespace {

struct Replay {
  std::vector<bool> compiled;
  double last_end = 0;  // when the last compile ended
};

// Discrete events: `threads` workers ask the queue at the times they become free; a
// compile's measured time reaches the queue when it ends.
Replay replay_queue(CompileQueue queue, const std::vector<double> &actual, int threads)
{
  Replay r;
  r.compiled.assign(actual.size(), false);
  using End = std::pair<double, std::size_t>;  // end time, candidate
  std::priority_queue<End, std::vector<End>, std::greater<>> running;
  std::priority_queue<double, std::vector<double>, std::greater<>> free_at;
  for (int t = 0; t < threads; ++t) free_at.push(0);
  while (!free_at.empty()) {
    const double now = free_at.top();
    free_at.pop();
    while (!running.empty() && running.top().first <= now) {
      queue.finished(running.top().second, actual[running.top().second]);
      running.pop();
    }
    const std::size_t i = queue.next(now);
    if (i == CompileQueue::kNone) continue;  // this worker is done
    r.compiled[i] = true;
    r.last_end = std::max(r.last_end, now + actual[i]);
    running.push({now + actual[i], i});
    free_at.push(now + actual[i]);
  }
  return r;
}

// The earlier fixed batches: the next batch starts only if the last one's time fits.
Replay replay_batches(const std::vector<double> &actual, std::size_t threads, double budget)
{
  Replay r;
  r.compiled.assign(actual.size(), false);
  double now = 0, last = 0;
  for (std::size_t start = 0; start < actual.size(); start += threads) {
    if (start > 0 && now + last > budget) break;
    last = 0;
    for (std::size_t i = start; i < std::min(actual.size(), start + threads); ++i) r.compiled[i] = true, last = std::max(last, actual[i]);
    now += last;
  }
  r.last_end = now;
  return r;
}

// Mass 3D P6's first 16 in anytime order, shaped after its compiles on the H200 (the
// unrolled tiled kernels about 30 s within a batch of 16) and their estimates
// (records/tuning/nvrtc_compile_estimates.txt): tensor-core kernels quick,
// SCPWI about 1 s; the estimates somewhat high.
void p6_like(std::vector<double> *estimates, std::vector<double> *actual)
{
  for (int i = 0; i < 16; ++i) {
    const int kind = i % 3;  // mma, tiled, scpwi
    estimates->push_back(kind == 0 ? 0.6 : kind == 1 ? 45 : 1.2);
    actual->push_back(kind == 0 ? 0.4 : kind == 1 ? 30 : 1.0);
  }
}

}  // namespace

TEST_CASE("where the first compile batch overshoots the budget, the compile queue stays within it", "[tune][budget]")
{
  std::vector<double> estimates, actual;
  p6_like(&estimates, &actual);
  const double budget = 10, timing = 0.5;
  const Replay before = replay_batches(actual, 16, budget);
  REQUIRE(before.last_end > 2 * budget);  // the first batch's slowest compile
  const Replay after = replay_queue(CompileQueue(estimates, budget, timing), actual, 16);
  REQUIRE(after.last_end + timing <= budget);
  // Every tensor-core and SCPWI kernel is compiled (the P6 winners were tensor-core
  // kernels of that first batch); no unrolled tiled one.
  for (std::size_t i = 0; i < actual.size(); ++i) REQUIRE(after.compiled[i] == (i % 3 != 1));
}

TEST_CASE("a tiny budget still compiles one candidate: the cheapest of the leading ones", "[tune][budget]")
{
  const std::vector<double> estimates{30, 0.5, 2, 0.1}, actual{20, 0.4, 1.5, 0.1};
  CompileQueue queue(estimates, 1e-3, 0.5);
  REQUIRE(queue.guaranteed() == 1);  // of the first three; the fourth is not leading
  const Replay r = replay_queue(queue, actual, 4);
  REQUIRE(r.compiled == std::vector<bool>{false, true, false, false});
  // Once a schedule was timed (a later round), nothing need start.
  const Replay later = replay_queue(CompileQueue(estimates, 1e-3, 0.5, {}, false), actual, 4);
  REQUIRE(std::none_of(later.compiled.begin(), later.compiled.end(), [](bool b) { return b; }));
}

TEST_CASE("without a budget every candidate is compiled, in order", "[tune][budget]")
{
  const std::vector<double> estimates{300, 0.5, 200, 0.1}, actual{200, 0.4, 150, 0.1};
  CompileQueue queue(estimates, 0, 0.5);
  for (std::size_t i = 0; i < estimates.size(); ++i) REQUIRE(queue.next(1e6) == i);
  REQUIRE(queue.next(1e6) == CompileQueue::kNone);
  const Replay r = replay_queue(CompileQueue(estimates, 0, 0.5), actual, 2);
  REQUIRE(std::all_of(r.compiled.begin(), r.compiled.end(), [](bool b) { return b; }));
}

TEST_CASE("a candidate that does not fit is skipped with its estimate, and a cheaper one after it still starts", "[tune][budget]")
{
  CompileQueue queue({1, 50, 1}, 10, 0.5);
  REQUIRE(queue.next(0) == 0);
  queue.finished(0, 1);
  REQUIRE(queue.next(1) == 2);
  REQUIRE(queue.skipped(1));
  REQUIRE_FALSE(queue.skipped(2));
  REQUIRE(queue.skip_reason(1).find("estimated compile 50.0 s") != std::string::npos);
  REQUIRE(queue.skip_reason(1).find("9.0 s of the budget left") != std::string::npos);
  REQUIRE(queue.next(2) == CompileQueue::kNone);
}

TEST_CASE("the queue scales its estimates by what this tuning's compiles took", "[tune][budget]")
{
  // Estimates twice the real times: after four compiles the fifth fits at its measured
  // scale (4 + 9 x 0.5 <= 10), where unscaled it would not (4 + 9 > 10).
  const std::vector<double> estimates{2, 2, 2, 2, 9}, actual{1, 1, 1, 1, 4.5};
  const Replay r = replay_queue(CompileQueue(estimates, 10, 0.5), actual, 1);
  REQUIRE(r.compiled == std::vector<bool>(5, true));
  REQUIRE(r.last_end + 0.5 <= 10);
  CompileRatio unscaled;
  REQUIRE(unscaled.scale() == 1);
  CompileRatio halves{4, 8};
  REQUIRE(halves.scale() == Approx(0.5));
  // Compiles far quicker than estimated shorten the estimates by half at most.
  CompileRatio eighths{1, 8};
  REQUIRE(eighths.scale() == Approx(CompileRatio::kMinScale));
  CompileQueue cautious({12.8}, 10, 0.5, eighths, false);
  REQUIRE(cautious.next(4) == CompileQueue::kNone);  // 12.8 x 0.5 = 6.4 s + 0.5 s do not fit the 6 s left (x 1/8 would)
  // A quick compile (mostly NVRTC's fixed cost) does not move it.
  CompileQueue quick({0.1, 9}, 10, 0.5);
  REQUIRE(quick.next(0) == 0);
  quick.finished(0, 0.8);
  REQUIRE(quick.ratio().scale() == 1);
  // Carried into a later round's queue.
  CompileQueue later({9}, 10, 0.5, halves, false);
  REQUIRE(later.next(5) == 0);
}

TEST_CASE("compile workers start what the queue lets them and report the skipped ones", "[tune][budget]")
{
  // Fake compiles: sleeps of a few milliseconds.
  const std::vector<double> estimates{0.002, 0.002, 100, 0.002, 0.002};
  std::atomic<int> compiles{0};
  const TuneClock clock;
  CompileWorkers workers(CompileQueue(estimates, 5, 0.01), 2, clock, [&](std::size_t i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(static_cast<int>(estimates[i] * 1000)));
    ++compiles;
  });
  REQUIRE(workers.wait(0));
  REQUIRE_FALSE(workers.wait(2));
  REQUIRE(workers.wait(4));
  workers.join();
  REQUIRE(compiles == 4);
  REQUIRE(workers.queue().skipped(2));
  REQUIRE(workers.queue().ratio().measured_seconds == 0);  // quick compiles teach no scale

  const TuneClock none;
  std::atomic<int> all{0};
  CompileWorkers unbounded(CompileQueue(estimates, 0, 0.01), 3, none, [&](std::size_t) { ++all; });
  unbounded.join();
  REQUIRE(all == 5);
}

TEST_CASE("compile workers left early start no new compile", "[tune][budget]")
{
  // As when a timing throws (the device is out of memory): the compiles under way end,
  // the rest never start.
  std::atomic<int> compiles{0};
  const TuneClock none;
  {
    CompileWorkers workers(CompileQueue(std::vector<double>(20, 0.02), 0, 0.01), 1, none, [&](std::size_t) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      ++compiles;
    });
    REQUIRE(workers.wait(0));
  }
  REQUIRE(compiles >= 1);
  REQUIRE(compiles <= 2);
}
