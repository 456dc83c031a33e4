// The warp-scatter variant (Scatter::Warp) of every kernel in the covering sample
// compiles with NVRTC for sm_90, in FP64 and, at P2, FP32: __match_any_sync, the
// shuffles and votes of femgpu_warp_add exist for both. Running them is tests/gpu's.
#include <catch2/catch.hpp>

#include "kernel/build.h"
#include "kernel/emit.h"
#include "runtime/nvrtc_compile.h"
#include "support/action_cases.h"

using namespace femgpu;
using namespace femgpu::test;

TEST_CASE("NVRTC compiles the warp-scatter variant of every sampled candidate", "[nvrtc][kernel][scatter]")
{
  std::mt19937 rng(4);
  const std::vector<FormCase> forms = form_cases();
  for (int dim : {2, 3})
    for (const Candidate &c : kernel_sample(dim)) {
      ActionData d = make_action(forms[c.form], c.dim, c.degree, 1, rng);
      Schedule s = candidate_schedule(c, d).with_scatter(Scatter::Warp);
      if (c.degree == 2) s = s.with_precision(Precision::FP32);
      INFO(forms[c.form].name << " dim " << c.dim << " P" << c.degree << ": " << to_string(s));
      const std::string source = kernel::emit_cuda(kernel::build_kernel(d.ir, d.tab, s));
      REQUIRE(source.find("femgpu_warp_add") != std::string::npos);
      CompiledCubin cubin;
      REQUIRE_NOTHROW(cubin = nvrtc_compile(source, "femgpu_action", "sm_90"));
      CHECK(cubin.cubin.size() > 0);
    }
}
