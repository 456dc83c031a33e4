// NVRTC compiles the Loops::Unrolled variant (schedule.h) of every tiled kernel of the
// covering sample for sm_90 (test_unrolled_loops.cpp checks what they compute on the
// OpenCL device and how their loops are marked).
#include <catch2/catch.hpp>

#include "support/nvrtc_check.h"
#include "support/source_text.h"

using namespace femgpu;
using namespace femgpu::test;

TEST_CASE("NVRTC compiles the unrolled variant of every sampled tiled kernel", "[nvrtc][kernel][tiled][unrolled]")
{
  std::mt19937 rng(6);
  const std::vector<FormCase> forms = form_cases();
  for (int dim : {2, 3})
    for (const Candidate &c : kernel_sample(dim)) {
      if (c.tiled_shape < 0) continue;
      ActionData d = make_action(forms[c.form], c.dim, c.degree, 1, rng);
      const Schedule s = candidate_schedule(c, d).with_loops(Loops::Unrolled);
      INFO(forms[c.form].name << " dim " << c.dim << " P" << c.degree << ": " << to_string(s));
      check_nvrtc_compiles(action_cuda_source(d, s));
    }
}
