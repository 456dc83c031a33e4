// The compile queue's worker threads (compile_workers.h).
#include "tune/compile_workers.h"

#include <algorithm>
#include <chrono>

namespace femgpu {

CompileWorkers::CompileWorkers(CompileQueue queue, int threads, const TuneClock &clock, std::function<void(std::size_t)> compile)
    : queue_(std::move(queue)), clock_(clock), compile_(std::move(compile)), states_(queue_.size(), State::Waiting)
{
  const std::size_t n = std::min(queue_.size(), static_cast<std::size_t>(std::max(1, threads)));
  for (std::size_t t = 0; t < n; ++t) threads_.emplace_back([this] { work(); });
}

CompileWorkers::~CompileWorkers()
{
  {
    // Left early (a timing threw): no new compile starts, those under way end.
    std::lock_guard<std::mutex> lock(mutex_);
    cancelled_ = true;
  }
  join();
}

void CompileWorkers::work()
{
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    if (cancelled_) return;
    // Decided under the lock: the queue is one, whichever worker asks.
    const std::size_t i = queue_.next(clock_.elapsed());
    for (std::size_t j = 0; j < states_.size(); ++j)
      if (states_[j] == State::Waiting && queue_.skipped(j)) states_[j] = State::Skipped;
    changed_.notify_all();
    if (i == CompileQueue::kNone) return;
    states_[i] = State::Compiling;
    lock.unlock();
    const auto t0 = std::chrono::steady_clock::now();
    try {
      compile_(i);
    } catch (...) {
      // compile(i) keeps its own errors; one escaping here must not end the process.
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    lock.lock();
    queue_.finished(i, seconds);
    states_[i] = State::Done;
    changed_.notify_all();
  }
}

bool CompileWorkers::wait(std::size_t i)
{
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return states_[i] == State::Done || states_[i] == State::Skipped; });
  return states_[i] == State::Done;
}

void CompileWorkers::join()
{
  for (std::thread &t : threads_)
    if (t.joinable()) t.join();
}

}  // namespace femgpu
