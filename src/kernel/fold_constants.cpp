// Constant folding (fold_constants.h): children first, then the node, using what the
// operand types allow.
#include "kernel/fold_constants.h"

#include <cmath>
#include <optional>
#include <set>

namespace femgpu::kernel {

namespace {

enum class Kind { Int, Real, Unknown };

bool is_int(const Ex &e, long long v) { return e.node->kind == ExprNode::IntLit && e.node->int_value == v; }
bool is_real(const Ex &e, double v) { return e.node->kind == ExprNode::RealLit && e.node->real_value == v; }  // 0.0 matches -0.0
bool is_zero(const Ex &e) { return is_int(e, 0) || is_real(e, 0.0); }
bool is_one(const Ex &e) { return is_int(e, 1) || is_real(e, 1.0); }

const std::set<std::string> kComparisons{"<", ">", "<=", ">=", "==", "!="};

bool is_boolean_op(const ExprNode &n)
{
  return (n.kind == ExprNode::Binary && (kComparisons.count(n.text) || n.text == "&&" || n.text == "||")) ||
         (n.kind == ExprNode::Unary && n.text == "!");
}

class Folder {
 public:
  explicit Folder(const NameTypes &names) : names_(names) {}

  Ex operator()(const Ex &e) const
  {
    if (!e.node) return e;
    ExprNode n = *e.node;
    for (Ex &a : n.args) a = (*this)(a);
    switch (n.kind) {
      case ExprNode::Binary: return binary_node(n);
      case ExprNode::Unary:
        if (n.text == "-" && n.args[0].node->kind == ExprNode::IntLit) return lit(-n.args[0].node->int_value);
        if (n.text == "-" && n.args[0].node->kind == ExprNode::RealLit) return real_lit(-n.args[0].node->real_value);
        break;
      case ExprNode::Select:
        // `1 ? a : b` is a only where a and b have one type (else C converts a).
        if (n.args[0].node->kind == ExprNode::IntLit && kind(n.args[1]) != Kind::Unknown && kind(n.args[1]) == kind(n.args[2]))
          return n.args[0].node->int_value ? n.args[1] : n.args[2];
        break;
      case ExprNode::ToReal:
        // Integers up to 2^24 are exact in FP32 as well as FP64.
        if (n.args[0].node->kind == ExprNode::IntLit && std::llabs(n.args[0].node->int_value) <= (1LL << 24))
          return real_lit(static_cast<double>(n.args[0].node->int_value));
        break;
      default: break;
    }
    return Ex{std::make_shared<const ExprNode>(std::move(n))};
  }

 private:
  Kind kind(const Ex &e) const
  {
    const ExprNode &n = *e.node;
    switch (n.kind) {
      case ExprNode::IntLit:
      case ExprNode::BuiltinIndex: return Kind::Int;
      case ExprNode::RealLit:
      case ExprNode::ToReal: return Kind::Real;
      case ExprNode::Var: return name_kind(n.text);
      case ExprNode::Index: return n.args[0].node->kind == ExprNode::Var ? name_kind(n.args[0].node->text) : Kind::Unknown;
      case ExprNode::Unary: return is_boolean_op(n) ? Kind::Int : kind(n.args[0]);
      case ExprNode::Binary: {
        if (is_boolean_op(n)) return Kind::Int;
        const Kind a = kind(n.args[0]), b = kind(n.args[1]);
        if (a == Kind::Unknown || b == Kind::Unknown) return Kind::Unknown;
        return a == Kind::Int && b == Kind::Int ? Kind::Int : Kind::Real;
      }
      case ExprNode::Select: {
        const Kind a = kind(n.args[1]), b = kind(n.args[2]);
        return a == b ? a : Kind::Unknown;
      }
      default: return Kind::Unknown;  // Call (math on reals, but not ours to promise), AddressOf
    }
  }

  Kind name_kind(const std::string &name) const
  {
    auto it = names_.find(name);
    if (it == names_.end()) return Kind::Unknown;
    return it->second == Type::Int ? Kind::Int : Kind::Real;
  }

  // `x op literal` may become x when the literal does not change x's type: an integer
  // literal never does (int op int is int, real op int is real); a real one only when x
  // is real.
  bool keeps_type(const Ex &literal, const Ex &x) const
  {
    return literal.node->kind == ExprNode::IntLit || kind(x) == Kind::Real;
  }

