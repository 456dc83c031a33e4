// Scatter::Warp (schedule.h): the schedule text carries it, CUDA emits the lane-matching
// helper and calls it where the atomic kernel calls atomicAdd (nothing else changes),
// OpenCL keeps its plain atomics, and the tuner's second round picks the twins of the
// fastest candidates that ran. The helper itself runs on the GPU: tests/gpu/gpu_check.cpp
// checks every warp-scatter variant it samples against the CPU reference.
#include <catch2/catch.hpp>

#include <limits>

#include "kernel/build.h"
#include "kernel/emit.h"
#include "support/action_cases.h"
#include "tune/tuner.h"

using namespace femgpu;
using namespace femgpu::test;

namespace {

std::string replace_all(std::string s, const std::string &from, const std::string &to)
{
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
  return s;
}

size_t count(const std::string &s, const std::string &what)
{
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

// The source from the kernel's signature on.
std::string kernel_text(const std::string &source) { return source.substr(source.find("femgpu_action(")); }

}  // namespace

TEST_CASE("a warp-scatter kernel differs from the atomic one only in its adds", "[kernel][emit][scatter]")
{
  std::mt19937 rng(11);
  const std::vector<FormCase> forms = form_cases();
  for (size_t f : {size_t{0}, size_t{3}, size_t{4}}) {  // mass, elasticity, nonlinear Jacobian
    ActionData d = make_action(forms[f], 2, 2, 1, rng);
    for (const Schedule &atomic : {Schedule::single_cell_per_work_item(), tiled_sample(d.ir, d.tab.n_points())[0]}) {
      const Schedule warp = atomic.with_scatter(Scatter::Warp);
      INFO(forms[f].name << ": " << to_string(warp));
      REQUIRE(to_string(warp) == to_string(atomic).insert(to_string(atomic).size() - 5, " scatter=warp"));
      const std::string a = kernel::emit_cuda(kernel::build_kernel(d.ir, d.tab, atomic));
      const std::string w = kernel::emit_cuda(kernel::build_kernel(d.ir, d.tab, warp));
      CHECK(count(a, "femgpu_warp_add") == 0);
      CHECK(count(w, "__match_any_sync") == 1);
      // Every atomicAdd of the atomic kernel is a femgpu_warp_add call in the warp kernel;
      // its only atomicAdd is the helper's own.
      const size_t adds = count(kernel_text(a), "atomicAdd(");
      CHECK(adds >= 1);
      CHECK(count(kernel_text(w), "femgpu_warp_add(") == adds);
      CHECK(count(w, "atomicAdd(") == 1);
      CHECK(replace_all(kernel_text(w), "femgpu_warp_add(", "atomicAdd(") == kernel_text(a));
      // OpenCL C 1.2 cannot match lanes: the same program with plain atomics.
      const std::string oa = kernel::emit_opencl(kernel::build_kernel(d.ir, d.tab, atomic), default_share_dir());
      const std::string ow = kernel::emit_opencl(kernel::build_kernel(d.ir, d.tab, warp), default_share_dir());
      CHECK(ow.substr(ow.find('\n')) == oa.substr(oa.find('\n')));
    }
  }
}

TEST_CASE("the tuner's second round twins the fastest candidates that ran", "[tune][scatter]")
{
  auto timed = [](const Schedule &s, double ms, const std::string &error = "") {
    TimedCandidate c;
    c.schedule = s;
    c.median_ms = error.empty() ? ms : std::numeric_limits<double>::infinity();
    c.error = error;
    c.model_seconds = ms * 1e-9;
    return c;
  };
  const Schedule scpwi = Schedule::single_cell_per_work_item();
  const Schedule a = Schedule::tiled({4, 8, 6, 6, {6}, 6, 6}), b = Schedule::tiled({2, 16, 6, 6, {3}, 6, 6});
  const Schedule c = Schedule::tiled({8, 4, 6, 3, {6}, 3, 6});
  const std::vector<TimedCandidate> round1{timed(scpwi, 0.30), timed(a, 0.10, "too many resources requested"), timed(b, 0.20),
                                           timed(c, 0.25)};
  std::vector<TimedCandidate> twins = warp_scatter_twins(round1, 2);
  REQUIRE(twins.size() == 2);
  CHECK(to_string(twins[0].schedule) == to_string(b.with_scatter(Scatter::Warp)));  // a failed: not twinned
  CHECK(to_string(twins[1].schedule) == to_string(c.with_scatter(Scatter::Warp)));
  CHECK(twins[0].model_seconds == round1[2].model_seconds);
  CHECK(twins[0].error.empty());
  CHECK(warp_scatter_twins(round1, 0).empty());
  CHECK(warp_scatter_twins(round1, 10).size() == 3);
  // A twin already listed (or a warp candidate itself) is not timed twice.
  std::vector<TimedCandidate> with_twin = round1;
  with_twin.push_back(timed(b.with_scatter(Scatter::Warp), 0.05));
  twins = warp_scatter_twins(with_twin, 1);
  REQUIRE(twins.size() == 1);
  CHECK(to_string(twins[0].schedule) == to_string(c.with_scatter(Scatter::Warp)));
}
