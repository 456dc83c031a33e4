// The text form of a schedule (schedule.h's to_string and parse_schedule): what MatView
// prints, the tuning cache stores, and forced schedules are read from. Both are made from
// the table of schedule words (schedule_words.h), so every printed schedule reads back.
#include <stdexcept>

#include "form/quoted_text.h"
#include "schedule/schedule.h"
#include "schedule/schedule_words.h"

namespace femgpu {

namespace {

// "mma nc=.. warps=.. tq=.. [dofs=..] ... fp64|fp32": the words a strategy's text holds,
// those that its factory schedule prints always, the others in brackets.
std::string text_format(Strategy strategy)
{
  const Schedule plain = schedule_from_text({strategy, {}, std::nullopt}, Precision::FP64);
  std::string s = strategy_name(strategy);
  for (const ScheduleWord &w : schedule_words()) {
    if (!word_takes(w, strategy)) continue;
    const bool always = !w.print(plain).empty();
    s += std::string(" ") + (always ? "" : "[") + w.key + "=.." + (always ? "" : "]");
  }
  return s + " fp64|fp32";
}

// The reason first, then the text (a long one by its two ends).
[[noreturn]] void unreadable(const std::string &text, const std::string &why)
{
  throw std::invalid_argument("cannot read the schedule: " + why + "; given " + quoted_excerpt(text));
}

}  // namespace

std::string to_string(const Schedule &s)
{
  std::string text = strategy_name(s.strategy());
  for (const ScheduleWord &w : schedule_words()) {
    const std::string value = word_takes(w, s.strategy()) ? w.print(s) : "";
    if (!value.empty()) text += std::string(" ") + w.key + "=" + value;
  }
  return text + (s.precision() == Precision::FP64 ? " fp64" : " fp32");
}

Schedule parse_schedule(const std::string &text)
{
  ScheduleText t;
  try {
    t = read_schedule_text(text);
  } catch (const ScheduleTextError &e) {
    unreadable(text, e.why);
  }
  if (!t.precision) unreadable(text, "it must end with fp64 or fp32");
  const Schedule s = schedule_from_text(t, *t.precision);
  // Words left out, repeated defaults, another order or spacing: not what to_string writes.
  if (to_string(s) != text) unreadable(text, "not in the canonical form \"" + to_string(s) + "\" (" + text_format(t.strategy) + ")");
  return s;
}

}  // namespace femgpu
