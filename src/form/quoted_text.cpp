// Excerpts of long texts and names of unusual characters (quoted_text.h).
#include "form/quoted_text.h"

#include <cstdio>
#include <vector>

namespace femgpu {

namespace {

// The code point of the well-formed UTF-8 sequence at s[i] and its length in bytes;
// length 0 where the byte starts none (a lone continuation byte, an overlong form, a
// surrogate, a truncated sequence).
struct CodePoint {
  unsigned long value = 0;
  std::size_t length = 0;
};

CodePoint decode(const std::string &s, std::size_t i)
{
  const auto byte = [&](std::size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u; };
  const unsigned c = byte(0);
  const std::size_t n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
  if (n == 0) return {};
  unsigned long v = n == 1 ? c : c & (0x7fu >> n);
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(k) & 0xc0) != 0x80) return {};
    v = (v << 6) | (byte(k) & 0x3f);
  }
  const unsigned long least[] = {0, 0, 0x80, 0x800, 0x10000};
  if (v < least[n] || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) return {};
  return {v, n};
}

// Byte offsets where each character of `s` starts (a byte that is not UTF-8: one character).
std::vector<std::size_t> character_starts(const std::string &s)
{
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < s.size();) {
    starts.push_back(i);
    const std::size_t n = decode(s, i).length;
    i += n ? n : 1;
  }
  return starts;
}

// The Unicode spaces, line breaks and invisible characters that a text copied from a
// web page or a word processor brings in place of an ASCII space.
const char *space_name(unsigned long c)
{
  struct Space {
    unsigned long code;
    const char *name;
  };
  static const Space spaces[] = {{0x0085, "next-line character"},  {0x00a0, "no-break space"},     {0x1680, "Ogham space mark"},
                                 {0x2000, "en quad"},              {0x2001, "em quad"},            {0x2002, "en space"},
                                 {0x2003, "em space"},             {0x2004, "three-per-em space"}, {0x2005, "four-per-em space"},
                                 {0x2006, "six-per-em space"},     {0x2007, "figure space"},       {0x2008, "punctuation space"},
                                 {0x2009, "thin space"},           {0x200a, "hair space"},         {0x200b, "zero-width space"},
                                 {0x2028, "line separator"},       {0x2029, "paragraph separator"}, {0x202f, "narrow no-break space"},
                                 {0x205f, "medium mathematical space"}, {0x2060, "word joiner"},   {0x3000, "ideographic space"},
                                 {0xfeff, "zero-width no-break space (byte order mark)"}};
  for (const Space &s : spaces)
    if (s.code == c) return s.name;
  return nullptr;
}

std::string code_text(unsigned long c)
{
  char buf[32];
  std::snprintf(buf, sizeof buf, "U+%04lX", c);
  return buf;
}

}  // namespace

std::string excerpt(const std::string &text)
{
  const std::vector<std::size_t> starts = character_starts(text);
  if (starts.size() <= kExcerptWhole) return text;
  return text.substr(0, starts[kExcerptEnd]) + " ... " + text.substr(starts[starts.size() - kExcerptEnd]);
}

std::string quoted_excerpt(const std::string &text)
{
  const std::size_t n = character_starts(text).size();
  return "\"" + excerpt(text) + "\"" + (n > kExcerptWhole ? " (" + std::to_string(n) + " characters)" : "");
}

std::string unusual_character(const std::string &text)
{
  std::size_t at = 0;  // characters before i
  for (std::size_t i = 0; i < text.size(); ++at) {
    const CodePoint c = decode(text, i);
    const std::string where = " at character " + std::to_string(at + 1);
    if (c.length == 0) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "0x%02X", static_cast<unsigned char>(text[i]));
      return std::string("a byte ") + buf + " that is not UTF-8" + where + "; use ASCII characters";
    }
    if (const char *name = space_name(c.value)) {
      const std::string article = std::string("aeiouAEIOU").find(name[0]) == std::string::npos ? "a " : "an ";
      return article + name + " (" + code_text(c.value) + ")" + where + "; use an ASCII space";
    }
    const bool ascii_space = c.value == ' ' || (c.value >= '\t' && c.value <= '\r');
    if ((c.value < 0x20 && !ascii_space) || c.value == 0x7f) return "a control character (" + code_text(c.value) + ")" + where;
    if (c.value > 0x7f) return "a non-ASCII character (" + code_text(c.value) + ")" + where + "; use ASCII characters";
    i += c.length;
  }
  return "";
}

}  // namespace femgpu
