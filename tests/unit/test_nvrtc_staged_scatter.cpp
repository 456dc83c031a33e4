// NVRTC compiles the scatter=staged variant (schedule.h's Scatter::Staged) of every SCPWI
// kernel of the covering sample for sm_90, in FP64 and, at P2, FP32: the shared rows,
// the barrier and the group's adds exist for both precisions.
#include <catch2/catch.hpp>

#include "support/action_cases.h"
#include "support/nvrtc_check.h"
#include "support/source_text.h"

using namespace femgpu;

TEST_CASE("NVRTC compiles the scatter=staged variant of every sampled SCPWI candidate", "[nvrtc][kernel][staged_scatter]")
{
  std::mt19937 rng(31);
  const std::vector<test::FormCase> forms = test::form_cases();
  int compiled = 0;
  for (int dim : {2, 3})
    for (const test::Candidate &c : test::kernel_sample(dim)) {
      test::ActionData d = test::make_action(forms[c.form], c.dim, c.degree, 1, rng);
      Schedule s = test::candidate_schedule(c, d);
      if (s.strategy() != Strategy::SingleCellPerWorkItem) continue;
      s = s.with_scatter(Scatter::Staged);
      if (c.degree == 2) s = s.with_precision(Precision::FP32);
      INFO(forms[c.form].name << " dim " << c.dim << " P" << c.degree << ": " << to_string(s));
      const std::string source = test::action_cuda_source(d, s);
      CHECK(source.find("s_stage[r_entry]") != std::string::npos);
      test::check_nvrtc_compiles(source);
      ++compiled;
    }
  CHECK(compiled > 0);
}
