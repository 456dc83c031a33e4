// Runs a CompileQueue (compile_queue.h) on `threads` worker threads: each takes the
// queue's next candidate at the clock's reading, compiles it and reports its time back,
// until the queue has none left. The caller may wait for one candidate's compile while
// the others go on (the CUDA tuner times each kernel, in order, as soon as it is built).
//
// Takes: the queue, the worker count, the tuning clock and compile(i), which must not
// throw (a failing candidate keeps its error itself).
// Returns: per candidate, whether it was compiled or skipped.
// Does not: know CUDA. The destructor starts no new compile and waits for those under way.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "tune/compile_queue.h"
#include "tune/tuner.h"

namespace femgpu {

class CompileWorkers {
 public:
  CompileWorkers(CompileQueue queue, int threads, const TuneClock &clock, std::function<void(std::size_t)> compile);
  ~CompileWorkers();
  CompileWorkers(const CompileWorkers &) = delete;
  CompileWorkers &operator=(const CompileWorkers &) = delete;

  // Waits until candidate i was compiled (true) or skipped (false).
  bool wait(std::size_t i);
  // Waits for every worker; the queue's decisions are final after it.
  void join();
  // Read after join().
  const CompileQueue &queue() const { return queue_; }

 private:
  enum class State { Waiting, Compiling, Done, Skipped };
  void work();

  CompileQueue queue_;
  const TuneClock &clock_;
  std::function<void(std::size_t)> compile_;
  std::vector<State> states_;
  bool cancelled_ = false;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::thread> threads_;
};

}  // namespace femgpu
