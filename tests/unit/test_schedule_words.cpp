// Every schedule's printed text reads back as that schedule, through both readers made
// from the one table of schedule words: the tuning cache's strict parse_schedule and the
// option's partial reader completed at setup (-mat_fem_gpu_schedule), over schedules of
// every strategy and every value of every word.
#include <catch2/catch.hpp>

#include <set>

#include "schedule/schedule_words.h"

using namespace femgpu;

namespace {

// Every field that a schedule's text holds (to_string could drop one by mistake).
bool same(const Schedule &a, const Schedule &b)
{
  const bool kind = a.strategy() == b.strategy() && a.precision() == b.precision() && a.dofs() == b.dofs() &&
                    a.cell_values() == b.cell_values() && a.tables() == b.tables() && a.loops() == b.loops() && a.scatter() == b.scatter() &&
                    a.own_dofs() == b.own_dofs() && a.groups_per_sm() == b.groups_per_sm();
  if (!kind) return false;
  if (a.strategy() == Strategy::Tiled) return a.tiles() == b.tiles();
  if (a.strategy() == Strategy::TensorCore) return a.mma() == b.mma();
  return a.work_group_size() == b.work_group_size() && a.lanes() == b.lanes();
}

// A form-free IR with `groups` evaluation groups (completion reads only their count).
ActionIR ir_with_groups(size_t groups)
{
  ActionIR ir;
  ir.groups.resize(groups);
  for (EvalGroup &g : ir.groups) g.n_basis = 10;
  ir.n_test_basis = 10;
  return ir;
}

// Schedules of every strategy, crossed with every choice each word has and register bounds.
std::vector<Schedule> many_schedules()
{
  std::vector<Schedule> bases;
  for (int wg : {1, 32, 1024})
    for (int lanes : {1, 2, 3}) bases.push_back(Schedule::single_cell_per_work_item(wg).with_lanes(lanes));
  for (const TileSizes &t : {TileSizes{1, 32, 1, 1, {1}, 1, 1}, TileSizes{4, 8, 6, 3, {6, 2}, 6, 3}, TileSizes{256, 4, 4096, 17, {5, 9, 4096}, 36, 11}})
    bases.push_back(Schedule::tiled(t));
  for (const MmaSizes &m : {MmaSizes{8, 1, 8}, MmaSizes{16, 4, 32, MmaQuadOrder::Steps}, MmaSizes{1024, 32, 4096},
                            MmaSizes{32, 4, 8, MmaQuadOrder::Rows, MmaOperands::Registers}})
    bases.push_back(Schedule::tensor_core(m));
  std::vector<Schedule> out;
  for (const Schedule &b : bases)
    for (Precision p : {Precision::FP64, Precision::FP32})
      for (Dofs d : {Dofs::Registers, Dofs::Shared})
        for (CellValues c : {CellValues::Registers, CellValues::Shared})
          for (Loops l : {Loops::Compiler, Loops::Unrolled})
            for (Tables t : {Tables::Global, Tables::Constant, Tables::MergedConstant, Tables::Interleaved})
              for (Scatter sc : {Scatter::Atomic, Scatter::Warp})
                for (OwnDofs o : {OwnDofs::Atomic, OwnDofs::Plain})
                  for (int k : {0, 1, 32})
                    out.push_back(
                        b.with_precision(p).with_dofs(d).with_cell_values(c).with_loops(l).with_tables(t).with_scatter(sc).with_own_dofs(o).with_groups_per_sm(k));
  return out;
}

}  // namespace

TEST_CASE("schedule words: every printed schedule reads back through both readers", "[schedule][schedule_words]")
{
  const std::vector<Schedule> schedules = many_schedules();
  std::set<std::string> printed_words;
  for (const Schedule &s : schedules) {
    const std::string text = to_string(s);
    INFO(text);
    const Schedule strict = parse_schedule(text);
    CHECK(same(strict, s));
    CHECK(to_string(strict) == text);
    // Pasted into -mat_fem_gpu_schedule: completion adds nothing to a whole text, and
    // the option's precision gives way to the text's.
    const ScheduleText given = read_schedule_text(text);
    const Precision other = s.precision() == Precision::FP64 ? Precision::FP32 : Precision::FP64;
    const size_t groups = s.strategy() == Strategy::Tiled ? s.tiles().eval_cols.size() : 1;
    CHECK(same(completed_schedule(given, ir_with_groups(groups), 64, other), s));
    for (const auto &[key, value] : given.words) printed_words.insert(key);
  }
  // The cases print every word of the table, so a new word cannot go untested.
  for (const ScheduleWord &w : schedule_words()) CHECK(printed_words.count(w.key) == 1);
}

