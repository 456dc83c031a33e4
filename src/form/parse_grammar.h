// Recursive-descent parser and evaluator for femgpu's Python-like UFL subset.
//
// Takes: tokens from lexer.h and a Context seeded with the predefined names.
// Returns: nothing for a file (its assignments land in Context::env), or the Value of
// a lone expression. Evaluates while parsing: there is no syntax tree, because a form
// file is straight-line code (no def, if or loops).
// Grammar (Python's precedence, loosest first):
//   file       := { statement (NEWLINE | ';') }
//   statement  := NAME ('=' | '+=' | '-=' | '*=' | '/=') expression | NAME {',' NAME} '=' expression
//                 | import-line | docstring
//   expression := arith [ ('<' | '<=' | '>' | '>=' | '==' | '!=') arith ]
//   arith      := term { ('+' | '-') term }
//   term       := unary { ('*' | '/') unary }
//   unary      := ('+' | '-') unary | power
//   power      := postfix [ '**' unary ]          (right-associative; -a**2 == -(a**2))
//   postfix    := atom { '(' args ')' | '[' indices ']' | '.' NAME }
//   atom       := NAME | NUMBER | STRING | '(' expression [',' ...] ')' | '[' list ']' | '{' dict '}'
// Does not: build expressions itself (parse_ops.h, parse_builtins.h do).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "form/lexer.h"
#include "form/parse_builtins.h"
#include "form/parse_value.h"

namespace femgpu::parse {

const std::set<std::string> &python_keywords();
[[noreturn]] void keyword_error(const Token &t);  // 'def', 'if', ... with what to write instead

class Grammar {
 public:
  Grammar(const std::vector<Token> &tokens, Context &ctx) : t_(tokens), ctx_(ctx) {}

  void file();
  Value single_expression();

 private:
  const std::vector<Token> &t_;
  Context &ctx_;
  size_t p_ = 0;
  int nesting_ = 0;

  const Token &peek(size_t k = 0) const;
  const Token &next();
  bool at_op(const char *op, size_t k = 0) const;
  bool at_line_end() const;
  void expect_close(const char *close, const Token &open);
  void check_brackets() const;

  void statement();
  void assignment();
  void tuple_assignment();
  bool at_lone_call() const;
  void bind(const Token &name, const Value &v);
  void end_statement();
  Value lookup(const Token &name);

  Value expression();
  Value arith();
  Value term();
  Value unary();
  Value power();
  Value postfix();
  Value atom();
  Value parenthesized(const Token &open);
  Value list_literal(const Token &open);
  Value dict_literal(const Token &open);
  CallArgs call_args(const Token &open);
  Value subscript(const Value &base, const Token &open);
};

}  // namespace femgpu::parse
