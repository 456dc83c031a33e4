// A schedule reads back from its printed form exactly, and nothing else reads as one.
#include <catch2/catch.hpp>

#include "schedule/schedule.h"

using namespace femgpu;

namespace {

bool same(const Schedule &a, const Schedule &b) { return to_string(a) == to_string(b) && a.strategy() == b.strategy(); }

}  // namespace

TEST_CASE("schedules round-trip through to_string and parse_schedule", "[schedule][cache]")
{
  const Schedule cases[] = {
      Schedule::single_cell_per_work_item(),
      Schedule::single_cell_per_work_item(128, Precision::FP32),
      Schedule::tiled({4, 32, 16, 8, {15}, 15, 8}),
      Schedule::tiled({1, 2, 3, 4, {5, 6}, 7, 8}, Precision::FP32),
      Schedule::tiled({256, 1, 3, 3, {6, 2, 10}, 6, 3}, Precision::FP64),
      Schedule::single_cell_per_work_item(64).with_dofs(Dofs::Shared),
      Schedule::tiled({4, 8, 6, 6, {6}, 6, 6}, Precision::FP32).with_dofs(Dofs::Shared),
      Schedule::single_cell_per_work_item(128).with_tables(Tables::Constant),
      Schedule::single_cell_per_work_item(32, Precision::FP32).with_dofs(Dofs::Shared).with_tables(Tables::Constant),
      Schedule::single_cell_per_work_item(256).with_tables(Tables::MergedConstant),
      Schedule::single_cell_per_work_item(32).with_lanes(2),
      Schedule::single_cell_per_work_item(64).with_lanes(3).with_tables(Tables::Constant),
      Schedule::single_cell_per_work_item(128, Precision::FP32).with_lanes(2).with_tables(Tables::MergedConstant),
      Schedule::single_cell_per_work_item(32).with_scatter(Scatter::Warp),
      Schedule::single_cell_per_work_item(64).with_lanes(3).with_tables(Tables::Constant).with_scatter(Scatter::Warp),
      Schedule::tiled({4, 8, 6, 6, {6}, 6, 6}).with_dofs(Dofs::Shared).with_loops(Loops::Unrolled).with_scatter(Scatter::Warp),
      Schedule::tiled({4, 8, 6, 6, {6}, 6, 6}).with_loops(Loops::Unrolled).with_tables(Tables::Interleaved),
      Schedule::tiled({2, 4, 6, 3, {6, 2}, 6, 3}, Precision::FP32).with_dofs(Dofs::Shared).with_tables(Tables::Interleaved).with_scatter(Scatter::Warp),
  };
  for (const Schedule &s : cases) {
    INFO(to_string(s));
    const Schedule back = parse_schedule(to_string(s));
    CHECK(same(back, s));
    CHECK(back.precision() == s.precision());
    CHECK(back.dofs() == s.dofs());
    CHECK(back.tables() == s.tables());
    CHECK(back.scatter() == s.scatter());
    CHECK(back.loops() == s.loops());
    if (s.strategy() == Strategy::Tiled) {
      CHECK(back.tiles().eval_cols == s.tiles().eval_cols);
      CHECK(back.tiles().cells_per_group == s.tiles().cells_per_group);
      CHECK(back.tiles().quad_cols == s.tiles().quad_cols);
    } else {
      CHECK(back.work_group_size() == s.work_group_size());
      CHECK(back.lanes() == s.lanes());
    }
  }
}

TEST_CASE("parse_schedule refuses text to_string would not write", "[schedule][cache]")
{
  const char *bad[] = {
      "",
      "scpwi wg=32",                                             // no precision
      "scpwi wg=32 fp16",                                        //
      "scpwi wg=0 fp64",                                         // not positive
      "scpwi wg=-4 fp64",                                        //
      "scpwi wg=032 fp64",                                       // not canonical
      "scpwi wg=3x fp64",                                        //
      "scpwi wg=99999999999 fp64",                               // too large
      "scpwi  wg=32 fp64",                                       // two spaces: not canonical
      "scpwi wg=32 fp64 ",                                       //
      "tiled nc=4 nwi=32 tq=16 ter=8 tec=[15] tqr=15 fp64",      // a size missing
      "tiled nc=4 nwi=32 tq=16 ter=8 tec=15 tqr=15 tqc=8 fp64",  // no brackets
      "tiled nc=4 nwi=32 tq=16 ter=8 tec=[15,] tqr=15 tqc=8 fp64",
      "tiled nc=4 nwi=32 tq=16 ter=8 tec=[,15] tqr=15 tqc=8 fp64",
      "tiled nwi=32 nc=4 tq=16 ter=8 tec=[15] tqr=15 tqc=8 fp64",  // order
      "blocked wg=32 fp64",
      "scpwi wg=32 dofs=shared",             // no precision
      "scpwi wg=32 fp64 dofs=shared",        // order
      "scpwi dofs=shared wg=32 fp64",        //
      "scpwi wg=32 dofs=registers fp64",     // the default, not written
      "scpwi wg=32 dofs=shared dofs=shared fp64",
      "scpwi wg=32 tables=constant dofs=shared fp64",  // order
      "scpwi wg=32 tables=global fp64",                // the default, not written
      "scpwi wg=32 tables=constant tables=constant fp64",
      "tiled nc=4 nwi=8 tq=6 ter=6 tec=[6] tqr=6 tqc=6 tables=interleaved loops=unrolled fp64",  // order
      "tiled nc=4 nwi=8 tq=6 ter=6 tec=[6] tqr=6 tqc=6 tables=interleaved tables=interleaved fp64",
      "scpwi wg=32 tables=merged fp64",
      "scpwi wg=32 tables=constant-merged tables=constant fp64",
      "scpwi wg=32 lanes=1 fp64",             // the default, not written
      "scpwi wg=32 lanes=0 fp64",             //
      "scpwi lanes=2 wg=32 fp64",             // order
      "scpwi wg=32 tables=constant lanes=2 fp64",
      "scpwi wg=32 lanes=2 lanes=2 fp64",
      "tiled nc=4 nwi=32 tq=16 ter=8 tec=[15] tqr=15 tqc=8 lanes=2 fp64",
      "scpwi wg=32 scatter=atomic fp64",                // the default, not written
      "scpwi wg=32 scatter=warp tables=constant fp64",  // order
      "scpwi wg=32 scatter=warp scatter=warp fp64",
      "scpwi wg=32 scatter=shared fp64",
      "scpwi wg=32 fp64 scatter=warp",
  };
  for (const char *text : bad) {
    INFO(text);
    CHECK_THROWS_AS(parse_schedule(text), std::invalid_argument);
  }
}