  bool boolean(const Ex &e) const { return is_boolean_op(*e.node) || is_int(e, 0) || is_int(e, 1); }

  Ex binary_node(const ExprNode &n) const
  {
    const Ex &a = n.args[0], &b = n.args[1];
    const std::string &op = n.text;
    if (a.node->kind == ExprNode::IntLit && b.node->kind == ExprNode::IntLit)
      if (std::optional<long long> v = both_integers(op, a.node->int_value, b.node->int_value)) return lit(*v);
    if (op == "+") {
      if (is_zero(a) && keeps_type(a, b)) return b;
      if (is_zero(b) && keeps_type(b, a)) return a;
    } else if (op == "-") {
      if (is_zero(b) && keeps_type(b, a)) return a;
    } else if (op == "*") {
      if (is_one(a) && keeps_type(a, b)) return b;
      if (is_one(b) && keeps_type(b, a)) return a;
      // Only integers: a real product with zero is NaN for NaN or inf, -0 for negatives.
      if ((is_int(a, 0) && kind(b) == Kind::Int) || (is_int(b, 0) && kind(a) == Kind::Int)) return lit(0);
    } else if (op == "/") {
      if (is_one(b) && keeps_type(b, a)) return a;
    } else if (op == "&&" || op == "||") {
      const bool conj = op == "&&";
      const Ex *sides[2][2] = {{&a, &b}, {&b, &a}};  // {literal?, other}
      for (const auto &side : sides) {
        const Ex &literal = *side[0], &other = *side[1];
        if (literal.node->kind != ExprNode::IntLit) continue;
        const bool truth = literal.node->int_value != 0;
        if (truth != conj) return lit(conj ? 0 : 1);  // 0 && x, 1 || x: x has no side effect
        if (boolean(other)) return other;             // 1 && x, 0 || x, for x already 0 or 1
      }
    }
    return Ex{std::make_shared<const ExprNode>(n)};
  }

  // C's integer arithmetic on two literals; nullopt where it is undefined (x / 0).
  static std::optional<long long> both_integers(const std::string &op, long long x, long long y)
  {
    if (op == "+") return x + y;
    if (op == "-") return x - y;
    if (op == "*") return x * y;
    if ((op == "/" || op == "%") && y == 0) return std::nullopt;
    if (op == "/") return x / y;  // truncates toward zero, as C does
    if (op == "%") return x % y;
    if (op == "<") return x < y;
    if (op == ">") return x > y;
    if (op == "<=") return x <= y;
    if (op == ">=") return x >= y;
    if (op == "==") return x == y;
    if (op == "!=") return x != y;
    if (op == "&&") return x && y;
    if (op == "||") return x || y;
    return std::nullopt;
  }

  const NameTypes &names_;
};

Ex fold_in(const Ex &e, const NameTypes &names) { return Folder(names)(e); }

// Statements in order: a declaration's name is known from the next statement on, a
// loop's index inside its body; a body's names end with it (its own copy of `names`).
Block fold_block(const Block &block, NameTypes names)
{
  Block out;
  out.reserve(block.size());
  for (Stmt s : block) {
    for (Ex *e : {&s.size, &s.alias, &s.target, &s.value, &s.cond, &s.lo, &s.hi}) *e = fold_in(*e, names);
    for (Ex &e : s.operands) e = fold_in(e, names);
    if (s.kind == Stmt::Decl) names[s.name] = s.type;
    if (s.kind == Stmt::For) {
      NameTypes inner = names;
      inner[s.name] = Type::Int;
      s.body = fold_block(s.body, inner);
    } else {
      s.body = fold_block(s.body, names);
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace

Ex fold(const Ex &e, const NameTypes &names) { return fold_in(e, names); }

Kernel fold_constants(const Kernel &k)
{
  NameTypes names;
  for (const auto &[name, value] : k.sizes) names[name] = Type::Int;  // #define NAME value
  for (const auto &[name, values] : k.constant_arrays) names[name] = Type::Real;
  for (const Param &p : k.params) names[p.name] = p.type;
  Kernel folded = k;
  folded.body = fold_block(k.body, names);
  return folded;
}

}  // namespace femgpu::kernel
