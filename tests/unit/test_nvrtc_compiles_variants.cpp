// NVRTC compiles the kernel variants that are not the sampled candidates themselves:
// shared DOFs, constant-memory tables, unrolled tiled loops (test_unrolled_loops.cpp
// checks what they compute on PoCL), and register bounds, which reach ptxas
// (test_register_bound.cpp checks the emitted text).
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

TEST_CASE("NVRTC compiles the unrolled variant of every sampled tiled kernel", "[nvrtc][kernel][tiled][unrolled]")
{
  std::mt19937 rng(6);
  const std::vector<FormCase> forms = form_cases();
  for (int dim : {2, 3})
    for (const Candidate &c : kernel_sample(dim)) {
      if (c.tiled_shape < 0) continue;
      ActionData d = make_action(forms[c.form], c.dim, c.degree, 1, rng);
      const Schedule s = candidate_schedule(c, d).with_loops(Loops::Unrolled);
      INFO(forms[c.form].name << " dim " << c.dim << " P" << c.degree << ": " << to_string(s));
      check_nvrtc_compiles(action_cuda_source(d, s));
    }
}

// A register bound (groups_per_sm=3) reaches ptxas as .maxntid and .minnctapersm; the
// unbounded kernel has no .minnctapersm. The elasticity kernels of the 2D sample at P1-P2:
// SCPWI at both degrees and one tiled shape.
TEST_CASE("NVRTC passes the register bound of the sampled elasticity kernels to ptxas", "[nvrtc][kernel][occupancy]")
{
  std::mt19937 rng(67);
  const std::vector<FormCase> forms = form_cases();
  int compiled = 0, tiled = 0;
  for (const Candidate &c : kernel_sample(2)) {
    if (forms[c.form].name != "elasticity" || c.degree > 2) continue;
    ActionData d = make_action(forms[c.form], c.dim, c.degree, 1, rng);
    const Schedule s = candidate_schedule(c, d);
    const Schedule bounded = s.with_groups_per_sm(3);
    INFO(to_string(bounded));
    const std::string cuda = action_cuda_source(d, bounded);
    check_nvrtc_compiles(cuda);
    const std::string ptx = nvrtc_ptx(cuda, "femgpu_action");
    CHECK(count_of(ptx, ".minnctapersm 3") == 1);
    CHECK(count_of(ptx, ".maxntid " + std::to_string(threads_per_group(s)) + ", 1, 1") == 1);
    CHECK(count_of(nvrtc_ptx(action_cuda_source(d, s), "femgpu_action"), ".minnctapersm") == 0);
    ++compiled;
    if (s.strategy() == Strategy::Tiled) ++tiled;
  }
  CHECK(compiled >= 3);
  CHECK(tiled >= 1);
}
