// scatter=staged (schedule.h's Scatter::Staged): an SCPWI kernel's work-items write
// their cells' outputs to shared memory and the group adds them entry by entry. Checked
// here: the word, what validation refuses, the shared bytes against a hand count, the
// code's shape, the values against the reference action on PoCL (groups whose last one
// is partly empty, constrained entries) and the tuner's twins (NVRTC of every sampled
// SCPWI candidate: test_nvrtc_staged_scatter.cpp).
#include <catch2/catch.hpp>

#include "fem/action_tables.h"
#include "form/parser.h"
#include "ir/lower.h"
#include "kernel/build.h"
#include "kernel/emit.h"
#include "schedule/schedule.h"
#include "support/action_cases.h"
#include "support/opencl_check.h"
#include "support/source_text.h"
#include "support/timed_candidates.h"
#include "tune/tune_plan.h"
#include "tune/twins.h"

using namespace femgpu;

namespace {

std::string staged_source(const ActionIR &ir, const std::string &schedule)
{
  const Tabulation tab = tabulate_action(ir, default_share_dir());
  return kernel::emit_cuda(kernel::build_kernel(ir, tab, parse_schedule(schedule)));
}

}  // namespace


TEST_CASE("scatter=staged is read and printed, and validation keeps it to SCPWI in registers", "[schedule][staged_scatter]")
{
  const Schedule s = parse_schedule("scpwi wg=64 tables=constant scatter=staged fp64");
  CHECK(s.scatter() == Scatter::Staged);
  CHECK(to_string(s) == "scpwi wg=64 tables=constant scatter=staged fp64");
  const ActionIR ir = test::form_text_ir("a = inner(grad(u), grad(v))*dx", CellType::Triangle, 3, 2);
  CHECK_NOTHROW(validate(s, ir, 6, 1 << 20));
  for (const char *text : {"mma nc=8 warps=4 tq=8 scatter=staged fp64", "tiled nc=8 nwi=4 tq=6 ter=6 tec=[10] tqr=10 tqc=6 scatter=staged fp64",
                           "scpwi wg=32 lanes=2 scatter=staged fp64", "scpwi wg=32 dofs=shared scatter=staged fp64"}) {
    INFO(text);
    CHECK_THROWS_WITH(validate(parse_schedule(text), ir, 6, 1 << 20), Catch::Contains("scatter=staged is for SCPWI kernels of one work-item a cell"));
  }
  CHECK_THROWS_WITH(validate(parse_schedule("scpwi wg=32 scatter=staged own=plain fp64"), ir, 6, 1 << 20),
                    Catch::Contains("own=plain does not apply"));
  // its rows must fit the group's shared memory: P3 vector, 20 entries x 64 cells x 8 bytes
  CHECK_THROWS_WITH(validate(s, ir, 6, 10239), Catch::Contains("shared memory bytes = 10240"));
}

TEST_CASE("scatter=staged holds one row of N_TEST_DOFS values a work-item in shared memory", "[schedule][staged_scatter]")
{
  // Laplace 2D P3: 10 test DOFs; elasticity 3D P2: 10 nodes x 3 components
  const ActionIR laplace = test::form_text_ir("a = inner(grad(u), grad(v))*dx", CellType::Triangle, 3);
  const ActionIR elasticity = test::form_text_ir("a = inner(grad(u), grad(v))*dx", CellType::Tetrahedron, 2, 3);
  CHECK(shared_memory_bytes(parse_schedule("scpwi wg=64 scatter=staged fp64"), laplace) == 10 * 64 * 8);
  CHECK(shared_memory_bytes(parse_schedule("scpwi wg=64 scatter=staged fp32"), laplace) == 10 * 64 * 4);
  CHECK(shared_memory_bytes(parse_schedule("scpwi wg=128 scatter=staged fp64"), elasticity) == 30 * 128 * 8);
  CHECK(staged_output_words(parse_schedule("scpwi wg=128 fp64"), elasticity) == 0);
  CHECK(shared_memory_bytes(parse_schedule("scpwi wg=128 scatter=warp fp64"), elasticity) == 0);
}

