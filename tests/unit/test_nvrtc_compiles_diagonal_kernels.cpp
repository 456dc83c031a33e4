// The CUDA source of the diagonal kernel (build_diagonal) compiles with NVRTC to an
// sm_90 cubin for every bilinear form of the OpenCL diagonal test (mass, Laplace,
// Helmholtz, elasticity, nonlinear and hyperelastic Jacobians, x-dependent and curved
// P2 geometry), 2D P1-P3 and 3D P1-P3, and for a cell with more DOFs than one group's
// row of work-items (3D P6 vector: several passes). No GPU needed.
#include <catch2/catch.hpp>

#include "kernel/build.h"
#include "kernel/emit.h"
#include "reference/reference_diagonal.h"
#include "runtime/nvrtc_compile.h"
#include "support/action_cases.h"

using namespace femgpu;
using namespace femgpu::test;

namespace {

void compile(const ActionData &d)
{
  const kernel::Kernel k = kernel::build_diagonal(d.ir, d.tab);
  CompiledCubin cubin;
  REQUIRE_NOTHROW(cubin = nvrtc_compile(kernel::emit_cuda(k), "femgpu_diagonal", "sm_90"));
  CHECK(cubin.cubin.size() > 0);
}

}  // namespace

TEST_CASE("NVRTC compiles the diagonal kernel of every bilinear form for sm_90", "[nvrtc][kernel][diagonal]")
{
  std::mt19937 rng(5);
  for (const FormCase &form : form_cases()) {
    if (form.rank != 2) continue;
    for (const auto &[dim, degree] : std::vector<std::pair<int, int>>{{2, 1}, {2, 2}, {2, 3}, {3, 1}, {3, 2}, {3, 3}})
    {
      INFO(form.name << " dim " << dim << " P" << degree);
      compile(make_action(form, dim, degree, 1, rng));
    }
  }
}

TEST_CASE("NVRTC compiles a diagonal kernel whose cells have more DOFs than a group row", "[nvrtc][kernel][diagonal]")
{
  std::mt19937 rng(6);
  const FormCase elasticity = form_cases()[3];
  ActionData d = make_action(elasticity, 3, 6, 1, rng);
  const kernel::Kernel k = kernel::build_diagonal(d.ir, d.tab);
  CHECK(k.block_x * k.block_y <= 1024);
  CHECK(cell_width(d.ir) > k.block_x);  // 84 x 3 DOFs: several passes
  compile(d);
}
