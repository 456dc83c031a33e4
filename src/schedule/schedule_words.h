// The words of a schedule's text, each declared once (STYLE.md habit 14): its key, kind,
// range or choices, the strategies that take it, its help line, how a Schedule prints it
// and how it sets it. Everything else about schedule text is made from that one table:
// to_string and parse_schedule (schedule_text.cpp, the tuning cache's form),
// -mat_fem_gpu_schedule's parser, range checks and -help (src/petsc), completion of a
// partial text at setup (schedule_completion.cpp) and the words table of docs/petsc.md.
// A value that applies only to some schedules says where (its scope): validate() refuses
// it elsewhere, and the tuner's twins and the GPU check's sample (tune/tune_moves.h) are
// made only where it applies.
//
// Takes: a text "<strategy> key=value ... [fp64|fp32]".
// Returns: its words, each checked against its declaration, or a ScheduleTextError that
// names the word, what is wrong and the range or choices it must be in.
// Does not: check a schedule against a form or device (validate() does).
#pragma once

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "form/quoted_text.h"
#include "schedule/schedule.h"

namespace femgpu {

enum class WordKind { Integer, IntegerList, Choice };

// Where one value of a choice word applies, given the schedule's other words.
struct ValueScope {
  const char *value;
  std::function<bool(const Schedule &)> applies;
  const char *why;  // validate()'s reason where it does not (after "invalid schedule: ")
};

struct ScheduleWord {
  const char *key;
  WordKind kind;
  int min, max;                       // Integer and each IntegerList entry
  std::vector<const char *> choices;  // Choice: the first is what to_string leaves out
  std::vector<Strategy> strategies;   // the strategies whose text may hold it
  const char *help;
  // The value to_string writes, "" where it leaves the word out.
  std::function<std::string(const Schedule &)> print;
  // The schedule with this word's value (already checked) set.
  std::function<Schedule(const Schedule &, const std::string &)> apply;
  // Choice words: the values that apply only to some schedules (a value may have several
  // scopes, checked in turn); any other value applies wherever the word does.
  std::vector<ValueScope> scopes = {};
};

// In the order to_string writes them.
const std::vector<ScheduleWord> &schedule_words();
const ScheduleWord *find_schedule_word(const std::string &key);
// Whether a text of strategy `s` may hold the word.
bool word_takes(const ScheduleWord &w, Strategy s);
// "1-1024", "[1-4096,...]" or "registers|shared".
std::string word_values(const ScheduleWord &w);
// s's value of the choice word w: its first choice where to_string leaves the word out.
std::string choice_value(const ScheduleWord &w, const Schedule &s);
// The first scope of s's value of the word `key` that s is outside of, or nullptr.
const ValueScope *refused_scope(const Schedule &s, const std::string &key);
// Whether every choice of s applies to it: no word's scope refuses it.
bool choices_apply(const Schedule &s);

// A word that cannot be read; out_of_range: a value outside the word's range or choices
// (else: an unknown or misplaced word, a character that is not ASCII, or bad syntax).
// The reason comes first and the text after it, shortened where long (quoted_text.h).
struct ScheduleTextError : std::invalid_argument {
  ScheduleTextError(const std::string &text, const std::string &why, bool out_of_range)
      : std::invalid_argument("schedule: " + why + "; given " + quoted_excerpt(text)), why(why), out_of_range(out_of_range)
  {
  }
  std::string why;  // without the text
  bool out_of_range;
};

// A text's words as given, each checked: strategy first, precision last if at all.
struct ScheduleText {
  Strategy strategy = Strategy::SingleCellPerWorkItem;
  std::vector<std::pair<std::string, std::string>> words;  // key, value
  std::optional<Precision> precision;
  const std::string *find(const std::string &key) const;
};

ScheduleText read_schedule_text(const std::string &text);
// The strategy's factory schedule with every word of `t` applied in turn.
Schedule schedule_from_text(const ScheduleText &t, Precision precision);

const char *strategy_name(Strategy s);
// "scpwi|tiled|mma|assembled wg=1-1024 lanes=1-3 ... fp64|fp32": -mat_fem_gpu_schedule's -help.
std::string schedule_text_help();
// The Markdown table of words ("| `wg=` | 1-1024 | scpwi | ... |"), as docs/petsc.md holds it.
std::string schedule_words_docs_table();

}  // namespace femgpu

namespace femgpu {

// A partial text completed for one form (schedule_completion.cpp): tiled tiles left out
// take whole loops (N_c 1, N_WI 32, T^Q = Q, T_e^r = T_q^c = T^Q, each T_e^c the group's
// basis, T_q^r the test basis; a short tec= list is filled so), mma sizes N_c 16, 4 warps,
// T^Q = min(32, Q rounded up to 8); every other word left out is what to_string leaves
// out, so a printed schedule pasted back is that schedule. Throws std::invalid_argument
// where tec= has more entries than the form has evaluation groups.
Schedule completed_schedule(const ScheduleText &given, const ActionIR &ir, int Q, Precision precision);

}  // namespace femgpu
