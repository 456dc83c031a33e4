// Messages about a text a user gave keep their reason: the reason comes first, a long
// text is quoted by its first and last 80 characters with its length, and a character
// that only looks like a space (a no-break space) is named with its position, in schedule
// texts and tuning plans alike.
#include <catch2/catch.hpp>

#include <string>

#include "form/form_file.h"
#include "form/quoted_text.h"
#include "schedule/schedule.h"
#include "schedule/schedule_words.h"
#include "tune/tune_plan.h"

using namespace femgpu;

namespace {

const std::string kNoBreakSpace = "\xc2\xa0";  // U+00A0 in UTF-8

// Characters 1..n: "a", "b", ... "z", "a", ...: any cut in the wrong place shows.
std::string letters(size_t n)
{
  std::string s;
  for (size_t i = 0; i < n; ++i) s += static_cast<char>('a' + i % 26);
  return s;
}

template <class F> std::string message_of(F read)
{
  try {
    read();
  } catch (const std::exception &e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a short text is quoted whole, a long one by its two ends and its length", "[quoted_text]")
{
  CHECK(quoted_excerpt("tiled nc=2") == "\"tiled nc=2\"");
  const std::string at_limit = letters(kExcerptWhole);
  CHECK(quoted_excerpt(at_limit) == "\"" + at_limit + "\"");
  const std::string text = letters(5000);
  CHECK(excerpt(text) == text.substr(0, 80) + " ... " + text.substr(5000 - 80));
  CHECK(quoted_excerpt(text) == "\"" + excerpt(text) + "\" (5000 characters)");
}

TEST_CASE("an excerpt counts UTF-8 characters and never cuts one", "[quoted_text]")
{
  std::string text;
  for (int i = 0; i < 300; ++i) text += "\xce\xbb";  // 300 lambdas, 600 bytes
  std::string ends;
  for (int i = 0; i < 80; ++i) ends += "\xce\xbb";
  CHECK(excerpt(text) == ends + " ... " + ends);
  CHECK(quoted_excerpt(text) == "\"" + ends + " ... " + ends + "\" (300 characters)");
}

TEST_CASE("a non-ASCII space or character is named with its position", "[quoted_text]")
{
  CHECK(unusual_character("tiled nc=2\tnwi=4\n") == "");
  CHECK(unusual_character("tiled" + kNoBreakSpace + "nc=2") == "a no-break space (U+00A0) at character 6; use an ASCII space");
  CHECK(unusual_character("tiled nc=2\xe2\x80\x83nwi=4") == "an em space (U+2003) at character 11; use an ASCII space");
  // The first one is named.
  CHECK(unusual_character("\xce\xbb" + kNoBreakSpace) == "a non-ASCII character (U+03BB) at character 1; use ASCII characters");
  CHECK(unusual_character("nc=\xe2\x88\x92" "2") == "a non-ASCII character (U+2212) at character 4; use ASCII characters");
  CHECK(unusual_character("nc=2\xa0") == "a byte 0xA0 that is not UTF-8 at character 5; use ASCII characters");
  CHECK(unusual_character("nc=\x01") == "a control character (U+0001) at character 4");
}

TEST_CASE("a schedule text's error gives its reason first and the text shortened", "[quoted_text][schedule_words]")
{
  // 5000 blanks before the unknown word: quoted whole, the reason came after 5000 characters.
  const std::string text = "tiled nc=2" + std::string(5000, ' ') + "twirl=3";
  const std::string what = message_of([&] { (void)read_schedule_text(text); });
  CHECK(what.rfind("schedule: unknown word 'twirl=3' (words: ", 0) == 0);
  CHECK(what.find("; given " + quoted_excerpt(text)) != std::string::npos);
  CHECK(what.find("(5017 characters)") != std::string::npos);
  CHECK(what.size() < 1000);
  // A word of 5000 characters is itself shortened.
  const std::string word = "nc=" + letters(5000);
  const std::string long_word = message_of([&] { (void)read_schedule_text("tiled " + word); });
  CHECK(long_word.find("'" + excerpt(word) + "' is not a decimal integer") != std::string::npos);
  CHECK(long_word.size() < 1000);
  const std::string strict = message_of([&] { (void)parse_schedule(text); });
  CHECK(strict.rfind("cannot read the schedule: unknown word 'twirl=3'", 0) == 0);
  CHECK(strict.size() < 1000);
}

TEST_CASE("a no-break space in a schedule text or a tuning plan is named", "[quoted_text][schedule_words][tune_plan]")
{
  try {
    (void)read_schedule_text("tiled nc=2" + kNoBreakSpace + "nwi=4");
    FAIL("read");
  } catch (const ScheduleTextError &e) {
    CHECK(e.why == "a no-break space (U+00A0) at character 11; use an ASCII space");
    CHECK_FALSE(e.out_of_range);
  }
  CHECK(message_of([] { (void)parse_tune_plan("first;" + kNoBreakSpace + "local_search n=2"); }) ==
        "tuning plan: a no-break space (U+00A0) at character 7; use an ASCII space");
}

TEST_CASE("a tuning plan's error quotes a long move by its two ends", "[quoted_text][tune_plan]")
{
  const std::string move = letters(5000);
  const std::string what = message_of([&] { (void)parse_tune_plan("first; " + move); });
  CHECK(what == "tuning plan: unknown move '" + excerpt(move) + "'");
}

TEST_CASE("a form file's long path is shown by its two ends before the reason", "[quoted_text][form_file]")
{
  std::string path = "/nonexistent";
  for (int i = 0; i < 400; ++i) path += "/folder";
  path += "/form.ufl";
  const std::string what = message_of([&] { (void)read_form_file(path); });
  CHECK(what == excerpt(path) + ":1:1: cannot read form file: No such file or directory");
  CHECK(what.size() < 300);
}
