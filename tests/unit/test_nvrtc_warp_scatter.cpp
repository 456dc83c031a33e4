// NVRTC compiles the scatter=warp variant (schedule.h's Scatter::Warp) of every kernel
// of the covering sample for sm_90, in FP64 and, at P2, FP32: the warp match, shuffles
// and atomics of its helper exist for both precisions.
#include <catch2/catch.hpp>

#include "support/action_cases.h"
#include "support/nvrtc_check.h"

using namespace femgpu;
using namespace femgpu::test;

TEST_CASE("NVRTC compiles the scatter=warp variant of every sampled candidate", "[nvrtc][kernel][warp_scatter]")
{
  std::mt19937 rng(29);
  const std::vector<FormCase> forms = form_cases();
  for (int dim : {2, 3})
    for (const Candidate &c : kernel_sample(dim)) {
      ActionData d = make_action(forms[c.form], c.dim, c.degree, 1, rng);
      Schedule s = candidate_schedule(c, d).with_scatter(Scatter::Warp);
      if (c.degree == 2) s = s.with_precision(Precision::FP32);
      std::vector<Schedule> schedules{s};
      if (d.ir.signature.element.components > 1 && c.tiled_shape < 0) schedules.push_back(s.with_lanes(d.ir.signature.element.components));
      for (const Schedule &w : schedules) {
        INFO(forms[c.form].name << " dim " << c.dim << " P" << c.degree << ": " << to_string(w));
        const std::string source = action_cuda_source(d, w);
        CHECK(source.find("femgpu_warp_add(g_out, ") != std::string::npos);
        check_nvrtc_compiles(source);
      }
    }
}
