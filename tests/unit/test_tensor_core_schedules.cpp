// Tensor-core schedules (Strategy::TensorCore): their text form, what validate() refuses
// (with the parameter, its value and the limit), the shared-memory layout counted by
// hand, and that OpenCL, which has no FP64 matrix instruction, refuses to emit them.
// What they compute is checked on the GPU against the CPU reference
// (tests/gpu/gpu_check.cpp, -mma); NVRTC compiles them for every test form
// (test_nvrtc_tensor_core.cpp).
#include <catch2/catch.hpp>

#include <algorithm>

#include "kernel/build.h"
#include "kernel/emit.h"
#include "schedule/mma_layout.h"
#include "support/action_cases.h"
#include "support/timed_candidates.h"
#include "tune/tuner.h"
#include "tune/twins.h"

using namespace femgpu;
using namespace femgpu::test;

namespace {

std::string rejection(const Schedule &s, const ActionIR &ir, int Q, long long max_shared = 1 << 30)
{
  try {
    validate(s, ir, Q, max_shared);
  } catch (const std::invalid_argument &e) {
    return e.what();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("tensor-core schedules round-trip through their text", "[schedule][mma]")
{
  const Schedule s = Schedule::tensor_core({16, 4, 32});
  CHECK(to_string(s) == "mma nc=16 warps=4 tq=32 fp64");
  CHECK(to_string(parse_schedule("mma nc=16 warps=4 tq=32 fp64")) == to_string(s));
  const Schedule bounded = s.with_groups_per_sm(3);
  CHECK(to_string(bounded) == "mma nc=16 warps=4 tq=32 groups_per_sm=3 fp64");
  CHECK(parse_schedule(to_string(bounded)).groups_per_sm() == 3);
  CHECK(parse_schedule(to_string(bounded)).mma() == MmaSizes{16, 4, 32});
  CHECK(threads_per_group(s) == 128);
  CHECK(cells_per_group(s) == 16);
  CHECK_THROWS_WITH(parse_schedule("mma nc=16 warps=4 fp64"), Catch::Contains("mma nc=.. warps=.. tq=.."));
  CHECK_THROWS_WITH(parse_schedule("mma nc=16 warps=0 tq=8 fp64"), Catch::Contains("'warps=0' is out of range (warps=1-32)"));
}

TEST_CASE("invalid tensor-core schedules are refused with the parameter, its value and the limit", "[schedule][mma]")
{
  std::mt19937 rng(3);
  ActionData d = make_action(form_named("elasticity"), 3, 2, 1, rng);  // Q = 4 at P2 3D
  const int Q = d.tab.n_points();
  REQUIRE(Q == 4);
  const ActionIR &ir = d.ir;
  CHECK(rejection(Schedule::tensor_core({8, 4, 8}), ir, Q) == "accepted");
  CHECK(rejection(Schedule::tensor_core({12, 4, 8}), ir, Q) ==
        "invalid schedule: cells_per_group = 12 must be a multiple of 8 (the width of a product's column tile)");
  CHECK(rejection(Schedule::tensor_core({8, 4, 16}), ir, Q) ==
        "invalid schedule: quad_tile = 16 must be <= 8 (the number of quadrature points, rounded up to 8)");
  CHECK(rejection(Schedule::tensor_core({8, 33, 8}), ir, Q) == "invalid schedule: warps = 33 must be <= 32 (threads per group limit)");
  CHECK(rejection(Schedule::tensor_core({64, 1, 8}), ir, Q) ==
        "invalid schedule: cells_per_group = 64 must be <= 32 (32 x warps, one work-item per cell for its per-cell values)");
  CHECK(rejection(Schedule::tensor_core({64, 2, 8}), ir, Q) == "accepted");
  CHECK_THAT(rejection(Schedule::tensor_core({8, 4, 8}, Precision::FP32), ir, Q), Catch::Contains("no fp32 variant"));
  CHECK_THAT(rejection(Schedule::tensor_core({8, 4, 8}).with_scatter(Scatter::Warp), ir, Q), Catch::Contains("takes none of"));
  CHECK_THAT(rejection(Schedule::tensor_core({8, 4, 8}).with_dofs(Dofs::Shared), ir, Q), Catch::Contains("takes none of"));
  const long long bytes = shared_memory_bytes(Schedule::tensor_core({8, 4, 8}), ir);
  CHECK(rejection(Schedule::tensor_core({8, 4, 8}), ir, Q, bytes - 8) ==
        "invalid schedule: shared memory bytes = " + std::to_string(bytes) + " must be <= " + std::to_string(bytes - 8) +
            " (DOFs, evaluated values, pointwise results and per-cell values of N_c cells)");
}

// Elasticity 3D P4 (n = 35, Q = 23, 3 components, 3 derivative tables, 12 held per-cell
// values), N_c = 8, T^Q = 16, counted by hand.
TEST_CASE("the tensor-core shared layout of elasticity 3D P4, counted by hand", "[schedule][mma]")
{
  std::mt19937 rng(5);
  ActionData d = make_action(form_named("elasticity"), 3, 4, 1, rng);
  REQUIRE(d.tab.rule.size() == 23);
  REQUIRE(d.tab.n_points() == 20);  // compressed: the gradients' space P3 has dimension 20
  REQUIRE(held_cell_values(d.ir.pointwise).size() == 12);
  const MmaLayout l = mma_layout({8, 4, 16}, d.ir);
  REQUIRE(l.groups.size() == 1);
  const MmaGroupLayout &g = l.groups[0];
  CHECK(g.columns_per_cell == 3);
  CHECK(g.columns == 24);           // 8 cells x 3 components
  CHECK(g.k_padded == 36);          // 35 basis functions, padded to 4
  CHECK(g.k_stride == 36);          // 36 = 4 (mod 16): no bank conflicts
  CHECK(g.dof_words == 24 * 36);
  CHECK(l.point_stride == 18);      // T^Q + 2
  CHECK(g.eval_words == 3 * 24 * 18);
  CHECK(l.test_columns == 24);
  CHECK(l.test_k == 48);            // 3 test derivatives x 16 points
  CHECK(l.test_k_stride == 52);     // 48 = 0 (mod 16) -> 52 = 4
  CHECK(l.test_row_tiles == 5);     // ceil(35 / 8)
  CHECK(l.cell_stride == 13);       // 12 held values, odd
  CHECK(l.total_words() == 864 + 1296 + 24 * 52 + 8 * 13);
  CHECK(shared_memory_bytes(Schedule::tensor_core({8, 4, 16}), d.ir) == 8 * l.total_words());
}

TEST_CASE("every tensor-core column stride is 4 or 12 modulo 16 words", "[schedule][mma]")
{
  std::mt19937 rng(7);
  for (const FormCase &f : form_cases())
    for (int dim : {2, 3})
      for (int k = 1; k <= 4; ++k) {
        ActionData d = make_action(f, dim, k, 1, rng);
        for (int tq : {8, 16, 24}) {
          const MmaLayout l = mma_layout({8, 4, tq}, d.ir);
          INFO(f.name << " dim " << dim << " P" << k << " tq " << tq);
          for (const MmaGroupLayout &g : l.groups) {
            CHECK((g.k_stride % 16 == 4 || g.k_stride % 16 == 12));
            CHECK(g.k_stride >= g.k_padded);
            CHECK(g.columns % 8 == 0);
          }
          CHECK((l.test_k_stride % 16 == 4 || l.test_k_stride % 16 == 12));
          CHECK(l.test_columns % 8 == 0);
        }
      }
}

TEST_CASE("OpenCL refuses to emit a tensor-core kernel, naming why", "[kernel][mma]")
{
  std::mt19937 rng(9);
  ActionData d = make_action(form_named("laplace"), 2, 3, 1, rng);
  const kernel::Kernel k = kernel::build_kernel(d.ir, d.tab, Schedule::tensor_core({8, 4, 8}));
  CHECK_THROWS_WITH(kernel::emit_opencl(k), Catch::Contains("FP64 tensor cores"));
  CHECK_NOTHROW(kernel::emit_cuda(k));
}

// The tuner's tensor-core round: kMmaShapes in order, T^Q capped at Q rounded up to 8
// (so P1's one point leaves one T^Q and the repeats drop out), those over the shared
// limit left out, at most n.
TEST_CASE("the tuner's tensor-core candidates follow kMmaShapes within Q and the shared memory", "[tune][mma]")
{
  std::mt19937 rng(15);
  ActionData d = make_action(form_named("elasticity"), 3, 4, 1, rng);  // Q = 23: T^Q up to 24
  std::vector<TimedCandidate> all = tensor_core_candidates(d.ir, 23, 100, 1 << 30);
  REQUIRE(all.size() == kMmaShapes.size());
  for (size_t i = 0; i < all.size(); ++i) {
    MmaSizes expected = kMmaShapes[i];
    expected.quad_tile = std::min(expected.quad_tile, 24);
    CHECK(all[i].schedule.mma() == expected);
    CHECK(all[i].schedule.precision() == Precision::FP64);
  }
  CHECK(tensor_core_candidates(d.ir, 23, 2, 1 << 30).size() == 2);
  CHECK(tensor_core_candidates(d.ir, 23, 0, 1 << 30).empty());
  // A limit that only the smallest shape meets.
  long long smallest = 1LL << 40;
  for (const TimedCandidate &c : all) smallest = std::min(smallest, shared_memory_bytes(c.schedule, d.ir));
  for (const TimedCandidate &c : tensor_core_candidates(d.ir, 23, 100, smallest)) CHECK(shared_memory_bytes(c.schedule, d.ir) == smallest);
  ActionData p1 = make_action(form_named("elasticity"), 3, 1, 1, rng);  // Q = 1
  std::vector<TimedCandidate> one_point = tensor_core_candidates(p1.ir, 1, 100, 1 << 30);
  for (const TimedCandidate &c : one_point) CHECK(c.schedule.mma().quad_tile == 8);
  for (size_t i = 0; i < one_point.size(); ++i)
    for (size_t j = i + 1; j < one_point.size(); ++j) CHECK_FALSE(one_point[i].schedule.mma() == one_point[j].schedule.mma());
}

TEST_CASE("the quad=steps twin is timed only for tensor-core kernels among the fastest so far", "[tune][mma]")
{
  const Schedule mma8 = Schedule::tensor_core({8, 4, 32}), mma16 = Schedule::tensor_core({16, 4, 8});
  MmaSizes steps = mma8.mma();
  steps.quad_order = MmaQuadOrder::Steps;
  const Schedule scpwi = Schedule::single_cell_per_work_item(32);
  // A tensor-core kernel leads: its twin, and with n = 2 the second one's too.
  std::vector<TimedCandidate> timed = {timed_candidate(scpwi, 3.0), timed_candidate(mma8, 2.0), timed_candidate(mma16, 2.5),
                                       timed_candidate(Schedule::tensor_core({8, 4, 8}), 1.0, "out of shared memory")};
  std::vector<TimedCandidate> twins = move_twins("quad_steps", timed, 1);
  REQUIRE(twins.size() == 1);
  CHECK(to_string(twins[0].schedule) == "mma nc=8 warps=4 tq=32 quad=steps fp64");
  CHECK(twins[0].schedule.mma() == steps);
  CHECK(move_twins("quad_steps", timed, 2).size() == 2);
  CHECK(move_twins("quad_steps", timed, 0).empty());
  // An SCPWI kernel leads: no twin at n = 1, only the tensor-core one behind it at n = 2.
  timed[0].median_ms = 1.5;
  CHECK(move_twins("quad_steps", timed, 1).empty());
  REQUIRE(move_twins("quad_steps", timed, 2).size() == 1);
  CHECK(move_twins("quad_steps", timed, 2)[0].schedule.mma().cells_per_group == 8);
  // A twin timed already is not timed again, whether it leads or trails its original.
  timed[0].median_ms = 3.0;
  timed.push_back(timed_candidate(Schedule::tensor_core(steps), 2.2));
  REQUIRE(move_twins("quad_steps", timed, 1).empty());   // mma8 leads, its twin ran
  timed.back().median_ms = 1.9;
  CHECK(move_twins("quad_steps", timed, 1).empty());     // the twin leads: it has no twin
  REQUIRE(move_twins("quad_steps", timed, 3).size() == 1);  // mma16's only
  CHECK(move_twins("quad_steps", timed, 3)[0].schedule.mma().cells_per_group == 16);
  // Written and read as text, refused for other strategies.
  CHECK(parse_schedule("mma nc=8 warps=4 tq=32 quad=steps fp64").mma() == steps);
  CHECK_THROWS_WITH(parse_schedule("scpwi wg=32 quad=steps fp64"), Catch::Contains("quad"));
}

// The tensor-core kernels read each table operand as 32 consecutive words (mma_tables in
// kernel_abi.h): every table entry must sit at the lane that the m8n8k4 product reads
// for it, with zeros past the rule's points and the basis, after the plain tables.
TEST_CASE("tensor-core table fragments hold each entry at the lane the product reads, zeros past the tables", "[kernel][mma]")
{
  std::mt19937 rng(29);
  for (const FormCase &f : form_cases())
    for (int dim : {2, 3})
      for (int degree : {1, 3}) {
        ActionData d = make_action(f, dim, degree, 1, rng);
        INFO(f.name << " dim " << dim << " P" << degree);
        const int Q = d.tab.n_points();
        const std::vector<double> plain = pack_tables(d.ir, d.tab).data, all = device_tables(d.ir, d.tab);
        const MmaTables m = mma_tables(d.ir, d.tab, static_cast<long long>(plain.size()));
        REQUIRE(m.points == 2 * ((Q + 7) / 8 * 8));
        REQUIRE(all.size() == plain.size() + m.data.size());
        CHECK(std::equal(plain.begin(), plain.end(), all.begin()));
        auto word = [&](long long at) { return all.at(static_cast<size_t>(at)); };
        long long words = 0;
        for (size_t g = 0; g < d.ir.groups.size(); ++g) {
          const int n = d.ir.groups[g].n_basis, steps = (n + 3) / 4;
          for (size_t k = 0; k < d.tab.group_tables[g].size(); ++k)
            for (int q = 0; q < m.points; ++q)
              for (int j = 0; j < 4 * steps; ++j) {
                const long long at = m.group_offsets[g] + ((static_cast<long long>(k) * m.points / 8 + q / 8) * steps + j / 4) * 32 + (q % 8) * 4 + j % 4;
                const double want = q < Q && j < n ? d.tab.group_tables[g][k][static_cast<size_t>(q * n + j)] : 0.0;
                if (word(at) != want) FAIL_CHECK("group " << g << " derivative " << k << " point " << q << " basis " << j);
                ++words;
              }
        }
        const int n = d.ir.n_test_basis, row_tiles = (n + 7) / 8;
        for (size_t t = 0; t < d.tab.test_tables.size(); ++t)
          for (int i = 0; i < 8 * row_tiles; ++i)
            for (int q = 0; q < m.points; ++q) {
              const long long at = m.test_offset + ((static_cast<long long>(t) * row_tiles + i / 8) * m.points / 4 + q / 4) * 32 + (i % 8) * 4 + q % 4;
              const double want = q < Q && i < n ? d.tab.test_tables[t][static_cast<size_t>(q * n + i)] : 0.0;
              if (word(at) != want) FAIL_CHECK("test derivative " << t << " point " << q << " basis " << i);
              ++words;
            }
        // Every word is one of those entries: nothing else is stored.
        CHECK(words == static_cast<long long>(m.data.size()));
        // The offsets alone (what the kernel builder asks for) are the same.
        const MmaTables offsets = mma_tables(d.ir, d.tab, static_cast<long long>(plain.size()), false);
        CHECK(offsets.data.empty());
        CHECK(offsets.points == m.points);
        CHECK(offsets.group_offsets == m.group_offsets);
        CHECK(offsets.test_offset == m.test_offset);
      }
}

// Kernels of an identity test table take kIdentityMmaShapes, capped at the points the
// same way (mass 2D P5: 21 points, T^Q up to 24).
TEST_CASE("the tuner's tensor-core candidates of an identity test table follow kIdentityMmaShapes", "[tune][mma]")
{
  std::mt19937 rng(16);
  ActionData d = make_action(form_named("mass"), 2, 5, 1, rng);
  REQUIRE(d.tab.test_identity);
  REQUIRE(d.tab.n_points() == 21);
  const std::vector<TimedCandidate> all = tensor_core_candidates(d.ir, 21, 100, 1 << 30, true);
  std::vector<MmaSizes> expected;
  for (MmaSizes m : kIdentityMmaShapes) {
    m.quad_tile = std::min(m.quad_tile, 24);
    if (std::find(expected.begin(), expected.end(), m) == expected.end()) expected.push_back(m);
  }
  REQUIRE(all.size() == expected.size());
  for (size_t i = 0; i < all.size(); ++i) CHECK(all[i].schedule.mma() == expected[i]);
  CHECK(all.front().schedule.mma() == MmaSizes{16, 4, 24});
}
