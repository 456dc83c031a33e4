// Assignments of the form-file grammar (parse_grammar.h): 'name = value', augmented
// assignment, and tuple assignment 'a, b = x, y' / '(u, p) = TrialFunctions(W)'.
// A statement 'f = Coefficient(V)' or 'c = Constant(cell)' tells the call the name it is
// assigned to (Context::call_target): UFL files name coefficients by their variable.
#include "form/parse_grammar.h"

#include "form/parse_ops.h"

namespace femgpu::parse {

// Whether the tokens from here are one call and the end of the line: 'f = Coefficient(V)'.
bool Grammar::at_lone_call() const
{
  if (peek().kind != TokenKind::Name || !at_op("(", 1)) return false;
  int depth = 0;
  for (size_t k = 1;; ++k) {
    const Token &t = peek(k);
    if (t.kind == TokenKind::End) return false;
    if (t.kind != TokenKind::Op) continue;
    if (t.text == "(" || t.text == "[" || t.text == "{") ++depth;
    if ((t.text == ")" || t.text == "]" || t.text == "}") && --depth == 0) {
      const Token &after = peek(k + 1);
      return after.kind == TokenKind::Newline || after.kind == TokenKind::End || (after.kind == TokenKind::Op && after.text == ";");
    }
  }
}

void Grammar::bind(const Token &name, const Value &v)
{
  // An index takes the first name it is given (i, j = indices(2)), for messages.
  if (v.kind == Kind::Index && ctx_.index_names[static_cast<int>(v.i)].empty()) ctx_.index_names[static_cast<int>(v.i)] = name.text;
  ctx_.env[name.text] = v;
  ctx_.defined_at[name.text] = name.loc;
}

void Grammar::assignment()
{
  Token name = next();
  Token op = next();
  if (op.text == "=" && at_lone_call()) {
    ctx_.call_target = name.text;
    ctx_.call_target_loc = peek().loc;
  }
  Value v;
  try {
    v = expression();
  } catch (...) {
    ctx_.call_target.clear();
    throw;
  }
  ctx_.call_target.clear();
  if (op.text != "=") v = binary_op(ctx_, op.text.substr(0, 1), lookup(name), v, op.loc);
  end_statement();
  bind(name, v);
}

// a, b = value: the value must be a list (tuple) of as many items.
void Grammar::tuple_assignment()
{
  const bool bracketed = at_op("(");
  if (bracketed) next();
  std::vector<Token> names{next()};
  while (at_op(",")) {
    next();
    if (at_op("=") || at_op(")")) break;  // a trailing comma: 'a, = ...'
    if (peek().kind != TokenKind::Name) fail_at(peek().loc, "expected a name in the assignment, got " + describe(peek()));
    if (python_keywords().count(peek().text)) keyword_error(peek());
    names.push_back(next());
  }
  if (bracketed && !at_op(")")) fail_at(peek().loc, "expected ')' after the names of a tuple assignment, got " + describe(peek()));
  if (bracketed) next();
  if (!at_op("=")) fail_at(peek().loc, "expected '=' after the names of a tuple assignment, got " + describe(peek()));
  Token op = next();
  Value v = expression();
  if (at_op(",")) {  // a, b = x, y: a tuple without brackets
    std::vector<Value> items{v};
    while (at_op(",")) {
      next();
      if (at_line_end()) break;
      items.push_back(expression());
    }
    v = Value::list(items);
  }
  end_statement();
  if (v.kind != Kind::List)
    fail_at(op.loc, "cannot unpack a " + type_name(v) + " into " + std::to_string(names.size()) + " names");
  if (v.items.size() != names.size())
    fail_at(op.loc, "cannot unpack " + std::to_string(v.items.size()) + " values into " + std::to_string(names.size()) + " names");
  for (size_t k = 0; k < names.size(); ++k) bind(names[k], v.items[k]);
}

}  // namespace femgpu::parse
