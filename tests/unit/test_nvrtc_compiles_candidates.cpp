// Every CUDA source of the covering kernel sample (the same candidates the OpenCL tests
// run) compiles with NVRTC to an sm_90 cubin, in FP64 and, for a few, FP32. No GPU
// needed; running them is for tests/gpu.
#include <catch2/catch.hpp>

#include "kernel/build.h"
#include "kernel/emit.h"
#include "runtime/nvrtc_compile.h"
#include "support/action_cases.h"
#include "support/nvrtc_check.h"

using namespace femgpu;
using namespace femgpu::test;

namespace {

void compile_sample(int dim)
{
  std::mt19937 rng(3);
  const std::vector<FormCase> forms = form_cases();
  for (const Candidate &c : kernel_sample(dim)) {
    ActionData d = make_action(forms[c.form], c.dim, c.degree, 1, rng);
    Schedule s = candidate_schedule(c, d);
    if (c.degree == 2) s = s.with_precision(Precision::FP32);
    INFO(forms[c.form].name << " dim " << c.dim << " P" << c.degree << ": " << to_string(s));
    check_nvrtc_compiles(action_cuda_source(d, s));
  }
}

}  // namespace

TEST_CASE("NVRTC compiles every 2D candidate for sm_90", "[nvrtc][kernel]") { compile_sample(2); }
TEST_CASE("NVRTC compiles every 3D candidate for sm_90", "[nvrtc][kernel]") { compile_sample(3); }

TEST_CASE("NVRTC reports a failing compile with its log, options and saved source", "[nvrtc]")
{
  const std::string bad = "extern \"C\" __global__ void femgpu_action(double *g_out) { g_out[0] = r_undeclared; }\n";
  try {
    nvrtc_compile(bad, "broken", "sm_90");
    FAIL("expected a compile error");
  } catch (const std::runtime_error &e) {
    const std::string what = e.what();
    CHECK(what.find("r_undeclared") != std::string::npos);
    CHECK(what.find("-arch=sm_90") != std::string::npos);
    CHECK(what.find("source saved to") != std::string::npos);
  }
}
