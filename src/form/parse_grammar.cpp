// Recursive descent over tokens, evaluating as it goes; see parse_grammar.h.
#include "form/parse_grammar.h"

#include <map>
#include <set>

#include "form/parse_ops.h"

namespace femgpu::parse {

namespace {

// Bounds recursion: every bracketed sub-expression, argument, unary operator or
// exponent is a level (all recursion passes through expression(), unary() or power()).
struct NestingGuard {
  int &n;
  NestingGuard(int &count, Loc loc) : n(count)
  {
    if (n >= kMaxNesting)
      fail_at(loc, "expression nested too deeply (more than " + std::to_string(kMaxNesting) + " levels)");
    ++n;
  }
  ~NestingGuard() { --n; }
};

}  // namespace

const std::set<std::string> &python_keywords()
{
  static const std::set<std::string> k = {
      "False", "None",   "True",  "and",   "as",     "assert", "async",    "await", "break",
      "class", "continue", "def", "del",   "elif",   "else",   "except",   "finally", "for",
      "from",  "global", "if",    "import", "in",    "is",     "lambda",   "nonlocal", "not",
      "or",    "pass",   "raise", "return", "try",   "while",  "with",     "yield"};
  return k;
}

[[noreturn]] void keyword_error(const Token &t)
{
  const std::string &k = t.text;
  if (k == "def" || k == "lambda")
    fail_at(t.loc, "'" + k + "' is not supported: write expressions directly, e.g. eps_u = sym(grad(u))");
  if (k == "and" || k == "or" || k == "not")
    fail_at(t.loc, "'" + k + "' is not supported: use And(a, b), Or(a, b) and Not(c) for UFL conditions");
  if (k == "if" || k == "else")
    fail_at(t.loc, "'" + k + "' is not supported: use conditional(condition, true_value, false_value)");
  fail_at(t.loc, "'" + k + "' is not supported in a form file (only 'name = expression' lines)");
}

namespace {

bool is_compare(const Token &t)
{
  return t.kind == TokenKind::Op &&
         (t.text == "<" || t.text == "<=" || t.text == ">" || t.text == ">=" || t.text == "==" || t.text == "!=");
}

}  // namespace

const Token &Grammar::peek(size_t k) const { return p_ + k < t_.size() ? t_[p_ + k] : t_.back(); }

const Token &Grammar::next()
{
  const Token &t = peek();
  if (p_ < t_.size() - 1) ++p_;
  return t;
}

bool Grammar::at_op(const char *op, size_t k) const
{
  return peek(k).kind == TokenKind::Op && peek(k).text == op;
}

bool Grammar::at_line_end() const
{
  return peek().kind == TokenKind::Newline || peek().kind == TokenKind::End || at_op(";");
}

void Grammar::expect_close(const char *close, const Token &open)
{
  if (at_op(close)) {
    next();
    return;
  }
  fail_at(peek().loc, std::string("expected '") + close + "' to close '" + open.text + "' opened at " +
                          loc_string(open.loc));
}

// Python reports unbalanced brackets before running anything; so do we, or the
// evaluation of a half-read argument list would give a confusing message first.
void Grammar::check_brackets() const
{
  static const std::map<std::string, std::string> closer = {{"(", ")"}, {"[", "]"}, {"{", "}"}};
  std::vector<const Token *> open;
  for (const Token &t : t_) {
    if (t.kind != TokenKind::Op) continue;
    if (closer.count(t.text)) {
      open.push_back(&t);
    } else if (t.text == ")" || t.text == "]" || t.text == "}") {
      if (open.empty()) fail_at(t.loc, "unmatched '" + t.text + "'");
      const std::string &want = closer.at(open.back()->text);
      if (t.text != want)
        fail_at(t.loc, "expected '" + want + "' to close '" + open.back()->text + "' opened at " +
                           loc_string(open.back()->loc));
      open.pop_back();
    }
  }
  if (!open.empty())
    fail_at(t_.back().loc, "expected '" + closer.at(open.back()->text) + "' to close '" + open.back()->text +
                               "' opened at " + loc_string(open.back()->loc));
}

void Grammar::file()
{
  check_brackets();
  while (peek().kind != TokenKind::End) {
    if (peek().kind == TokenKind::Newline || at_op(";")) {
      next();
      continue;
    }
    statement();
  }
}

Value Grammar::single_expression()
{
  check_brackets();
  while (peek().kind == TokenKind::Newline) next();
  Value v = expression();
  while (peek().kind == TokenKind::Newline) next();
  if (peek().kind != TokenKind::End) fail_at(peek().loc, "expected the end of the expression, got " + describe(peek()));
  return v;
}

void Grammar::statement()
{
  const Token &t = peek();
  if (t.kind == TokenKind::Name && (t.text == "import" || t.text == "from")) {
    // `from ufl import *` and friends: the names are predefined already.
    while (!at_line_end()) next();
    return end_statement();
  }
  if (t.kind == TokenKind::String && (peek(1).kind == TokenKind::Newline || peek(1).kind == TokenKind::End)) {
    next();  // a docstring
    return end_statement();
  }
  if (t.kind == TokenKind::Name && python_keywords().count(t.text) && at_op("=", 1))
    fail_at(t.loc, "'" + t.text + "' is a Python keyword and cannot be assigned (UFL files write 'lmbda' for lambda)");
  if (t.kind == TokenKind::Name && python_keywords().count(t.text)) keyword_error(t);
  if (t.kind == TokenKind::Op && t.text == kIndent) fail_at(t.loc, "unexpected indentation");
  bool assign = at_op("=", 1) || at_op("+=", 1) || at_op("-=", 1) || at_op("*=", 1) || at_op("/=", 1);
  if (t.kind == TokenKind::Name && assign) return assignment();
  if (t.kind == TokenKind::Name && at_op(",", 1)) return tuple_assignment();
  if (at_op("(") && peek(1).kind == TokenKind::Name && at_op(",", 2)) return tuple_assignment();  // (u, p) = ...
  fail_at(t.loc, "expected an assignment 'name = expression', got " + describe(t));
}

void Grammar::end_statement()
{
  if (peek().kind == TokenKind::End) return;
  if (at_line_end()) {
    next();
    return;
  }
  fail_at(peek().loc, "expected an operator or the end of the line, got " + describe(peek()));
}

Value Grammar::lookup(const Token &name)
{
  if (python_keywords().count(name.text)) keyword_error(name);
  auto it = ctx_.env.find(name.text);
  if (it != ctx_.env.end()) return it->second;
  if (name.text == "dS")  // UFL's measure, not a typo: say so
    fail_at(name.loc, "interior facet integrals (dS) are not supported; femgpu forms integrate over cells (dx) and exterior facets (ds)");
  if (name.text == "interval" || name.text == "quadrilateral" || name.text == "hexahedron")
    fail_at(name.loc, "cell '" + name.text + "' is not supported: femgpu forms are on triangles and tetrahedra");
  std::string hint = suggest_name(ctx_, name.text);
  fail_at(name.loc, "unknown name '" + name.text + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)"));
}

Value Grammar::expression()
{
  NestingGuard guard(nesting_, peek().loc);
  Value a = arith();
  if (is_compare(peek())) {
    Token op = next();
    Value b = arith();
    if (is_compare(peek()))
      fail_at(peek().loc, "chained comparisons are not supported; use And(lt(a, b), lt(b, c))");
    a = compare_op(ctx_, op.text, a, b, op.loc);
  }
  if (peek().kind == TokenKind::Name && python_keywords().count(peek().text)) keyword_error(peek());
  return a;
}

Value Grammar::arith()
{
  Value a = term();
  while (at_op("+") || at_op("-")) {
    Token op = next();
    Value b = term();
    a = binary_op(ctx_, op.text, a, b, op.loc);
  }
  return a;
}

Value Grammar::term()
{
  Value a = unary();
  while (at_op("*") || at_op("/")) {
    Token op = next();
    Value b = unary();
    a = binary_op(ctx_, op.text, a, b, op.loc);
  }
  return a;
}

Value Grammar::unary()
{
  if (!at_op("+") && !at_op("-")) return power();
  Token op = next();
  NestingGuard guard(nesting_, op.loc);
  Value a = unary();
  return unary_op(ctx_, op.text, a, op.loc);
}

Value Grammar::power()
{
  Value base = postfix();
  if (!at_op("**")) return base;
  Token op = next();
  NestingGuard guard(nesting_, op.loc);
  Value exponent = unary();
  return binary_op(ctx_, "**", base, exponent, op.loc);
}

Value Grammar::postfix()
{
  Loc start = peek().loc;
  Value v = atom();
  for (;;) {
    if (at_op("(")) {
      Token open = next();
      CallArgs args = call_args(open);
      v = call_value(ctx_, v, args, start);
    } else if (at_op("[")) {
      Token open = next();
      v = subscript(v, open);
    } else if (at_op(".")) {
      Token dot = next();
      if (peek().kind != TokenKind::Name) fail_at(peek().loc, "expected an attribute name after '.', got " + describe(peek()));
      v = attribute_op(ctx_, v, next().text, dot.loc);
    } else {
      return v;
    }
  }
}

Value Grammar::atom()
{
  const Token &t = peek();
  switch (t.kind) {
    case TokenKind::Int: next(); return Value::of_int(t.ival);
    case TokenKind::Float: next(); return Value::of_float(t.fval);
    case TokenKind::String: next(); return Value::string(t.text);
    case TokenKind::Name: next(); return lookup(t);
    default: break;
  }
  if (at_op("(")) return parenthesized(next());
  if (at_op("[")) return list_literal(next());
  if (at_op("{")) return dict_literal(next());
  fail_at(t.loc, "expected an expression, got " + describe(t));
}

Value Grammar::parenthesized(const Token &open)
{
  if (at_op(")")) {
    next();
    return Value::list({});  // () is an empty tuple; tuples act as lists
  }
  Value first = expression();
  if (!at_op(",")) {
    expect_close(")", open);
    return first;
  }
  std::vector<Value> items{first};
  while (at_op(",")) {
    next();
    if (at_op(")")) break;
    items.push_back(expression());
  }
  expect_close(")", open);
  return Value::list(items);
}

Value Grammar::list_literal(const Token &open)
{
  std::vector<Value> items;
  while (!at_op("]")) {
    items.push_back(expression());
    if (!at_op(",")) break;
    next();
  }
  expect_close("]", open);
  return Value::list(items);
}

Value Grammar::dict_literal(const Token &open)
{
  Value d;
  d.kind = Kind::Dict;
  while (!at_op("}")) {
    const Token &key = peek();
    if (key.kind != TokenKind::String) fail_at(key.loc, "dict keys must be strings, got " + describe(key));
    next();
    if (!at_op(":")) fail_at(peek().loc, "expected ':' after the dict key, got " + describe(peek()));
    next();
    d.keys.push_back(key.text);
    d.items.push_back(expression());
    if (!at_op(",")) break;
    next();
  }
  expect_close("}", open);
  return d;
}

CallArgs Grammar::call_args(const Token &open)
{
  CallArgs args;
  while (!at_op(")")) {
    Loc at = peek().loc;
    if (peek().kind == TokenKind::Name && at_op("=", 1)) {
      std::string key = next().text;
      next();
      for (const std::string &k : args.kw_names)
        if (k == key) fail_at(at, "keyword argument '" + key + "' repeated");
      args.kw_names.push_back(key);
      args.kw.push_back(expression());
      args.kw_loc.push_back(at);
    } else {
      if (!args.kw_names.empty()) fail_at(at, "positional argument follows keyword argument");
      args.pos.push_back(expression());
      args.pos_loc.push_back(at);
    }
    if (!at_op(",")) break;
    next();
  }
  expect_close(")", open);
  return args;
}

Value Grammar::subscript(const Value &base, const Token &open)
{
  std::vector<Value> indices;
  std::vector<Loc> locs;
  for (;;) {
    if (at_op(":")) fail_at(peek().loc, "slices are not supported; index with integers or free indices (i, j)");
    locs.push_back(peek().loc);
    indices.push_back(expression());
    if (at_op(":")) fail_at(peek().loc, "slices are not supported; index with integers or free indices (i, j)");
    if (!at_op(",")) break;
    next();
  }
  expect_close("]", open);
  return index_op(ctx_, base, indices, locs, open.loc);
}

}  // namespace femgpu::parse
