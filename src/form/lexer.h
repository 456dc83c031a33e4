// Lexer for femgpu's Python-like UFL subset.
//
// Takes: the text of a form file (at most kMaxSourceBytes) and its name for messages.
// Returns: tokens with 1-based line:column positions; one Newline token ends each
// logical line (lines joined by brackets or '\' count as one); End closes the list.
// Numbers are range-checked here (Python ints must fit in 64 bits; floats must be
// finite), so later stages never see an overflowed literal.
// Does not: match brackets (the parser reports unclosed ones with both positions)
// or know any names; errors are ParseFailure, turned into FormError by parser.cpp.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace femgpu {

constexpr size_t kMaxSourceBytes = 1 << 20;  // 1 MiB: forms are a few hundred bytes
constexpr size_t kMaxTokens = 100000;        // bounds memory and the depth of what they build
constexpr size_t kMaxNameLength = 128;
constexpr size_t kMaxLiteralLength = 256;    // numbers and strings

struct Loc {
  int line = 1;
  int col = 1;
};

// An error at a position; parser.cpp prefixes "<source>:" and throws FormError.
struct ParseFailure : std::runtime_error {
  ParseFailure(Loc where, const std::string &what) : std::runtime_error(what), loc(where) {}
  Loc loc;
};

[[noreturn]] void fail_at(Loc loc, const std::string &what);
std::string loc_string(Loc loc);  // "3:9"

// An Op token the lexer emits where a statement line is indented (Python rejects it).
constexpr const char *kIndent = "<indent>";

enum class TokenKind { Name, Int, Float, String, Op, Newline, End };

struct Token {
  TokenKind kind = TokenKind::End;
  std::string text;  // names, operators, string contents, the spelling of numbers
  Loc loc;
  int64_t ival = 0;
  double fval = 0.0;
};

// allow_indent: a lone expression may start indented (Python's eval would not).
std::vector<Token> tokenize(const std::string &text, bool allow_indent = false);

// "name 'grad'", "')'", "end of line": how messages name a token.
std::string describe(const Token &t);

}  // namespace femgpu
