// NVRTC compiles the kernel variants that are not the sampled candidates themselves:
// shared DOFs and constant-memory tables.
//
// The shared-DOF variant (Dofs::Shared) of every kernel in the covering sample compiles
// with NVRTC for sm_90, in FP64 and, at P2, FP32, and differs from the register variant
// in where the DOFs live, not in what the kernel computes (checked on PoCL by
// test_shared_dofs.cpp, on the GPU by tests/gpu/gpu_check.cpp).
#include <catch2/catch.hpp>

#include "kernel/build.h"
#include "kernel/emit.h"
#include "support/action_cases.h"
#include "support/nvrtc_check.h"

using namespace femgpu;
using namespace femgpu::test;

TEST_CASE("NVRTC compiles the shared-DOF variant of every sampled candidate", "[nvrtc][kernel][shared_dofs]")
{
  std::mt19937 rng(4);
  const std::vector<FormCase> forms = form_cases();
  for (int dim : {2, 3})
    for (const Candidate &c : kernel_sample(dim)) {
      ActionData d = make_action(forms[c.form], c.dim, c.degree, 1, rng);
      Schedule s = candidate_schedule(c, d).with_dofs(Dofs::Shared);
      if (c.degree == 2) s = s.with_precision(Precision::FP32);
      INFO(forms[c.form].name << " dim " << c.dim << " P" << c.degree << ": " << to_string(s));
      const std::string source = action_cuda_source(d, s);
      CHECK(source.find("real *s_") != std::string::npos);
      check_nvrtc_compiles(source);
    }
}

// Constant tables are printed into the source as a __constant__ array; every
// SCPWI kernel of the sample whose tables fit compiles that way, in FP64 and, at P2, FP32.
TEST_CASE("NVRTC compiles the constant-table variant of every sampled SCPWI kernel", "[nvrtc][kernel][scpwi]")
{
  std::mt19937 rng(6);
  const std::vector<FormCase> forms = form_cases();
  for (int dim : {2, 3})
    for (const Candidate &c : kernel_sample(dim)) {
      if (c.tiled_shape >= 0) continue;
      ActionData d = make_action(forms[c.form], c.dim, c.degree, 1, rng);
      // Separate copies where they fit constant memory, else merged; neither: refused by validate.
      Schedule s = Schedule::single_cell_per_work_item(128).with_tables(Tables::Constant);
      if (constant_table_bytes(s, d.ir, d.tab.n_points()) > kMaxConstantTableBytes) s = s.with_tables(Tables::MergedConstant);
      if (constant_table_bytes(s, d.ir, d.tab.n_points()) > kMaxConstantTableBytes) continue;
      if (c.degree == 2) s = s.with_precision(Precision::FP32);
      INFO(forms[c.form].name << " dim " << c.dim << " P" << c.degree << ": " << to_string(s));
      const std::string source = action_cuda_source(d, s);
      CHECK(source.find("__constant__ real c_tables[") != std::string::npos);
      CHECK(source.find("g_tables[") == std::string::npos);  // only the unused argument remains
      check_nvrtc_compiles(source);
    }
}

// One lane per component (lanes=C): every vector SCPWI kernel of the sample compiles
// with global and, where they fit, constant tables, at the work-group sizes the tuner
// tries, in FP64 and, at P2, FP32.
TEST_CASE("NVRTC compiles the lanes variant of every sampled vector SCPWI kernel", "[nvrtc][kernel][scpwi][lanes]")
{
  std::mt19937 rng(8);
  const std::vector<FormCase> forms = form_cases();
  int compiled = 0;
  for (int dim : {2, 3})
    for (const Candidate &c : kernel_sample(dim)) {
      if (c.tiled_shape >= 0 || forms[c.form].components != 0) continue;
      ActionData d = make_action(forms[c.form], c.dim, c.degree, 1, rng);
      for (Schedule s : {Schedule::single_cell_per_work_item(32).with_lanes(dim),
                         Schedule::single_cell_per_work_item(128).with_lanes(dim).with_tables(Tables::Constant)}) {
        if (constant_table_bytes(s, d.ir, d.tab.n_points()) > kMaxConstantTableBytes) continue;
        if (c.degree == 2) s = s.with_precision(Precision::FP32);
        INFO(forms[c.form].name << " dim " << c.dim << " P" << c.degree << ": " << to_string(s));
        check_nvrtc_compiles(action_cuda_source(d, s));
        ++compiled;
      }
    }
  CHECK(compiled >= 6);
}
