// SG_sat from bandwidth-versus-occupancy curves built in closed form, and the median
// the probe keeps of its timings.
#include <catch2/catch.hpp>

#include <algorithm>

#include "tune/median.h"
#include "probe/probe_analysis.h"

using namespace femgpu;

namespace {

// The cost model's own ramp: bw(w) = peak * min(1, w / sg).
std::vector<BandwidthPoint> ramp(double peak, double sg, int max_warps)
{
  std::vector<BandwidthPoint> c;
  for (int w = 1; w <= max_warps; ++w) c.push_back({w, peak * std::min(1.0, w / sg)});
  return c;
}

}  // namespace

TEST_CASE("SG_sat of the cost model's ramp is where it reaches 90% of the peak", "[probe]")
{
  for (double sg : {1.0, 4.0, 10.0, 24.0, 32.0}) {
    const Saturation s = saturation_warps(ramp(4.5e12, sg, 32), 4.5e12, 0.9);
    INFO("sg = " << sg);
    CHECK(s.reached);
    CHECK(s.warps == std::ceil(0.9 * sg));  // smallest integer w with w / sg >= 0.9
  }
  CHECK(saturation_warps(ramp(1, 10, 32), 1, 1.0).warps == 10);
}

TEST_CASE("SG_sat uses the peak it is given, not the curve's maximum", "[probe]")
{
  // A curve that levels off at 80% of the full-occupancy peak never saturates.
  std::vector<BandwidthPoint> c = ramp(0.8, 8, 32);
  const Saturation s = saturation_warps(c, 1.0, 0.9);
  CHECK_FALSE(s.reached);
  // Extrapolated from the best point (the first at 0.8, w = 8): 8 * 0.9 / 0.8 = 9.
  CHECK(s.warps == Approx(9.0));
}

TEST_CASE("SG_sat takes the first point over the threshold on a noisy, non-monotone curve", "[probe]")
{
  const std::vector<BandwidthPoint> c = {{1, 0.2}, {2, 0.5}, {4, 0.91}, {8, 0.85}, {16, 1.0}, {32, 0.97}};
  const Saturation s = saturation_warps(c, 1.0, 0.9);
  CHECK(s.reached);
  CHECK(s.warps == 4);
}

TEST_CASE("SG_sat rejects curves it cannot read", "[probe]")
{
  CHECK_THROWS_AS(saturation_warps({}, 1.0), std::invalid_argument);
  CHECK_THROWS_AS(saturation_warps({{2, 1.0}, {1, 1.0}}, 1.0), std::invalid_argument);
  CHECK_THROWS_AS(saturation_warps({{0, 1.0}}, 1.0), std::invalid_argument);
  CHECK_THROWS_AS(saturation_warps({{1, std::nan("")}}, 1.0), std::invalid_argument);
  CHECK_THROWS_AS(saturation_warps({{1, 1.0}}, 0.0), std::invalid_argument);
  CHECK_THROWS_AS(saturation_warps({{1, 1.0}}, 1.0, 1.5), std::invalid_argument);
  CHECK_THROWS_AS(saturation_warps({{1, 0.0}}, 1.0), std::invalid_argument);
}

TEST_CASE("The median of timings ignores outliers", "[probe]")
{
  CHECK(median({3.0}) == 3.0);
  CHECK(median({5.0, 1.0, 100.0}) == 5.0);
  CHECK(median({4.0, 1.0, 3.0, 2.0}) == 2.5);
  CHECK(median({1.0, 1.1, 0.9, 1.0, 50.0, 1.0, 0.01}) == 1.0);
  CHECK_THROWS_AS(median({}), std::invalid_argument);
}
