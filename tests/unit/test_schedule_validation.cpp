// Schedules: invalid ones are rejected with a message naming the parameter, its value
// and the limit; the key is readable; the shared buffer follows Eq. 5 with the distinct
// tables of each group (vector components share their scalar tables).
#include <catch2/catch.hpp>

#include "schedule/schedule_words.h"
#include "support/action_cases.h"

using namespace femgpu;
using namespace femgpu::test;

namespace {

std::string rejection(const Schedule &s, const ActionIR &ir, int Q, long long max_shared = kMaxStaticSharedBytes)
{
  try {
    validate(s, ir, Q, max_shared);
  } catch (const std::invalid_argument &e) {
    return e.what();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("invalid schedules are rejected with the parameter, its value and the limit", "[schedule]")
{
  std::mt19937 rng(1);
  ActionData d = make_action(form_cases()[1], 2, 2, 1, rng);  // Laplace P2: one group, n = 6
  const int Q = d.tab.n_points();
  const ActionIR &ir = d.ir;
  const TileSizes good{2, 8, Q, Q, {6}, 6, Q};
  REQUIRE(rejection(Schedule::tiled(good), ir, Q) == "accepted");
  auto with = [&](auto change) {
    TileSizes t = good;
    change(t);
    return rejection(Schedule::tiled(t), ir, Q);
  };
  const std::string q = std::to_string(Q);
  CHECK(with([&](TileSizes &t) { t.quad_tile = Q + 1; }) ==
        "invalid schedule: quad_tile = " + std::to_string(Q + 1) + " must be <= " + q + " (the number of quadrature points)");
  CHECK(with([](TileSizes &t) { t.items_per_cell = 0; }) ==
        "invalid schedule: items_per_cell = 0 must be >= 1 (a loop needs a positive tile)");
  CHECK(with([](TileSizes &t) { t.eval_cols = {3, 3}; }) ==
        "invalid schedule: eval_cols.size() = 2 must be == 1 (one column tile per evaluation group)");
  CHECK(with([](TileSizes &t) { t.eval_cols = {7}; }) ==
        "invalid schedule: eval_cols[0] = 7 must be <= 6 (the group's basis size n)");
  CHECK(with([](TileSizes &t) { t.quad_tile = 2, t.eval_rows = 3; }) ==
        "invalid schedule: eval_rows = 3 must be <= 2 (quad_tile, the loop it tiles)");
  CHECK(with([](TileSizes &t) { t.quad_rows = 7; }) == "invalid schedule: quad_rows = 7 must be <= 6 (the test basis size n_W)");
  CHECK(with([](TileSizes &t) { t.cells_per_group = 64, t.items_per_cell = 32; }) ==
        "invalid schedule: cells_per_group*items_per_cell = 2048 must be <= 1024 (threads per group limit)");
  CHECK(rejection(Schedule::single_cell_per_work_item(0), ir, Q) ==
        "invalid schedule: work_group_size = 0 must be >= 1 (a loop needs a positive tile)");
  const long long bytes = shared_memory_bytes(Schedule::tiled(good), ir);
  CHECK(rejection(Schedule::tiled(good), ir, Q, bytes - 1) ==
        "invalid schedule: shared memory bytes = " + std::to_string(bytes) + " must be <= " + std::to_string(bytes - 1) +
            " (prefetch buffer (Eq. 5) + e[N_c][T^Q][N_eval], with any shared DOF tiles and per-cell values)");
  // Constant tables: SCPWI only, and within constant memory once merged. Laplace P2 in
  // 2D: grad u and grad v, 2 tables each of 6 basis functions, Q rows; merged, one pair.
  CHECK(table_words(ir, Q) == 2LL * 2 * 6 * Q);
  CHECK(table_words(ir, Q, true) == 2LL * 6 * Q);
  const Schedule constant = Schedule::single_cell_per_work_item(64).with_tables(Tables::Constant);
  CHECK(constant_table_bytes(constant, ir, Q) == 8 * 2LL * 2 * 6 * Q);
  CHECK(constant_table_bytes(constant.with_tables(Tables::MergedConstant), ir, Q) == 8 * 2LL * 6 * Q);
  CHECK(constant_table_bytes(constant.with_tables(Tables::Global), ir, Q) == 0);
  CHECK(rejection(constant, ir, 400) == "invalid schedule: constant table bytes = 76800 must be <= 65536 (constant memory)");
  CHECK(rejection(constant.with_tables(Tables::MergedConstant), ir, 400) == "accepted");  // 38400 bytes
  CHECK(rejection(Schedule::single_cell_per_work_item(64).with_tables(Tables::Constant), ir, Q) == "accepted");
  CHECK(rejection(Schedule::tiled(good).with_tables(Tables::Constant), ir, Q) ==
        "invalid schedule: constant tables are for SCPWI; tiled kernels prefetch their tables into shared memory");
  // Interleaved tables are a layout of the tiled kernels' shared prefetch buffer; its
  // size does not change, and no constant memory is used.
  CHECK(rejection(Schedule::tiled(good).with_tables(Tables::Interleaved), ir, Q) == "accepted");
  CHECK(constant_table_bytes(Schedule::tiled(good).with_tables(Tables::Interleaved), ir, Q) == 0);
  CHECK(shared_memory_bytes(Schedule::tiled(good).with_tables(Tables::Interleaved), ir) == shared_memory_bytes(Schedule::tiled(good), ir));
  CHECK(rejection(Schedule::single_cell_per_work_item(64).with_tables(Tables::Interleaved), ir, Q) ==
        "invalid schedule: tables=interleaved is for tiled kernels (the layout of their shared prefetch buffer); SCPWI reads its tables "
        "from global or constant memory");
  const int big_q = 700;  // merged: 12 x 700 x 8 bytes = 67200 > 64 KiB
  CHECK(rejection(Schedule::single_cell_per_work_item(64).with_tables(Tables::MergedConstant), ir, big_q) ==
        "invalid schedule: constant table bytes = 67200 must be <= 65536 (constant memory)");
}

TEST_CASE("a schedule prints as a short key", "[schedule]")
{
  CHECK(to_string(Schedule::single_cell_per_work_item()) == "scpwi wg=32 fp64");
  CHECK(to_string(Schedule::tiled({4, 32, 16, 8, {15}, 15, 8})) == "tiled nc=4 nwi=32 tq=16 ter=8 tec=[15] tqr=15 tqc=8 fp64");
  CHECK(to_string(Schedule::tiled({1, 2, 3, 4, {5, 6}, 7, 8}, Precision::FP32)) ==
        "tiled nc=1 nwi=2 tq=3 ter=4 tec=[5,6] tqr=7 tqc=8 fp32");
}

TEST_CASE("shared memory is Eq. 5 over distinct tables plus the evaluation results, rows padded to odd strides", "[schedule]")
{
  std::mt19937 rng(1);
  ActionData d = make_action(form_cases()[3], 2, 2, 1, rng);  // elasticity, [P2]^2
  const ActionIR &ir = d.ir;
  REQUIRE(ir.groups.size() == 1);
  // Two components x two reference gradients are four terms but two tables.
  REQUIRE(ir.groups[0].terms.size() == 4);
  REQUIRE(ir.groups[0].derivatives.size() == 2);
  const int Q = d.tab.n_points();
  const Schedule eval_bound = Schedule::tiled({3, 8, Q, Q, {6}, 1, 1});
  // T_e^c = 6 words per row, stored as 7 (odd_stride).
  CHECK(odd_stride(6) == 7);
  CHECK(odd_stride(7) == 7);
  CHECK(odd_stride(1) == 1);
  CHECK(prefetch_buffer_words(eval_bound, ir) == 2LL * Q * 7);
  const Schedule quad_bound = Schedule::tiled({3, 8, Q, 1, {1}, 6, Q});
  REQUIRE(Q % 2 == 1);  // T_q^c = Q is odd already
  CHECK(prefetch_buffer_words(quad_bound, ir) == static_cast<long long>(ir.test_derivatives.size()) * 6 * Q);
  // Each of the 3 cells' slices of e holds Q * N_eval words, padded to odd.
  const long long e_words = 3LL * odd_stride(Q * ir.n_eval());
  CHECK(shared_memory_bytes(eval_bound, ir) == 8 * (2LL * Q * 7 + e_words));
  CHECK(shared_memory_bytes(eval_bound.with_precision(Precision::FP32), ir) == 4 * (2LL * Q * 7 + e_words));
  CHECK(shared_memory_bytes(Schedule::single_cell_per_work_item(), ir) == 0);
  CHECK(threads_per_group(eval_bound) == 24);
}

// The scopes of the schedule words' values (schedule_words.h) are what validate() checks of
// a schedule's choices, and what the tuner's twins follow: a schedule of one strategy with
// any two choices changed validates exactly where every value is in its scope.
TEST_CASE("validate() refuses a schedule's choices exactly where a word's scope says they do not apply", "[schedule][schedule_words]")
{
  std::mt19937 rng(1);
  ActionData d = make_action(form_cases()[3], 2, 2, 1, rng);  // elasticity, [P2]^2: lanes=2, constant tables fit
  const int Q = d.tab.n_points();
  const std::vector<Schedule> bases{Schedule::single_cell_per_work_item(), Schedule::single_cell_per_work_item().with_lanes(2),
                                    Schedule::tiled({2, 8, Q, Q, {6}, d.ir.n_test_basis, Q}), Schedule::tensor_core({16, 4, 8}),
                                    Schedule::tensor_core({8, 1, 8, MmaQuadOrder::Rows, MmaOperands::Registers})};
  std::vector<std::pair<const ScheduleWord *, const char *>> values;
  for (const ScheduleWord &w : schedule_words())  // operands=registers asks for sizes (nc = 8 x warps, tq=8), not other choices
    if (!w.scopes.empty())
      for (const char *value : w.choices) values.emplace_back(&w, value);
  int accepted = 0, refused = 0;
  for (const Schedule &base : bases) {
    REQUIRE(rejection(base, d.ir, Q, 1 << 30) == "accepted");
    for (const auto &[w1, v1] : values)
      for (const auto &[w2, v2] : values) {
        if (!word_takes(*w1, base.strategy()) || !word_takes(*w2, base.strategy())) continue;
        const Schedule s = w2->apply(w1->apply(base, v1), v2);
        const bool valid = rejection(s, d.ir, Q, 1 << 30) == "accepted";
        INFO(to_string(s) << ": " << rejection(s, d.ir, Q, 1 << 30));
        CHECK(valid == choices_apply(s));
        ++(valid ? accepted : refused);
      }
  }
  CHECK(accepted > 100);
  CHECK(refused > 100);
}
