// NVRTC compiles, for sm_90, what the CUDA tuner would time for forms with coefficients in
// their own elements (a P1 and a DG0 scalar; a P2 and a DG0 vector with lanes): the first
// candidates of its list (SCPWI at each size, constant tables, lanes, the model's best
// tiled), its tensor-core candidates, and the diagonal and cell-matrix kernels. Every
// kernel gathers each coefficient through its own map with its own tables. No GPU needed;
// what they compute is checked on OpenCL (test_own_element_coefficients.cpp) and on the GPU.
#include <catch2/catch.hpp>

#include "kernel/build.h"
#include "kernel/emit.h"
#include "support/nvrtc_check.h"
#include "tune/tuner.h"

using namespace femgpu;
using namespace femgpu::test;

namespace {

void compile(const std::string &source, const char *name)
{
  CompiledCubin cubin;
  REQUIRE_NOTHROW(cubin = nvrtc_compile(source, name, "sm_90"));
  CHECK(cubin.cubin.size() > 0);
}

}  // namespace

TEST_CASE("NVRTC compiles the tuner's candidates, tensor-core, diagonal and cell-matrix kernels of own-element coefficients",
          "[nvrtc][kernel][tune]")
{
  std::mt19937 rng(47);
  for (const FormCase &f : form_cases()) {
    if (f.name.find("DG0") == std::string::npos) continue;
    for (int dim : {2, 3}) {
      const ActionData d = make_action(f, dim, 2, 1, rng);
      const int Q = d.tab.n_points();
      TuneSettings s;
      std::size_t space = 0;
      bool truncated = false;
      std::vector<TimedCandidate> list = tuning_candidates(d.ir, Q, DeviceParams{}, s, &space, &truncated);
      list.resize(std::min<size_t>(list.size(), 10));
      const std::vector<TimedCandidate> mma = tensor_core_candidates(d.ir, Q, 2, 96 * 1024);
      list.insert(list.end(), mma.begin(), mma.end());
      for (const TimedCandidate &c : list) {
        INFO(f.name << " dim " << dim << " P2: " << to_string(c.schedule));
        compile(action_cuda_source(d, c.schedule), "femgpu_action");
      }
      INFO(f.name << " dim " << dim << " P2: diagonal and cell matrices");
      compile(kernel::emit_cuda(kernel::build_diagonal(d.ir, d.tab)), "femgpu_diagonal");
      compile(kernel::emit_cuda(kernel::build_cell_matrix(d.ir, d.tab)), "femgpu_cell_matrix");
    }
  }
}
