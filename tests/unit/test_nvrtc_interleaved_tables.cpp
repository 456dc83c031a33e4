// NVRTC compiles the Tables::Interleaved variant (schedule.h) of every tiled kernel of
// the covering sample for sm_90, and where a group or the test function has an even
// number of tables the unrolled kernel's PTX reads them in pairs (ld.shared.v2.f64),
// which the same kernel with its tables one after another never does: the point of the
// layout.
#include <catch2/catch.hpp>

#include "runtime/nvrtc_compile.h"
#include "support/action_cases.h"
#include "support/nvrtc_check.h"
#include "tune/tuner.h"
#include "tune/twins.h"

using namespace femgpu;
using namespace femgpu::test;

TEST_CASE("NVRTC compiles every sampled interleaved-table kernel, whose paired tables load as 16-byte pairs", "[nvrtc][kernel][tiled][interleaved]")
{
  std::mt19937 rng(43);
  const std::vector<FormCase> forms = form_cases();
  int paired = 0;
  for (int dim : {2, 3})
    for (const Candidate &c : kernel_sample(dim)) {
      if (c.tiled_shape < 0) continue;
      ActionData d = make_action(forms[c.form], c.dim, c.degree, 1, rng);
      const Schedule planar = candidate_schedule(c, d).with_loops(Loops::Unrolled);
      const Schedule s = planar.with_tables(Tables::Interleaved);
      INFO(forms[c.form].name << " dim " << c.dim << " P" << c.degree << ": " << to_string(s));
      check_nvrtc_compiles(action_cuda_source(d, s));
      if (!pairs_table_loads(d.ir)) continue;
      // The same kernel with its tables one after another loads no pairs of doubles
      // from shared memory; interleaved, it does.
      const std::string ptx_planar = nvrtc_ptx(action_cuda_source(d, planar), "femgpu_action");
      const std::string ptx = nvrtc_ptx(action_cuda_source(d, s), "femgpu_action");
      CHECK(count_of(ptx_planar, "ld.shared.v2.f64") == 0);
      CHECK(count_of(ptx, "ld.shared.v2.f64") > 0);
      CHECK(count_of(ptx, "ld.shared.f64") < count_of(ptx_planar, "ld.shared.f64"));
      ++paired;
    }
  CHECK(paired >= 3);
}