TEST_CASE("a staged kernel writes its outputs to shared rows and adds them after one barrier", "[kernel][emit][staged_scatter]")
{
  // with a test table: the outputs after the quadrature loop
  const ActionIR laplace = test::form_text_ir("a = inner(grad(u), grad(v))*dx", CellType::Triangle, 4);
  const std::string staged = staged_source(laplace, "scpwi wg=32 scatter=staged fp64");
  CHECK(test::regex_count(staged, "s_stage\\[\\(r_lane \\* N_TEST_DOFS\\) \\+ i_out\\] = r_out\\[i_out\\]") == 1);
  CHECK(test::regex_count(staged, "__syncthreads\\(\\)") == 1);
  CHECK(test::regex_count(staged, "atomicAdd") == 1);
  const size_t barrier = staged.find("__syncthreads()"), add = staged.find("atomicAdd(&g_out[r_dof], s_stage[r_entry])");
  REQUIRE(add != std::string::npos);
  CHECK(barrier < add);
  CHECK(staged.find("g_test_map[(r_group_cell0 * N_TEST_DOFS) + r_entry]") != std::string::npos);
  // Psi = I: each point's value to its entry of the row
  const ActionIR mass = test::form_text_ir("a = inner(u, v)*dx", CellType::Tetrahedron, 2, 3);
  const std::string identity = staged_source(mass, "scpwi wg=64 tables=constant scatter=staged fp64");
  CHECK(test::regex_count(identity, "s_stage\\[\\(r_lane \\* N_TEST_DOFS\\) \\+ \\(+i_quad \\* N_COMPONENTS\\)( \\+ [12]\\))?\\] = ") == 3);
  CHECK(test::regex_count(identity, "atomicAdd") == 1);
  // the atomic scatter is unchanged
  const std::string atomic = staged_source(laplace, "scpwi wg=32 fp64");
  CHECK(atomic.find("s_stage") == std::string::npos);
  CHECK(atomic.find("__syncthreads") == std::string::npos);
}

// make_action's maps collide anywhere and hold constrained (-1) entries; 37 cells leave
// the last group of 16 or 32 partly empty.
TEST_CASE("OpenCL SCPWI kernels with scatter=staged match the reference action", "[opencl][kernel][scpwi][staged_scatter]")
{
  std::mt19937 rng(43);
  const std::vector<test::FormCase> forms = test::form_cases();
  for (size_t f = 0; f < forms.size(); ++f)
    for (const auto &[dim, k] : {std::pair<int, int>{2, 1}, {2, 3}, {3, 2}}) {
      test::ActionData d = test::make_action(forms[f], dim, k, 37, rng);
      for (const Schedule &s : {Schedule::single_cell_per_work_item(16), Schedule::single_cell_per_work_item(32).with_tables(Tables::Constant)}) {
        const Schedule staged = s.with_scatter(Scatter::Staged);
        if (s.tables() == Tables::Constant && constant_table_bytes(s, d.ir, d.tab.n_points()) > kMaxConstantTableBytes) continue;
        INFO(forms[f].name << " dim " << dim << " P" << k << ": " << to_string(staged));
        CHECK(test::opencl_action_error(d, staged) < 1e-12);
      }
    }
}

TEST_CASE("the tuner twins the SCPWI candidates among the fastest with scatter=staged", "[tune][staged_scatter]")
{
  const Schedule s32 = Schedule::single_cell_per_work_item(32), warp = Schedule::single_cell_per_work_item(64).with_scatter(Scatter::Warp);
  const Schedule plain = s32.with_own_dofs(OwnDofs::Plain), mma = Schedule::tensor_core(MmaSizes{8, 4, 16});
  const Schedule lanes = s32.with_lanes(2), shared = s32.with_dofs(Dofs::Shared);
  const std::vector<TimedCandidate> timed{test::timed_candidate(plain, 0.10), test::timed_candidate(s32, 0.12), test::timed_candidate(mma, 0.15),
                                          test::timed_candidate(warp, 0.20), test::timed_candidate(lanes, 0.25),
                                          test::timed_candidate(shared, 0.30)};
  // own=plain and its atomic sibling make one twin
  std::vector<TimedCandidate> twins = test::move_twins("staged_scatter", timed, 2);
  REQUIRE(twins.size() == 1);
  CHECK(to_string(twins[0].schedule) == "scpwi wg=32 scatter=staged fp64");
  // the tensor-core kernel, lanes and shared DOFs are not twinned; the warp scatter is
  twins = test::move_twins("staged_scatter", timed, 6);
  REQUIRE(twins.size() == 2);
  CHECK(to_string(twins[1].schedule) == "scpwi wg=64 scatter=staged fp64");
  // a twin timed already is not timed again
  std::vector<TimedCandidate> with_twin = timed;
  with_twin.push_back(test::timed_candidate(s32.with_scatter(Scatter::Staged), 0.5));
  twins = test::move_twins("staged_scatter", with_twin, 6);
  REQUIRE(twins.size() == 1);
  CHECK(to_string(twins[0].schedule) == "scpwi wg=64 scatter=staged fp64");
  // the plan's word
  CHECK(to_string(parse_tune_plan("first; staged_scatter n=3")) == "first; staged_scatter n=3");
}
