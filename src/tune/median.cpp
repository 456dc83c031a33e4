// The median of timings (median.h).
#include "tune/median.h"

#include <algorithm>
#include <cstddef>
#include <stdexcept>

namespace femgpu {

double median(std::vector<double> xs)
{
  if (xs.empty()) throw std::invalid_argument("median of no values");
  const size_t mid = xs.size() / 2;
  std::nth_element(xs.begin(), xs.begin() + static_cast<std::ptrdiff_t>(mid), xs.end());
  const double upper = xs[mid];
  if (xs.size() % 2) return upper;
  const double lower = *std::max_element(xs.begin(), xs.begin() + static_cast<std::ptrdiff_t>(mid));
  return 0.5 * (lower + upper);
}

}  // namespace femgpu
