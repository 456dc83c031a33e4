// The CUDA sources of right-hand-side kernels (no trial function, no coefficient, and for
// a constant load no evaluation group at all) compile with NVRTC for sm_90: SCPWI with
// global and constant tables and the tiled sample, FP64 and FP32.
#include <catch2/catch.hpp>

#include "support/nvrtc_check.h"
#include "support/right_hand_sides.h"

using namespace femgpu;
using namespace femgpu::test;

TEST_CASE("NVRTC compiles right-hand-side kernels", "[nvrtc][kernel][rhs]")
{
  std::mt19937 rng(47);
  for (const FormCase &c : right_hand_side_cases())
    for (const auto &[dim, degree] : {std::pair{2, 2}, std::pair{3, 1}, std::pair{3, 3}}) {
      ActionData d = make_action(c, dim, degree, 1, rng);
      std::vector<Schedule> schedules = tiled_sample(d.ir, d.tab.n_points());
      schedules.push_back(Schedule::single_cell_per_work_item(32));
      schedules.push_back(Schedule::single_cell_per_work_item(16).with_tables(Tables::Constant));
      schedules.push_back(Schedule::single_cell_per_work_item(64, Precision::FP32));
      for (const Schedule &s : schedules) {
        INFO(c.name << " dim " << dim << " P" << degree << ": " << to_string(s));
        check_nvrtc_compiles(action_cuda_source(d, s));
      }
    }
}
