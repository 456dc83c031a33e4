// NVRTC compiles a tensor-core kernel (Strategy::TensorCore) of every test form (bilinear
// and residual, scalar and vector, coefficients, x-dependent, curved P2 geometry,
// hyperelasticity) in 2D and 3D at P1-P3, for shapes that leave warps without row
// tiles, split the evaluation columns into chunks and tile the quadrature, in both
// quadrature orders (quad=steps: MmaQuadOrder); the PTX holds
// the FP64 m8n8k4 product. What they compute is checked on the GPU (tests/gpu).
#include <catch2/catch.hpp>

#include "kernel/build.h"
#include "kernel/emit.h"
#include "support/action_cases.h"
#include "support/nvrtc_check.h"

using namespace femgpu;
using namespace femgpu::test;

TEST_CASE("NVRTC compiles a tensor-core kernel of every test form", "[nvrtc][kernel][mma]")
{
  std::mt19937 rng(11);
  for (const FormCase &f : form_cases())
    for (int dim : {2, 3})
      for (int k = 1; k <= 3; ++k) {
        ActionData d = make_action(f, dim, k, 1, rng);
        const int q8 = (d.tab.n_points() + 7) / 8 * 8;
        // Both quadrature orders, each on half of the (dim, degree) pairs of every form.
        const MmaQuadOrder order = (dim + k) % 2 ? MmaQuadOrder::Steps : MmaQuadOrder::Rows;
        const Schedule s = Schedule::tensor_core({k == 2 ? 24 : 8, k == 3 ? 8 : 2, std::min(q8, 8 * k), order});
        INFO(f.name << " dim " << dim << " P" << k << ": " << to_string(s));
        const std::string source = action_cuda_source(d, s);
        CHECK(source.find("mma.sync.aligned.m8n8k4.row.col.f64") != std::string::npos);
        check_nvrtc_compiles(source);
      }
}

TEST_CASE("a tensor-core kernel's PTX holds the FP64 m8n8k4 product and its register bound", "[nvrtc][kernel][mma]")
{
  std::mt19937 rng(13);
  ActionData d = make_action(form_cases()[3], 3, 3, 1, rng);  // elasticity 3D P3
  const std::string ptx = nvrtc_ptx(action_cuda_source(d, Schedule::tensor_core({16, 4, 16}).with_groups_per_sm(3)), "femgpu_action");
  CHECK(ptx.find("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64") != std::string::npos);
  CHECK(ptx.find(".minnctapersm 3") != std::string::npos);
}

// Wide groups: a scalar form's N_c cells are N_c columns, so at N_c = 32-64 one table
// fragment feeds 4-8 column tiles (the evaluation splits them into chunks of at most 6).
TEST_CASE("NVRTC compiles tensor-core kernels of 32 and 64 cells a group", "[nvrtc][kernel][mma]")
{
  std::mt19937 rng(17);
  const std::vector<FormCase> forms = form_cases();
  for (const char *name : {"mass", "laplace"})
    for (const MmaSizes &m : {MmaSizes{32, 4, 8}, MmaSizes{64, 4, 8}, MmaSizes{64, 8, 16}}) {
      const FormCase *f = nullptr;
      for (const FormCase &c : forms)
        if (c.name == name) f = &c;
      REQUIRE(f);
      ActionData d = make_action(*f, 3, 3, 1, rng);
      const Schedule s = Schedule::tensor_core(m);
      INFO(name << " 3D P3: " << to_string(s));
      check_nvrtc_compiles(action_cuda_source(d, s));
    }
}
