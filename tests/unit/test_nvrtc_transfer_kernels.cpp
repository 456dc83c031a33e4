// The CUDA source of the p-multigrid transfer kernels, and of the cell-matrix kernel
// (MatConvert, the p-multigrid's coarse level), compiles with NVRTC to sm_90
// cubins, forward and transposed, for the ladders' shapes (2D and 3D, scalar and
// vector, up to 3D P6 <- P3 with several passes per cell). No GPU needed.
#include <catch2/catch.hpp>

#include "kernel/build.h"
#include "kernel/build_transfer.h"
#include "kernel/emit.h"
#include "runtime/nvrtc_compile.h"
#include "support/action_cases.h"

using namespace femgpu;

TEST_CASE("NVRTC compiles the transfer kernels for sm_90", "[nvrtc][kernel][transfer]")
{
  for (const auto &[rows, cols, components] : std::vector<std::tuple<int, int, int>>{{6, 3, 1}, {15, 6, 1}, {10, 4, 3}, {84, 20, 3}})
    for (auto direction : {TransferDirection::Forward, TransferDirection::Transpose}) {
      INFO(rows << " x " << cols << " x " << components);
      const kernel::Kernel k = kernel::build_transfer({rows, cols, components}, direction);
      CHECK(k.block_x * k.block_y <= 1024);
      CompiledCubin cubin;
      REQUIRE_NOTHROW(cubin = nvrtc_compile(kernel::emit_cuda(k), k.name, "sm_90"));
      CHECK(cubin.cubin.size() > 0);
    }
}

TEST_CASE("An empty transfer table is refused", "[kernel][transfer]")
{
  CHECK_THROWS_WITH(kernel::build_transfer({0, 3, 1}, TransferDirection::Forward), Catch::Contains("empty transfer table"));
}

TEST_CASE("NVRTC compiles the cell-matrix kernel of every bilinear form for sm_90", "[nvrtc][kernel][cell_matrix]")
{
  std::mt19937 rng(8);
  for (const test::FormCase &form : test::form_cases()) {
    if (form.rank != 2) continue;
    for (const auto &[dim, degree] : std::vector<std::pair<int, int>>{{2, 1}, {2, 3}, {3, 1}, {3, 2}}) {
      INFO(form.name << " dim " << dim << " P" << degree);
      test::ActionData d = test::make_action(form, dim, degree, 1, rng);
      const kernel::Kernel k = kernel::build_cell_matrix(d.ir, d.tab);
      CompiledCubin cubin;
      REQUIRE_NOTHROW(cubin = nvrtc_compile(kernel::emit_cuda(k), k.name, "sm_90"));
      CHECK(cubin.cubin.size() > 0);
    }
  }
}
