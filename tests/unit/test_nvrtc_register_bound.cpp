// NVRTC passes a register bound (schedule.h's groups_per_sm) to ptxas: the PTX of a
// bounded SCPWI and tiled kernel carries .maxntid and .minnctapersm, the unbounded
// one no .minnctapersm. test_register_bound.cpp checks the emitted text and the rest.
#include <catch2/catch.hpp>

#include "runtime/nvrtc_compile.h"
#include "support/nvrtc_check.h"
#include "support/source_text.h"

using namespace femgpu;
using namespace femgpu::test;

TEST_CASE("NVRTC passes the register bound to ptxas", "[nvrtc][kernel][occupancy]")
{
  std::mt19937 rng(67);
  const std::vector<FormCase> forms = form_cases();
  ActionData d = make_action(forms[3], 2, 2, 1, rng);  // elasticity
  const Schedule tiled = Schedule::tiled({4, 8, d.tab.n_points(), d.tab.n_points(), {d.ir.groups[0].n_basis}, d.ir.n_test_basis, 1})
                             .with_loops(Loops::Unrolled);
  for (const Schedule &s : {Schedule::single_cell_per_work_item(64), tiled}) {
    const Schedule bounded = s.with_groups_per_sm(3);
    INFO(to_string(bounded));
    const std::string cuda = action_cuda_source(d, bounded);
    const std::string threads = std::to_string(threads_per_group(s));
    check_nvrtc_compiles(cuda);
    const std::string ptx = nvrtc_ptx(cuda, "femgpu_action");
    CHECK(count_of(ptx, ".minnctapersm 3") == 1);
    CHECK(count_of(ptx, ".maxntid " + threads + ", 1, 1") == 1);
    CHECK(count_of(nvrtc_ptx(action_cuda_source(d, s), "femgpu_action"), ".minnctapersm") == 0);
  }
}