TEST_CASE("schedule words: a partial text is completed for the form", "[schedule][schedule_words]")
{
  const ActionIR ir = ir_with_groups(2);
  const Schedule t = completed_schedule(read_schedule_text("tiled nc=2 nwi=8 tec=[3]"), ir, 12, Precision::FP64);
  CHECK(to_string(t) == "tiled nc=2 nwi=8 tq=12 ter=12 tec=[3,10] tqr=10 tqc=12 fp64");  // left out: compiler loops, as printed
  CHECK(to_string(completed_schedule(read_schedule_text("tiled tq=5 loops=unrolled fp32"), ir, 12, Precision::FP64)) ==
        "tiled nc=1 nwi=32 tq=5 ter=5 tec=[10,10] tqr=10 tqc=5 loops=unrolled fp32");
  CHECK(to_string(completed_schedule(read_schedule_text("mma"), ir, 12, Precision::FP64)) == "mma nc=16 warps=4 tq=16 fp64");
  CHECK(to_string(completed_schedule(read_schedule_text("mma"), ir, 61, Precision::FP64)) == "mma nc=16 warps=4 tq=32 fp64");
  CHECK(to_string(completed_schedule(read_schedule_text("scpwi"), ir, 12, Precision::FP32)) == "scpwi wg=32 fp32");
  CHECK_THROWS_WITH(completed_schedule(read_schedule_text("tiled tec=[1,2,3]"), ir, 12, Precision::FP64),
                    Catch::Contains("tec= has 3 entries; the form has 2 evaluation groups"));
}

TEST_CASE("schedule words: a word that cannot be read is named, with its range", "[schedule][schedule_words]")
{
  struct Bad {
    const char *text, *named;
    bool out_of_range;
  };
  const Bad bad[] = {
      {"tiled nc=0", "'nc=0' is out of range (nc=1-1024)", true},
      {"tiled tec=[3,5000]", "entry '5000' that is out of range", true},
      {"tiled tec=[3,x]", "entry 'x' that is not a decimal integer", false},
      {"tiled tec=3", "is not a list", false},
      {"tiled dofs=disk", "'dofs=disk' is not one of its choices (dofs=registers|shared)", true},
      {"tiled twirl=3", "unknown word 'twirl=3'", false},
      {"scpwi nc=4", "nc= is not a word of scpwi schedules", false},
      {"tiled lanes=2", "lanes= is not a word of tiled schedules", false},
      {"mma nwi=2", "nwi= is not a word of mma schedules", false},
      {"tiled nc=2 nc=4", "nc= is given twice", false},
      {"scpwi fp64 wg=32", "after the precision", false},
      {"tiles nc=2", "it starts with scpwi, tiled, mma or assembled, not 'tiles'", false},
      {"", "it is empty", false},
  };
  for (const Bad &b : bad) {
    INFO(b.text);
    try {
      (void)read_schedule_text(b.text);
      FAIL("read");
    } catch (const ScheduleTextError &e) {
      CHECK_THAT(e.why, Catch::Contains(b.named));
      CHECK(e.out_of_range == b.out_of_range);
    }
  }
}

TEST_CASE("schedule words: -help and the docs table list every word with its values", "[schedule][schedule_words]")
{
  const std::string help = schedule_text_help(), table = schedule_words_docs_table();
  for (const ScheduleWord &w : schedule_words()) {
    INFO(w.key);
    CHECK_THAT(help, Catch::Contains(std::string(" ") + w.key + "=" + word_values(w)));
    CHECK_THAT(table, Catch::Contains(std::string("| `") + w.key + "=` |"));
  }
  CHECK_THAT(help, Catch::Contains("tec=[1-4096,...]") && Catch::Contains("tables=global|constant|constant-merged|interleaved"));
}
