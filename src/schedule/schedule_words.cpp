// The table of schedule words (schedule_words.h) and the reader built on it.
#include "schedule/schedule_words.h"

#include <algorithm>
#include <sstream>
#include <utility>

namespace femgpu {

namespace {

using S = Strategy;
// Functions, not globals: the table may be built during another file's static initialization.
std::vector<Strategy> all_kinds() { return {S::SingleCellPerWorkItem, S::Tiled, S::TensorCore}; }

int to_int(const std::string &v) { return std::stoi(v); }

bool is_scpwi(const Schedule &s) { return s.strategy() == S::SingleCellPerWorkItem; }
bool is_tiled(const Schedule &s) { return s.strategy() == S::Tiled; }
bool scpwi_one_lane(const Schedule &s) { return is_scpwi(s) && s.lanes() == 1; }

// `w` with the scopes of its values (schedule_words.h's ValueScope).
ScheduleWord scoped(ScheduleWord w, std::vector<ValueScope> scopes)
{
  w.scopes = std::move(scopes);
  return w;
}

// A tiled schedule's tile, or a tensor-core schedule's size, read and set by one word.
ScheduleWord tile_word(const char *key, const char *help, int max, int TileSizes::*tile, int MmaSizes::*mma = nullptr)
{
  auto print = [tile, mma](const Schedule &s) {
    if (s.strategy() == S::Tiled) return std::to_string(s.tiles().*tile);
    return s.strategy() == S::TensorCore && mma ? std::to_string(s.mma().*mma) : std::string();
  };
  auto apply = [tile, mma](const Schedule &s, const std::string &v) {
    if (s.strategy() == S::TensorCore) {
      MmaSizes m = s.mma();
      m.*mma = to_int(v);
      return s.with_mma(m);
    }
    TileSizes t = s.tiles();
    t.*tile = to_int(v);
    return s.with_tiles(t);
  };
  return {key, WordKind::Integer, 1, max, {}, mma ? std::vector<Strategy>{S::Tiled, S::TensorCore} : std::vector<Strategy>{S::Tiled}, help, print, apply};
}

// A choice word: its texts in the order of `values` (the first is the default).
template <class E>
ScheduleWord choice_word(const char *key, const char *help, std::vector<const char *> names, std::vector<E> values, E (Schedule::*get)() const,
                         Schedule (Schedule::*set)(E) const)
{
  auto print = [names, values, get](const Schedule &s) {
    for (size_t i = 1; i < values.size(); ++i)
      if ((s.*get)() == values[i]) return std::string(names[i]);
    return std::string();
  };
  auto apply = [names, values, set](const Schedule &s, const std::string &v) {
    for (size_t i = 0; i < values.size(); ++i)
      if (v == names[i]) return (s.*set)(values[i]);
    return s;
  };
  return {key, WordKind::Choice, 0, 0, names, all_kinds(), help, print, apply};
}

// A tensor-core choice word: an MmaSizes enum member, its texts in the order of the enum's
// values (the first, value 0, is the default and is not printed).
template <class E>
ScheduleWord mma_choice_word(const char *key, const char *help, std::vector<const char *> names, E MmaSizes::*member)
{
  auto print = [names, member](const Schedule &s) {
    const int i = s.strategy() == S::TensorCore ? static_cast<int>(s.mma().*member) : 0;
    return i == 0 ? std::string() : std::string(names[static_cast<size_t>(i)]);
  };
  auto apply = [names, member](const Schedule &s, const std::string &v) {
    MmaSizes m = s.mma();
    for (size_t i = 0; i < names.size(); ++i)
      if (v == names[i]) m.*member = static_cast<E>(i);
    return s.with_mma(m);
  };
  return {key, WordKind::Choice, 0, 0, names, {S::TensorCore}, help, print, apply};
}

std::string list_text(const std::vector<int> &v)
{
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

std::vector<int> read_list(const std::string &v)
{
  std::vector<int> out;
  std::istringstream is(v.substr(1, v.size() - 2));
  for (std::string item; std::getline(is, item, ',');) out.push_back(to_int(item));
  return out;
}

// The sizes: SCPWI's group and lanes, the tiled and tensor-core tiles.
std::vector<ScheduleWord> size_words()
{
  constexpr int kTile = 4096;
  std::vector<ScheduleWord> w;
  w.push_back({"wg", WordKind::Integer, 1, kMaxThreadsPerGroup, {}, {S::SingleCellPerWorkItem}, "SCPWI: cells per work-group (one work-item each, or lanes=)",
               [](const Schedule &s) { return s.strategy() == S::SingleCellPerWorkItem ? std::to_string(s.work_group_size()) : ""; },
               [](const Schedule &s, const std::string &v) { return s.with_work_group_size(to_int(v)); }});
  w.push_back({"lanes", WordKind::Integer, 1, 3, {}, {S::SingleCellPerWorkItem}, "SCPWI: work-items per cell, 1 or (vector forms) one per component",
               [](const Schedule &s) { return s.lanes() != 1 ? std::to_string(s.lanes()) : ""; },
               [](const Schedule &s, const std::string &v) { return s.with_lanes(to_int(v)); }});
  w.push_back(tile_word("nc", "tiled and mma: cells per work-group N_c (mma: a multiple of 8, default 16)", kMaxThreadsPerGroup,
                        &TileSizes::cells_per_group, &MmaSizes::cells_per_group));
  w.push_back({"warps", WordKind::Integer, 1, 32, {}, {S::TensorCore}, "mma: warps per work-group (default 4)",
               [](const Schedule &s) { return s.strategy() == S::TensorCore ? std::to_string(s.mma().warps) : ""; },
               [](const Schedule &s, const std::string &v) {
                 MmaSizes m = s.mma();
                 m.warps = to_int(v);
                 return s.with_mma(m);
               }});
  w.push_back(tile_word("nwi", "tiled: work-items per cell N_WI", kMaxThreadsPerGroup, &TileSizes::items_per_cell));
  w.push_back(tile_word("tq", "tiled and mma: quadrature tile T^Q (mma: a multiple of 8, default min(32, Q rounded up to 8))", kTile,
                        &TileSizes::quad_tile, &MmaSizes::quad_tile));
  w.push_back(scoped(mma_choice_word("quad",
                                     "mma: the quadrature's outer loop, the warp's row tiles or the steps of 4 points (each s_f fragment loaded "
                                     "once a step)",
                                     {"rows", "steps"}, &MmaSizes::quad_order),
                     {{"steps", [](const Schedule &s) { return s.mma().operands == MmaOperands::Shared; },
                       "operands=registers has no quadrature product, so quad=steps does not apply"}}));
  w.push_back(mma_choice_word("operands",
                              "mma: the products' operands in shared memory, or (identity test tables, nc = 8 x warps, tq=8) in each warp's registers",
                              {"shared", "registers"}, &MmaSizes::operands));
  w.push_back(tile_word("ter", "tiled: evaluation row tile T_e^r", kTile, &TileSizes::eval_rows));
  w.push_back({"tec", WordKind::IntegerList, 1, kTile, {}, {S::Tiled}, "tiled: evaluation column tiles T_e^c, one per evaluation group",
               [](const Schedule &s) { return s.strategy() == S::Tiled ? list_text(s.tiles().eval_cols) : ""; },
               [](const Schedule &s, const std::string &v) {
                 TileSizes t = s.tiles();
                 t.eval_cols = read_list(v);
                 return s.with_tiles(t);
               }});
  w.push_back(tile_word("tqr", "tiled: quadrature row tile T_q^r", kTile, &TileSizes::quad_rows));
  w.push_back(tile_word("tqc", "tiled: quadrature column tile T_q^c", kTile, &TileSizes::quad_cols));
  return w;
}

// Where things live and how they are added: one choice each, and the register bound.
// The scopes are validate()'s (schedule_validation.cpp): an mma or assembled schedule
// takes none of these choices but own=plain (validate() says so in one list).
std::vector<ScheduleWord> placement_words()
{
  std::vector<ScheduleWord> w;
  w.push_back(scoped(choice_word("dofs", "where a work-item keeps its DOFs", {"registers", "shared"}, std::vector<Dofs>{Dofs::Registers, Dofs::Shared},
                                 &Schedule::dofs, &Schedule::with_dofs),
                     {{"shared", [](const Schedule &s) { return is_tiled(s) || scpwi_one_lane(s); },
                       "dofs=shared is for tiled kernels and SCPWI kernels of one work-item a cell: it keeps whole cells in shared memory"}}));
  w.push_back(scoped(choice_word("cells", "tiled: where the per-cell values live", {"registers", "shared"},
                                 std::vector<CellValues>{CellValues::Registers, CellValues::Shared}, &Schedule::cell_values,
                                 &Schedule::with_cell_values),
                     {{"shared", is_tiled,
                       "cells=shared is for tiled kernels, whose cells' work-items read the per-cell values in turns; an SCPWI work-item holds its "
                       "own cell's"}}));
  w.push_back(scoped(choice_word("loops", "tiled: private-array loops left to the compiler or unrolled", {"compiler", "unrolled"},
                                 std::vector<Loops>{Loops::Compiler, Loops::Unrolled}, &Schedule::loops, &Schedule::with_loops),
                     {{"unrolled", is_tiled, "loops=unrolled is for tiled kernels; SCPWI's loops over basis functions are unrolled already"}}));
  const char *constant = "constant tables are for SCPWI; tiled kernels prefetch their tables into shared memory";
  w.push_back(scoped(choice_word("tables", "where the element tables are read (constant: SCPWI; interleaved: tiled)",
                                 {"global", "constant", "constant-merged", "interleaved"},
                                 std::vector<Tables>{Tables::Global, Tables::Constant, Tables::MergedConstant, Tables::Interleaved}, &Schedule::tables,
                                 &Schedule::with_tables),
                     {{"constant", is_scpwi, constant},
                      {"constant-merged", is_scpwi, constant},
                      {"interleaved", is_tiled,
                       "tables=interleaved is for tiled kernels (the layout of their shared prefetch buffer); SCPWI reads its tables from global or "
                       "constant memory"}}));
  w.push_back(scoped(choice_word("scatter", "how outputs are added (warp: CUDA; staged: SCPWI, a group's cells entry by entry)",
                                 {"atomic", "warp", "staged"}, std::vector<Scatter>{Scatter::Atomic, Scatter::Warp, Scatter::Staged},
                                 &Schedule::scatter, &Schedule::with_scatter),
                     {{"warp", [](const Schedule &s) { return is_scpwi(s) || is_tiled(s); }, "scatter=warp is for SCPWI and tiled kernels"},
                      {"staged", [](const Schedule &s) { return scpwi_one_lane(s) && s.dofs() == Dofs::Registers; },
                       "scatter=staged is for SCPWI kernels of one work-item a cell with dofs=registers (each work-item stages its cell's outputs "
                       "in shared memory for the group's scatter)"},
                      {"staged", [](const Schedule &s) { return s.own_dofs() == OwnDofs::Atomic; },
                       "scatter=staged adds every staged entry atomically; own=plain does not apply to it"}}));
  // Each (cell, own DOF) added by one work-item once a launch: SCPWI of one lane, and the
  // tensor-core kernel with its operands in registers (one lane a (cell, point) pair).
  w.push_back(scoped(choice_word("own", "SCPWI and mma operands=registers: how a cell's own (interior) DOFs are added", {"atomic", "plain"},
                                 std::vector<OwnDofs>{OwnDofs::Atomic, OwnDofs::Plain}, &Schedule::own_dofs, &Schedule::with_own_dofs),
                     {{"plain",
                       [](const Schedule &s) {
                         return scpwi_one_lane(s) || (s.strategy() == S::TensorCore && s.mma().operands == MmaOperands::Registers);
                       },
                       "own=plain is for SCPWI kernels of one work-item a cell and mma kernels with operands=registers; the others add to every DOF "
                       "atomically"}}));
  w.push_back({"groups_per_sm", WordKind::Integer, 1, kMaxGroupsPerSM, {}, all_kinds(),
               "CUDA: bound the registers so that this many groups fit on one SM (__launch_bounds__; left out: no bound)",
               [](const Schedule &s) { return s.groups_per_sm() > 0 ? std::to_string(s.groups_per_sm()) : ""; },
               [](const Schedule &s, const std::string &v) { return s.with_groups_per_sm(to_int(v)); }});
  return w;
}

std::vector<ScheduleWord> make_words()
{
  std::vector<ScheduleWord> w = size_words();
  for (ScheduleWord &more : placement_words()) w.push_back(std::move(more));
  return w;
}

[[noreturn]] void refuse(const std::string &text, const std::string &why, bool out_of_range = false)
{
  throw ScheduleTextError(text, why, out_of_range);
}

// A word as a message quotes it: a long one by its two ends.
std::string quoted(const std::string &word) { return "'" + excerpt(word) + "'"; }

// One decimal integer in [min, max], written as to_string writes it (no sign, no leading
// zero); "" or why not. A negative or too long number is out of range, not unreadable.
std::string check_integer(const ScheduleWord &w, const std::string &v)
{
  const std::string digits = !v.empty() && v[0] == '-' ? v.substr(1) : v;
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos || (digits[0] == '0' && digits != "0"))
    return "is not a decimal integer";
  if (digits.size() > 9 || digits.size() < v.size()) return "is out of range";
  const int x = std::stoi(digits);
  return x < w.min || x > w.max ? "is out of range" : "";
}

// "" when `value` is one of w's values, else why not; *range: the why is a range.
std::string check_value(const ScheduleWord &w, const std::string &value, bool *range)
{
  *range = true;
  if (w.kind == WordKind::Choice) {
    for (const char *c : w.choices)
      if (value == c) return "";
    return "is not one of its choices";
  }
  if (w.kind == WordKind::Integer) {
    const std::string why = check_integer(w, value);
    *range = why == "is out of range";
    return why;
  }
  *range = false;
  if (value.size() < 3 || value.front() != '[' || value.back() != ']') return "is not a list [a,b,...]";
  std::istringstream is(value.substr(1, value.size() - 2));
  std::string item;
  size_t n = 0, commas = static_cast<size_t>(std::count(value.begin(), value.end(), ','));
  for (; std::getline(is, item, ','); ++n) {
    const std::string why = check_integer(w, item);
    *range = why == "is out of range";
    if (!why.empty()) return "has an entry " + quoted(item) + " that " + why;
  }
  return n == commas + 1 ? "" : "has an empty entry";
}

}  // namespace

const std::vector<ScheduleWord> &schedule_words()
{
  static const std::vector<ScheduleWord> table = make_words();
  return table;
}

bool word_takes(const ScheduleWord &w, Strategy s) { return std::find(w.strategies.begin(), w.strategies.end(), s) != w.strategies.end(); }

const ScheduleWord *find_schedule_word(const std::string &key)
{
  for (const ScheduleWord &w : schedule_words())
    if (key == w.key) return &w;
  return nullptr;
}

std::string word_values(const ScheduleWord &w)
{
  if (w.kind == WordKind::Choice) {
    std::string s;
    for (const char *c : w.choices) s += (s.empty() ? "" : "|") + std::string(c);
    return s;
  }
  const std::string range = std::to_string(w.min) + "-" + std::to_string(w.max);
  return w.kind == WordKind::Integer ? range : "[" + range + ",...]";
}

std::string choice_value(const ScheduleWord &w, const Schedule &s)
{
  const std::string printed = w.print(s);
  return printed.empty() ? w.choices.at(0) : printed;
}

const ValueScope *refused_scope(const Schedule &s, const std::string &key)
{
  const ScheduleWord *w = find_schedule_word(key);
  if (!w || w->scopes.empty()) return nullptr;
  const std::string value = choice_value(*w, s);
  for (const ValueScope &scope : w->scopes)
    if (value == scope.value && !scope.applies(s)) return &scope;
  return nullptr;
}

bool choices_apply(const Schedule &s)
{
  for (const ScheduleWord &w : schedule_words())
    if (refused_scope(s, w.key)) return false;
  return true;
}

const char *strategy_name(Strategy s)
{
  return s == Strategy::SingleCellPerWorkItem ? "scpwi" : s == Strategy::Tiled ? "tiled" : s == Strategy::TensorCore ? "mma" : "assembled";
}

const std::string *ScheduleText::find(const std::string &key) const
{
  for (const auto &[k, v] : words)
    if (k == key) return &v;
  return nullptr;
}

ScheduleText read_schedule_text(const std::string &text)
{
  // A no-break space looks like a space but splits no word: name it, not the word it joins.
  if (const std::string odd = unusual_character(text); !odd.empty()) refuse(text, odd);
  std::istringstream is(text);
  std::string word;
  ScheduleText t;
  if (!(is >> word)) refuse(text, "it is empty; it starts with scpwi, tiled, mma or assembled");
  const Strategy all[] = {S::SingleCellPerWorkItem, S::Tiled, S::TensorCore, S::Assembled};
  bool known = false;
  for (Strategy s : all)
    if (word == strategy_name(s)) t.strategy = s, known = true;
  if (!known) refuse(text, "it starts with scpwi, tiled, mma or assembled, not " + quoted(word));
  while (is >> word) {
    if (t.precision) refuse(text, quoted(word) + " after the precision, which comes last");
    if (word == "fp64" || word == "fp32") {
      t.precision = word == "fp64" ? Precision::FP64 : Precision::FP32;
      continue;
    }
    const size_t eq = word.find('=');
    const ScheduleWord *w = eq == std::string::npos ? nullptr : find_schedule_word(word.substr(0, eq));
    if (!w) refuse(text, "unknown word " + quoted(word) + " (words: " + schedule_text_help() + ")");
    if (!word_takes(*w, t.strategy)) refuse(text, quoted(word) + ": " + w->key + "= is not a word of " + strategy_name(t.strategy) + " schedules");
    if (t.find(w->key)) refuse(text, quoted(word) + ": " + w->key + "= is given twice");
    bool range = false;
    const std::string value = word.substr(eq + 1), why = check_value(*w, value, &range);
    if (!why.empty()) refuse(text, quoted(word) + " " + why + " (" + w->key + "=" + word_values(*w) + ")", range);
    t.words.emplace_back(w->key, value);
  }
  return t;
}

Schedule schedule_from_text(const ScheduleText &t, Precision precision)
{
  Schedule s = t.strategy == S::Tiled        ? Schedule::tiled({})
               : t.strategy == S::TensorCore ? Schedule::tensor_core({})
               : t.strategy == S::Assembled  ? Schedule::assembled()
                                             : Schedule::single_cell_per_work_item();
  s = s.with_precision(t.precision.value_or(precision));
  for (const auto &[key, value] : t.words) s = find_schedule_word(key)->apply(s, value);
  return s;
}

std::string schedule_text_help()
{
  std::string s = "scpwi|tiled|mma|assembled";
  for (const ScheduleWord &w : schedule_words()) s += std::string(" ") + w.key + "=" + word_values(w);
  return s + " fp64|fp32";
}

std::string schedule_words_docs_table()
{
  std::string s = "| word | values | schedules | meaning |\n|---|---|---|---|\n";
  for (const ScheduleWord &w : schedule_words()) {
    std::string values, kinds;
    for (char c : word_values(w)) values += c == '|' ? std::string("\\|") : std::string(1, c);  // Markdown cells
    for (Strategy k : w.strategies) kinds += (kinds.empty() ? "" : ", ") + std::string(strategy_name(k));
    s += std::string("| `") + w.key + "=` | " + values + " | " + kinds + " | " + w.help + " |\n";
  }
  return s;
}

}  // namespace femgpu
