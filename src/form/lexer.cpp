// Lexer: bytes -> tokens, with Python's rules for lines, comments and continuation.
#include "form/lexer.h"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "form/form_file.h"

namespace femgpu {

void fail_at(Loc loc, const std::string &what) { throw ParseFailure(loc, what); }

std::string loc_string(Loc loc) { return std::to_string(loc.line) + ":" + std::to_string(loc.col); }

std::string describe(const Token &t)
{
  switch (t.kind) {
    case TokenKind::Name: return "name '" + t.text + "'";
    case TokenKind::Int:
    case TokenKind::Float: return "number " + t.text;
    case TokenKind::String: return "a string";
    case TokenKind::Op: return "'" + t.text + "'";
    case TokenKind::Newline: return "end of line";
    case TokenKind::End: return "end of file";
  }
  return "?";
}

namespace {

bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_name_char(char c) { return is_name_start(c) || is_digit(c); }

std::string char_string(char c)
{
  unsigned char u = static_cast<unsigned char>(c);
  if (u >= 32 && u < 127) return std::string("'") + c + "'";
  char buf[16];
  std::snprintf(buf, sizeof buf, "byte 0x%02x", u);
  return buf;
}

// Longest match first, so '**' is not read as two '*'.
const char *const kOperators[] = {"**", "<=", ">=", "==", "!=", "+=", "-=", "*=", "/=", "(", ")", "[", "]",
                                  "{",  "}",  ",",  ":",  ".",  ";",  "=",  "+",  "-",  "*",  "/",  "<", ">"};

class Lexer {
 public:
  Lexer(const std::string &text, bool allow_indent) : s_(text), allow_indent_(allow_indent) {}

  std::vector<Token> run()
  {
    if (s_.size() > kMaxSourceBytes) fail_at({1, 1}, "form text is larger than 1 MiB");
    check_source_bytes(s_);
    while (i_ < s_.size()) step();
    end_line(here());
    Token end;
    end.loc = here();
    out_.push_back(end);
    return out_;
  }

 private:
  const std::string &s_;
  bool allow_indent_;
  size_t i_ = 0;
  int line_ = 1;
  size_t line_start_ = 0;
  int depth_ = 0;            // open brackets: newlines inside them do not end the line
  bool at_line_start_ = true;  // no token yet on this logical line
  std::vector<Token> out_;

  Loc here() const { return {line_, static_cast<int>(i_ - line_start_) + 1}; }
  char peek(size_t k = 0) const { return i_ + k < s_.size() ? s_[i_ + k] : '\0'; }

  void newline_char()
  {
    ++i_;
    ++line_;
    line_start_ = i_;
  }

  void end_line(Loc loc)
  {
    if (!at_line_start_) push(TokenKind::Newline, "", loc);
    at_line_start_ = true;
  }

  Token &push(TokenKind kind, std::string text, Loc loc)
  {
    if (out_.size() >= kMaxTokens) fail_at(loc, "too many tokens (limit " + std::to_string(kMaxTokens) + ")");
    Token t;
    t.kind = kind;
    t.text = std::move(text);
    t.loc = loc;
    out_.push_back(std::move(t));
    return out_.back();
  }

  void step()
  {
    char c = peek();
    if (c == '\n') {
      Loc loc = here();  // report "end of line" where the line ends, not on the next one
      newline_char();
      if (depth_ == 0) end_line(loc);
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
      // Python rejects indented statements; a continuation line may be indented.
      // The parser reports it, so that an earlier 'def' line gets the better message.
      if (!allow_indent_ && at_line_start_ && depth_ == 0 && line_start_ == i_ && !only_blank_or_comment()) {
        push(TokenKind::Op, kIndent, here());
        at_line_start_ = false;
      }
      ++i_;
    } else if (c == '#') {
      while (i_ < s_.size() && s_[i_] != '\n') ++i_;
    } else if (c == '\\') {
      continuation();
    } else {
      token();
    }
  }

  // Whether the rest of the physical line holds nothing but blanks and a comment.
  bool only_blank_or_comment() const
  {
    for (size_t k = i_; k < s_.size() && s_[k] != '\n'; ++k) {
      if (s_[k] == '#') return true;
      if (s_[k] != ' ' && s_[k] != '\t' && s_[k] != '\r' && s_[k] != '\f') return false;
    }
    return true;
  }

