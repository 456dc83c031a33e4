// Texts given by a user, shown in error messages: a long one shortened to its two ends,
// and the first character that is not plain ASCII named with its position.
//
// Takes: any bytes (an option's value, a path, a schedule or plan text).
// Returns: a string for a message. excerpt() keeps a text of at most kExcerptWhole
// characters whole and shortens a longer one to its first and last kExcerptEnd
// characters, so that a message that quotes it keeps what follows: PETSc cuts error
// messages (about 2 KiB), and a reason after a 4,000-character quote was lost.
// unusual_character() names a non-ASCII space (U+00A0 looks like a space but splits no
// word), any other non-ASCII character, a control character or a byte that is not UTF-8.
// Characters are counted as UTF-8 code points (a byte that is not UTF-8 counts as one);
// ends are never cut inside a character.
// Does not: escape anything; it lives in the first stage so that every later one
// (schedules, plans, options, form paths) can use it.
#pragma once

#include <cstddef>
#include <string>

namespace femgpu {

constexpr std::size_t kExcerptEnd = 80;     // characters kept at each end of a long text
constexpr std::size_t kExcerptWhole = 170;  // longer texts are shortened

// `text` whole, or "<first 80> ... <last 80>".
std::string excerpt(const std::string &text);
// "\"text\"", or "\"<first 80> ... <last 80>\" (N characters)".
std::string quoted_excerpt(const std::string &text);
// "a no-break space (U+00A0) at character 6; use an ASCII space", "a non-ASCII
// character (U+2212) at character 9; use ASCII characters", ...; "" where every character
// is printable ASCII or ASCII white space.
std::string unusual_character(const std::string &text);

}  // namespace femgpu
