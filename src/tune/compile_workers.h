// Runs a CompileQueue (compile_queue.h) on `threads` worker threads: each takes the
// queue's next candidate at the clock's reading, compiles it and reports its time back,
// until the queue has none left. The caller may wait for one candidate's compile while
// the others go on (the CUDA tuner times each kernel, in order, as soon as it is built).
//
// Takes: the queue, the worker count, the tuning clock and compile(i), which must not
// throw (a failing candidate keeps its error itself).
// Returns: per candidate, whether it was compiled or skipped.
// Does not: know CUDA, or leave a compile running behind it. The destructor starts no new
// compile, and it and join() wait for those under way, even past a tuning's budget: a
// compile cannot be interrupted, and one left running is not safe here. compile(i) uses
// what its caller owns (the CUDA tuner's: the round's result vectors, and the IR and tables
// that CudaKernel's constructor reads before it calls NVRTC), and a thread still inside
// NVRTC at exit() would race the static destructors: joining it from one of ours does not
// help, as a static that NVRTC may construct during a compile would register its
// destructor after ours and be destroyed first. Returning without the wait needs a compile
// that owns its input (the source) and output (the cubin), which CudaKernel cannot take
// today, on a process-wide pool joined at PetscFinalize. So the wait is bounded by the
// estimates instead: a compile starts only if it is expected to end within the budget
// (compile_queue.h), and the estimate counts the loops nvcc unrolls (compile_estimate.h).
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