  void continuation()
  {
    Loc loc = here();
    ++i_;
    if (peek() == '\r') ++i_;
    if (peek() != '\n') fail_at(loc, "'\\' must be the last character of a line (line continuation)");
    newline_char();
  }

  void token()
  {
    char c = peek();
    at_line_start_ = false;
    if (is_name_start(c)) return name();
    if (is_digit(c) || (c == '.' && is_digit(peek(1)))) return number();
    if (c == '"' || c == '\'') return string();
    for (const char *op : kOperators) {
      size_t n = std::char_traits<char>::length(op);
      if (s_.compare(i_, n, op) != 0) continue;
      Loc loc = here();
      i_ += n;
      if (op[0] == '(' || op[0] == '[' || op[0] == '{') ++depth_;
      if ((op[0] == ')' || op[0] == ']' || op[0] == '}') && depth_ > 0) --depth_;
      push(TokenKind::Op, op, loc);
      return;
    }
    fail_at(here(), "unexpected character " + char_string(c));
  }

  void name()
  {
    Loc loc = here();
    size_t b = i_;
    while (is_name_char(peek())) ++i_;
    if (i_ - b > kMaxNameLength) fail_at(loc, "name longer than " + std::to_string(kMaxNameLength) + " characters");
    push(TokenKind::Name, s_.substr(b, i_ - b), loc);
  }

  void number()
  {
    Loc loc = here();
    size_t b = i_;
    bool is_float = false;
    while (is_digit(peek())) ++i_;
    if (peek() == '.') {
      is_float = true;
      ++i_;
      while (is_digit(peek())) ++i_;
    }
    if ((peek() == 'e' || peek() == 'E') &&
        (is_digit(peek(1)) || ((peek(1) == '+' || peek(1) == '-') && is_digit(peek(2))))) {
      is_float = true;
      i_ += 2;
      while (is_digit(peek())) ++i_;
    }
    std::string text = s_.substr(b, i_ - b);
    if (text.size() > kMaxLiteralLength) fail_at(loc, "number literal is too long");
    if (is_name_char(peek())) fail_at(here(), "invalid number literal (letter or '_' right after a number)");
    Token &t = push(is_float ? TokenKind::Float : TokenKind::Int, text, loc);
    if (is_float) return float_value(t);
    int_value(t);
  }

  static void int_value(Token &t)
  {
    if (t.text.size() > 1 && t.text[0] == '0')
      fail_at(t.loc, "leading zeros in integer literals are not permitted (Python syntax)");
    auto r = std::from_chars(t.text.data(), t.text.data() + t.text.size(), t.ival);
    if (r.ec != std::errc()) fail_at(t.loc, "integer literal " + t.text + " is too large (limit 2**63 - 1)");
  }

  static void float_value(Token &t)
  {
    auto r = std::from_chars(t.text.data(), t.text.data() + t.text.size(), t.fval);
    // Out of range leaves fval alone. Literals are at most 256 characters, so only an
    // exponent can leave the range: a negative one underflows to 0, which is fine.
    bool negative_exponent = t.text.find("e-") != std::string::npos || t.text.find("E-") != std::string::npos;
    if (r.ec == std::errc::result_out_of_range && negative_exponent) {
      t.fval = 0.0;
      return;
    }
    if (r.ec != std::errc() || !std::isfinite(t.fval))
      fail_at(t.loc, "number literal " + t.text + " is out of range (not a finite double)");
  }

  void string()
  {
    Loc loc = here();
    char q = peek();
    bool triple = peek(1) == q && peek(2) == q;
    i_ += triple ? 3 : 1;
    size_t b = i_;
    for (;;) {
      if (i_ >= s_.size()) fail_at(loc, "unterminated string literal");
      char c = s_[i_];
      if (c == '\\') fail_at(here(), "escape sequences are not supported in strings");
      if (c == '\n' && !triple) fail_at(loc, "unterminated string literal (it reaches the end of the line)");
      if (c == q && (!triple || (peek(1) == q && peek(2) == q))) break;
      if (c == '\n') newline_char();
      else ++i_;
    }
    std::string text = s_.substr(b, i_ - b);
    i_ += triple ? 3 : 1;
    // Docstrings may be long; strings used as names are checked where they are used.
    if (!triple && text.size() > kMaxLiteralLength) fail_at(loc, "string literal is too long");
    push(TokenKind::String, text, loc);
  }
};

}  // namespace

std::vector<Token> tokenize(const std::string &text, bool allow_indent) { return Lexer(text, allow_indent).run(); }

}  // namespace femgpu
