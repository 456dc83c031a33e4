// Every candidate the studies would time for a small case (all four studies, with a
// smaller top and sample) compiles with NVRTC for sm_90 the way femgpu-bench -study
// compiles it (CudaKernel's compile-only constructor, the H200's shared-memory opt-in).
// No GPU needed.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>

#include "fem/quadrature.h"
#include "form/parser.h"
#include "ir/lower.h"
#include "runtime/cuda_action.h"
#include "tools/studies.h"

using namespace femgpu;

TEST_CASE("NVRTC compiles the study candidates of Laplace P2 in 2D for sm_90", "[tune][nvrtc]")
{
  FormSignature sig{CellType::Triangle, Element{2, 1}, 1};
  const ActionIR ir = lower_form(parse_form_file(default_share_dir() + "/forms/laplace.ufl", sig).a);
  const Tabulation tab = tabulate_action(ir, default_share_dir());
  StudySettings settings;
  settings.ablation = settings.spearman = settings.topk = settings.sensitivity = true;
  settings.top = 20, settings.sample = 5, settings.b = 2, settings.threads = 2;
  DeviceParams d;
  d.sg_sat_global = 12, d.sg_sat_local = 5;
  d.local_max_per_group = 227 * 1024;
  const StudyPlan plan = plan_studies(KernelShape::from(ir, tab.n_points()), d, settings);
  const std::vector<Tiles> unique = plan.unique();
  REQUIRE(unique.size() >= 20);
  const auto t0 = std::chrono::steady_clock::now();
  for (const Tiles &t : unique) {
    const Schedule s = Schedule::tiled(t);
    INFO(to_string(s));
    REQUIRE_NOTHROW(CudaKernel(ir, tab, s, "sm_90", 227 * 1024, 1024));
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("compiled %zu study candidates in %.1f s (%.2f s each)\n", unique.size(), seconds, seconds / static_cast<double>(unique.size()));
}
