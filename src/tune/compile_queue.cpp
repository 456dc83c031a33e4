// The budgeted compile queue's decisions (compile_queue.h).
#include "tune/compile_queue.h"

#include <algorithm>
#include <cstdio>

namespace femgpu {

double CompileRatio::scale() const
{
  if (measured_seconds <= 0 || estimated_seconds <= 0) return 1;
  return std::clamp(measured_seconds / estimated_seconds, kMinScale, 8.0);
}

CompileQueue::CompileQueue(std::vector<double> estimates, double budget_seconds, double timing_seconds, CompileRatio ratio, bool guarantee,
                           std::size_t leading)
    : estimates_(std::move(estimates)), skip_reasons_(estimates_.size()), budget_(budget_seconds), timing_(timing_seconds), ratio_(ratio)
{
  const std::size_t lead = std::min(leading, estimates_.size());
  if (guarantee && lead > 0)
    guaranteed_ = static_cast<std::size_t>(std::min_element(estimates_.begin(), estimates_.begin() + static_cast<long>(lead)) - estimates_.begin());
}

std::size_t CompileQueue::next(double now)
{
  while (position_ < estimates_.size()) {
    const std::size_t i = position_++;
    const double expected = estimates_[i] * ratio_.scale();
    if (budget_ <= 0 || i == guaranteed_ || now + expected + timing_ <= budget_) return i;
    char why[160];
    std::snprintf(why, sizeof why, "estimated compile %.1f s (x%.2f as measured so far) + %.1f s timing, %.1f s of the budget left",
                  expected, ratio_.scale(), timing_, std::max(0.0, budget_ - now));
    skip_reasons_[i] = why;
  }
  return kNone;
}

void CompileQueue::finished(std::size_t i, double seconds)
{
  // Quick compiles are mostly NVRTC's fixed cost (compile_estimate.cpp), which does not
  // grow with the size: they say little about the long ones the budget is about.
  if (estimates_[i] < kLearnFromSeconds) return;
  ratio_.measured_seconds += seconds;
  ratio_.estimated_seconds += estimates_[i];
}

}  // namespace femgpu
