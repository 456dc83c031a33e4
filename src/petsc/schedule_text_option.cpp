// The words of a schedule's text, declared once (schedule_text_option.h).
#include "petsc/schedule_text_option.h"

#include <sstream>
#include <vector>

#include "petsc/option_checks.h"

namespace femgpu {

namespace {

struct ScheduleWord {
  const char *key;
  const char *help;
  IntRange range;                     // integer words
  std::vector<const char *> choices;  // text words (then range is unused)
  PetscInt ScheduleRequest::*integer;
  std::string ScheduleRequest::*text;
};

constexpr IntRange kTile{1, 4096};

// In the order schedule.h's to_string writes them. tec= is the one list ("[a,b]").
const std::vector<ScheduleWord> &words()
{
  static const std::vector<ScheduleWord> table = {
      {"wg", "SCPWI: cells per work-group (one work-item each, or lanes=)", {1, 1024}, {}, &ScheduleRequest::work_group, nullptr},
      {"lanes", "SCPWI: work-items per cell, 1 or (vector forms) one per component", {1, 3}, {}, &ScheduleRequest::lanes, nullptr},
      {"nc", "tiled and mma: cells per work-group N_c (mma: a multiple of 8, default 16)", {1, 1024}, {}, &ScheduleRequest::cells_per_group, nullptr},
      {"warps", "mma: warps per work-group (default 4)", {1, 32}, {}, &ScheduleRequest::warps, nullptr},
      {"nwi", "tiled: work-items per cell N_WI", {1, 1024}, {}, &ScheduleRequest::items_per_cell, nullptr},
      {"tq", "tiled and mma: quadrature tile T^Q (mma: a multiple of 8, default min(32, Q rounded up to 8))", kTile, {}, &ScheduleRequest::quad_tile, nullptr},
      {"ter", "tiled: evaluation row tile T_e^r", kTile, {}, &ScheduleRequest::eval_rows, nullptr},
      {"tec", "tiled: evaluation column tiles T_e^c, one per evaluation group ([a,b,...])", kTile, {}, nullptr, nullptr},
      {"tqr", "tiled: quadrature row tile T_q^r", kTile, {}, &ScheduleRequest::quad_rows, nullptr},
      {"tqc", "tiled: quadrature column tile T_q^c", kTile, {}, &ScheduleRequest::quad_cols, nullptr},
      {"dofs", "where a work-item keeps its DOFs", {}, {"registers", "shared"}, nullptr, &ScheduleRequest::dofs},
      {"cells", "tiled: where the per-cell values live", {}, {"registers", "shared"}, nullptr, &ScheduleRequest::cells},
      {"loops", "tiled: private-array loops unrolled or left to the compiler", {}, {"unrolled", "compiler"}, nullptr, &ScheduleRequest::loops},
      {"tables", "where the element tables are read", {}, {"global", "constant", "constant-merged", "interleaved"}, nullptr,
       &ScheduleRequest::tables},
      {"scatter", "how outputs are added (warp: CUDA)", {}, {"atomic", "warp"}, nullptr, &ScheduleRequest::scatter},
      {"groups_per_sm", "CUDA: bound the registers so that this many groups fit on one SM (__launch_bounds__; 0: none)", {0, 64}, {}, &ScheduleRequest::groups_per_sm, nullptr},
  };
  return table;
}

std::string choices_text(const ScheduleWord &w)
{
  std::string s;
  for (const char *c : w.choices) s += (s.empty() ? "" : "|") + std::string(c);
  return s;
}

std::string range_text(const ScheduleWord &w)
{
  if (!w.choices.empty()) return choices_text(w);
  return std::to_string(w.range.min) + "-" + std::to_string(w.range.max);
}

// Sets one "key=value" word; *why says what is wrong with it, else stays empty.
void set_word(const ScheduleWord &w, const std::string &value, ScheduleRequest *r, std::string *why)
{
  if (!w.choices.empty()) {
    for (const char *c : w.choices)
      if (value == c) {
        r->*w.text = value;
        return;
      }
    *why = "is not one of " + choices_text(w);
    return;
  }
  const bool list = value.size() >= 2 && value.front() == '[' && value.back() == ']';
  if ((w.integer == nullptr) != list) {
    *why = w.integer == nullptr ? "is not a list [a,b,...]" : "is not an integer";
    return;
  }
  std::vector<PetscInt> values;
  if (!parse_int_list(list ? value.substr(1, value.size() - 2) : value, w.range, &values, why)) return;
  if (list) {
    r->eval_cols = values;
  } else if (values.size() != 1) {
    *why = "is not one integer";
  } else {
    r->*w.integer = values[0];
  }
}

}  // namespace

PetscErrorCode ScheduleRequestFromText_FEMGPU(const char *option, const std::string &text, ScheduleRequest *r)
{
  std::istringstream is(text);
  std::string word;
  PetscFunctionBegin;
  PetscCheck(is >> word, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "%s \"%s\": empty; it starts with scpwi, tiled or mma", option, text.c_str());
  PetscCheck(word == "scpwi" || word == "tiled" || word == "mma", PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
             "%s \"%s\": it starts with scpwi, tiled or mma, not '%s'", option, text.c_str(), word.c_str());
  // The text alone fixes the schedule: what it leaves out is completed at setup.
  ScheduleRequest fresh;
  fresh.device = r->device, fresh.precision = r->precision, fresh.loops = r->loops;  // options of their own
  *r = fresh;
  r->strategy = word;
  while (is >> word) {
    if (word == "fp64" || word == "fp32") {
      r->precision = word;
      continue;
    }
    const auto eq = word.find('=');
    const std::string key = word.substr(0, eq);
    const ScheduleWord *w = nullptr;
    for (const ScheduleWord &k : words())
      if (eq != std::string::npos && key == k.key) w = &k;
    PetscCheck(w, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "%s \"%s\": unknown word '%s' (words: %s)", option, text.c_str(), word.c_str(),
               schedule_text_help().c_str());
    std::string why;
    set_word(*w, word.substr(eq + 1), r, &why);
    PetscCheck(why.empty(), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s \"%s\": '%s' %s (%s=%s)", option, text.c_str(), word.c_str(), why.c_str(),
               w->key, range_text(*w).c_str());
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

std::string schedule_text_help()
{
  std::string s = "scpwi|tiled|mma";
  for (const ScheduleWord &w : words()) s += std::string(" ") + w.key + "=" + range_text(w);
  return s + " fp64|fp32";
}

std::string schedule_text_docs_table()
{
  std::string s = "| word | values | meaning |\n|---|---|---|\n";
  for (const ScheduleWord &w : words()) {
    std::string range;
    for (char c : range_text(w)) range += c == '|' ? std::string("\\|") : std::string(1, c);  // Markdown cells
    s += std::string("| `") + w.key + "=` | " + range + " | " + w.help + " |\n";
  }
  return s;
}

}  // namespace femgpu
