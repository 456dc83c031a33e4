// Scatter::Warp (schedule.h): the warp-aggregated scatter changes the kernel's output
// adds and nothing else, OpenCL refuses it with a message, and the CUDA tuner's second
// round twins its fastest candidates with it. That it adds the same action as the
// reference is checked on the GPU (tests/gpu/gpu_check.cpp), since it needs CUDA's
// warp match; test_nvrtc_warp_scatter.cpp compiles it.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "kernel/build.h"
#include "kernel/emit.h"
#include "support/action_cases.h"
#include "support/opencl_check.h"
#include "support/source_text.h"
#include "support/timed_candidates.h"
#include "tune/tuner.h"
#include "tune/twins.h"

using namespace femgpu;
using namespace femgpu::test;

namespace {

// The CUDA source without its first line (which names the schedule) and the warp helper
// (src/kernel/device/femgpu_warp_add.cuh: its opening comment lines and its definition),
// with each warp add spelled as an atomic add.
std::string as_plain_atomics(std::string source)
{
  source.erase(0, source.find('\n') + 1);
  const std::string helper_begin = "\n__device__ __forceinline__ void femgpu_warp_add(";
  size_t at = source.find(helper_begin);
  if (at != std::string::npos) {
    const size_t end = source.find("\n}\n", at);
    REQUIRE(end != std::string::npos);
    // Back over the comment lines just before the definition.
    for (size_t line; at > 0 && (line = source.rfind('\n', at - 1)) != std::string::npos && source.compare(line + 1, 2, "//") == 0;)
      at = line;
    source.erase(at, end + 2 - at);
  }
  // femgpu_warp_add(ARRAY, INDEX, VALUE) -> atomicAdd(&ARRAY[INDEX], VALUE)
  for (size_t p; (p = source.find("femgpu_warp_add(")) != std::string::npos;) {
    const size_t comma1 = source.find(", ", p), comma2 = source.find(", ", comma1 + 2);
    const std::string array = source.substr(p + 16, comma1 - p - 16), index = source.substr(comma1 + 2, comma2 - comma1 - 2);
    source.replace(p, comma2 - p, "atomicAdd(&" + array + "[" + index + "]");
  }
  return source;
}

}  // namespace

TEST_CASE("scatter=warp changes only the kernel's output adds", "[kernel][warp_scatter]")
{
  std::mt19937 rng(23);
  const std::vector<FormCase> forms = form_cases();
  for (int dim : {2, 3})
    for (const Candidate &c : kernel_sample(dim)) {
      ActionData d = make_action(forms[c.form], c.dim, c.degree, 1, rng);
      std::vector<Schedule> schedules{candidate_schedule(c, d)};
      if (d.ir.signature.element.components > 1 && c.tiled_shape < 0)
        schedules.push_back(Schedule::single_cell_per_work_item(32).with_lanes(d.ir.signature.element.components));
      if (c.tiled_shape >= 0) schedules.push_back(schedules[0].with_loops(Loops::Unrolled).with_dofs(Dofs::Shared));
      for (const Schedule &s : schedules) {
        const Schedule w = s.with_scatter(Scatter::Warp);
        INFO(forms[c.form].name << " dim " << c.dim << " P" << c.degree << ": " << to_string(w));
        const std::string plain = action_cuda_source(d, s), warp = action_cuda_source(d, w);
        CHECK(count_of(plain, "atomicAdd(&g_out[") > 0);
        CHECK(count_of(plain, "femgpu_warp_add") == 0);
        // Every output add is warp-aggregated; the helper's own atomicAdd is the only one left.
        CHECK(count_of(warp, "femgpu_warp_add(g_out, ") == count_of(plain, "atomicAdd(&g_out["));
        CHECK(count_of(warp, "atomicAdd(") == 1);
        CHECK(count_of(warp, "__match_any_sync") == 1);
        CHECK(as_plain_atomics(warp) == as_plain_atomics(plain));
      }
    }
}

TEST_CASE("OpenCL refuses a scatter=warp kernel, naming it", "[kernel][warp_scatter][opencl]")
{
  std::mt19937 rng(5);
  ActionData d = make_action(form_cases()[1], 2, 2, 1, rng);
  const Schedule s = Schedule::single_cell_per_work_item(32).with_scatter(Scatter::Warp);
  const kernel::Kernel k = kernel::build_kernel(d.ir, d.tab, s);
  try {
    kernel::emit_opencl(k);
    FAIL("expected emit_opencl to refuse scatter=warp");
  } catch (const std::invalid_argument &e) {
    CHECK(std::string(e.what()).find("scatter=warp") != std::string::npos);
    CHECK(std::string(e.what()).find("OpenCL") != std::string::npos);
  }
  CHECK_NOTHROW(kernel::emit_opencl(kernel::build_kernel(d.ir, d.tab, s.with_scatter(Scatter::Atomic))));
}

TEST_CASE("the tuner's second round twins the fastest candidates with scatter=warp", "[tune][warp_scatter]")
{
  const auto timed = [](const Schedule &s, double ms, const std::string &error = "") { return timed_candidate(s, ms, error); };
  const Schedule s32 = Schedule::single_cell_per_work_item(32), s64 = Schedule::single_cell_per_work_item(64);
  const Schedule lanes = s32.with_lanes(2), tiled = Schedule::tiled({4, 8, 6, 6, {6}, 6, 6}).with_loops(Loops::Unrolled);
  const std::vector<TimedCandidate> round1{timed(s32, 0.30), timed(tiled, 0.10, "too many resources requested"), timed(lanes, 0.20),
                                           timed(s64, 0.25), timed(tiled.with_dofs(Dofs::Shared), 0.22)};
  std::vector<TimedCandidate> twins = move_twins("warp_scatter", round1, 2);
  REQUIRE(twins.size() == 2);
  // The failed tiled candidate is skipped; fastest first.
  CHECK(to_string(twins[0].schedule) == to_string(lanes.with_scatter(Scatter::Warp)));
  CHECK(to_string(twins[1].schedule) == to_string(tiled.with_dofs(Dofs::Shared).with_scatter(Scatter::Warp)));
  CHECK(twins[0].model_seconds == round1[2].model_seconds);
  CHECK(move_twins("warp_scatter", round1, 0).empty());
  CHECK(move_twins("warp_scatter", round1, 10).size() == 4);
  // A twin already timed, or a warp candidate itself, is not timed again.
  std::vector<TimedCandidate> with_twin = round1;
  with_twin.push_back(timed(lanes.with_scatter(Scatter::Warp), 0.05));
  twins = move_twins("warp_scatter", with_twin, 1);
  REQUIRE(twins.size() == 1);
  CHECK(to_string(twins[0].schedule) == to_string(tiled.with_dofs(Dofs::Shared).with_scatter(Scatter::Warp)));
}
