// NVRTC compiles, for sm_90, the CUDA kernels of exterior facet (ds) operators: the SCPWI
// kernel the Mat runs them with (FP64 and FP32), the tiled sample, and the diagonal
// kernel, for a Robin term with a normal flux on every local facet of triangles and
// tetrahedra. No GPU needed; what they compute is checked on OpenCL
// (test_facet_integrals.cpp) and by femgpu-apply's closed-form boundary integrals.
#include <catch2/catch.hpp>

#include "support/nvrtc_check.h"

using namespace femgpu;
using namespace femgpu::test;

TEST_CASE("NVRTC compiles the kernels of exterior facet operators", "[nvrtc][kernel][facet]")
{
  std::mt19937 rng(53);
  const IntegralDomain ds{IntegralDomain::Type::ExteriorFacet, std::nullopt};  // make_action lowers ds on facet f
  for (int dim : {2, 3})
    for (int f = 0; f <= dim; ++f) {
      FormCase c{"robin with flux", 1, 2, 1,
                 [&](FormBuilder &b) {
                   Expr u = b.trial_function(), v = b.test_function();
                   Expr flux = mul(dot(grad(u, b.dim()), b.facet_normal()), v);
                   return std::vector<Integral>{FormBuilder::integral(add(mul(b.constant("alpha", 1.5), mul(u, v)), flux), std::nullopt, ds)};
                 },
                 f};
      ActionData d = make_action(c, dim, 2, 1, rng);
      std::vector<Schedule> schedules = tiled_sample(d.ir, d.tab.n_points());
      schedules.push_back(Schedule::single_cell_per_work_item(32));
      schedules.push_back(Schedule::single_cell_per_work_item(32, Precision::FP32));
      for (const Schedule &s : schedules) {
        INFO("dim " << dim << " facet " << f << ": " << to_string(s));
        check_nvrtc_compiles(action_cuda_source(d, s));
      }
      CompiledCubin cubin;
      REQUIRE_NOTHROW(cubin = nvrtc_compile(kernel::emit_cuda(kernel::build_diagonal(d.ir, d.tab)), "femgpu_diagonal", "sm_90"));
      CHECK(cubin.cubin.size() > 0);
    }
}
