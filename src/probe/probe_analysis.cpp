// Saturation points for the device probe (no GPU).
#include "probe/probe_analysis.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace femgpu {

Saturation saturation_warps(const std::vector<BandwidthPoint> &curve, double peak, double fraction)
{
  if (curve.empty()) throw std::invalid_argument("saturation_warps: empty bandwidth curve");
  if (!(peak > 0) || !std::isfinite(peak)) throw std::invalid_argument("saturation_warps: peak must be positive, got " + std::to_string(peak));
  if (!(fraction > 0 && fraction <= 1)) throw std::invalid_argument("saturation_warps: fraction must be in (0, 1], got " + std::to_string(fraction));
  for (size_t i = 0; i < curve.size(); ++i) {
    const BandwidthPoint &p = curve[i];
    if (p.warps_per_multiprocessor <= 0 || (i && p.warps_per_multiprocessor <= curve[i - 1].warps_per_multiprocessor))
      throw std::invalid_argument("saturation_warps: warps per multiprocessor must be positive and ascending");
    if (!(p.bytes_per_second >= 0) || !std::isfinite(p.bytes_per_second))
      throw std::invalid_argument("saturation_warps: bandwidth must be finite and non-negative");
  }
  for (const BandwidthPoint &p : curve)
    if (p.bytes_per_second >= fraction * peak) return {static_cast<double>(p.warps_per_multiprocessor), true};
  const auto best = std::max_element(curve.begin(), curve.end(), [](const BandwidthPoint &a, const BandwidthPoint &b) {
    return a.bytes_per_second < b.bytes_per_second;
  });
  if (best->bytes_per_second == 0) throw std::invalid_argument("saturation_warps: every point has zero bandwidth");
  return {best->warps_per_multiprocessor * fraction * peak / best->bytes_per_second, false};
}

}  // namespace femgpu
