// Hash-consed scalar SSA with constant folding and local identities.
#include "ir/program.h"

#include <cmath>
#include <sstream>

#include "form/expr.h"

namespace femgpu {

const char *sop_name(SOp op)
{
  static const char *names[] = {"const", "input", "add",  "mul",  "div",  "pow",  "neg",  "sqrt", "exp",
                                "log",   "abs",   "sin",  "cos",  "tan",  "asin", "acos", "atan", "sinh",
                                "cosh",  "tanh",  "erf",  "sign", "min",  "max",  "lt",   "le",   "gt",
                                "ge",    "eq",    "ne",   "and",  "or",   "not",  "select", "ident"};
  return names[static_cast<int>(op)];
}

bool is_unary_function(SOp op) { return op >= SOp::Sqrt && op <= SOp::Sign; }
bool is_condition(SOp op) { return op >= SOp::Lt && op <= SOp::Not; }

bool InputRef::operator<(const InputRef &o) const
{
  return std::tie(kind, function, component, alpha, row, col, slot) <
         std::tie(o.kind, o.function, o.component, o.alpha, o.row, o.col, o.slot);
}

std::string input_name(const InputRef &in)
{
  std::ostringstream os;
  switch (in.kind) {
    case InputKind::Eval:
      os << "eval(" << (in.function == kCoordinates ? std::string("coords")
                        : in.function == kTestFunction ? std::string("v")
                        : in.function == kTrialFunction ? std::string("u")
                        : "w" + std::to_string(in.function - 2))
         << "[" << in.component << "], d" << in.alpha[0] << in.alpha[1] << in.alpha[2] << ")";
      break;
    case InputKind::Jacobian: os << "J[" << in.row << "][" << in.col << "]"; break;
    case InputKind::Weight: os << "weight"; break;
    case InputKind::Constant: os << "constant[" << in.slot << "]"; break;
  }
  return os.str();
}

double apply_sop(SOp op, double a, double b, double c)
{
  switch (op) {
    case SOp::Add: return a + b;
    case SOp::Mul: return a * b;
    case SOp::Div: return a / b;
    case SOp::Pow: return std::pow(a, b);
    case SOp::Neg: return -a;
    case SOp::Sqrt: return std::sqrt(a);
    case SOp::Exp: return std::exp(a);
    case SOp::Log: return std::log(a);
    case SOp::Abs: return std::fabs(a);
    case SOp::Sin: return std::sin(a);
    case SOp::Cos: return std::cos(a);
    case SOp::Tan: return std::tan(a);
    case SOp::Asin: return std::asin(a);
    case SOp::Acos: return std::acos(a);
    case SOp::Atan: return std::atan(a);
    case SOp::Sinh: return std::sinh(a);
    case SOp::Cosh: return std::cosh(a);
    case SOp::Tanh: return std::tanh(a);
    case SOp::Erf: return std::erf(a);
    case SOp::Sign: return a > 0 ? 1.0 : (a < 0 ? -1.0 : 0.0);
    case SOp::Min: return std::fmin(a, b);
    case SOp::Max: return std::fmax(a, b);
    case SOp::Lt: return a < b;
    case SOp::Le: return a <= b;
    case SOp::Gt: return a > b;
    case SOp::Ge: return a >= b;
    case SOp::Eq: return a == b;
    case SOp::Ne: return a != b;
    case SOp::And: return (a != 0) && (b != 0);
    case SOp::Or: return (a != 0) || (b != 0);
    case SOp::Not: return a == 0;
    case SOp::Select: return a != 0 ? b : c;
    case SOp::Ident: return a;
    default: return 0.0;
  }
}

bool Program::is_const(int id, double v) const { return node(id).op == SOp::Const && node(id).value == v; }

int Program::intern(const SNode &n)
{
  // Fold operations on constants, but never hide a non-finite result: that is a form error.
  bool foldable = n.op != SOp::Const && n.op != SOp::Input && n.op != SOp::Ident && n.a >= 0 && is_const(n.a) &&
                  (n.b < 0 || is_const(n.b)) && (n.c < 0 || is_const(n.c));
  if (foldable) {
    double v = apply_sop(n.op, node(n.a).value, n.b >= 0 ? node(n.b).value : 0.0, n.c >= 0 ? node(n.c).value : 0.0);
    if (!std::isfinite(v))
      throw FormError(std::string("the form evaluates ") + sop_name(n.op) + " of constants to a non-finite value");
    return constant(v);
  }
  double value = n.op == SOp::Const ? (n.value == 0.0 ? 0.0 : n.value) : 0.0;  // one zero, not +0 and -0
  Key key{static_cast<int>(n.op), n.a, n.b, n.c, value, n.input, n.label, n.comp};
  auto it = index_.find(key);
  if (it != index_.end()) return it->second;
  SNode stored = n;
  stored.value = value;
  nodes_.push_back(stored);
  int id = static_cast<int>(nodes_.size()) - 1;
  index_.emplace(key, id);
  return id;
}

int Program::constant(double v)
{
  if (!std::isfinite(v)) throw FormError("a constant in the form is not finite");
  SNode n;
  n.op = SOp::Const;
  n.value = v;
  return intern(n);
}

int Program::input(const InputRef &in)
{
  auto it = input_index_.find(in);
  int slot;
  if (it == input_index_.end()) {
    inputs_.push_back(in);
    slot = static_cast<int>(inputs_.size()) - 1;
    input_index_.emplace(in, slot);
  } else {
    slot = it->second;
  }
  SNode n;
  n.op = SOp::Input;
  n.input = slot;
  return intern(n);
}

// +-2^k: scaling by it is exact.
static bool power_of_two(double v)
{
  int e = 0;
  return std::fabs(std::frexp(v, &e)) == 0.5;
}

static SNode make2(SOp op, int a, int b)
{
  SNode n;
  n.op = op;
  n.a = a;
  n.b = b;
  return n;
}

int Program::add(int a, int b)
{
  if (is_const(a, 0.0)) return b;
  if (is_const(b, 0.0)) return a;
  // x + x is 2x exactly; as a scaling it meets mul's folding below, so that sym(grad u)'s
  // 0.5 * (g + g) is g itself, and no register holds a copy of a per-cell value.
  if (a == b) return mul(constant(2.0), a);
  if (node(b).op == SOp::Neg && node(b).a == a) return zero();
  if (node(a).op == SOp::Neg && node(a).a == b) return zero();
  if (a > b) std::swap(a, b);  // canonical order finds more common subexpressions
  return intern(make2(SOp::Add, a, b));
}

int Program::mul(int a, int b)
{
  if (is_const(a, 0.0) || is_const(b, 0.0)) return zero();
  if (is_const(a, 1.0)) return b;
  if (is_const(b, 1.0)) return a;
  if (is_const(a, -1.0)) return neg(b);
  if (is_const(b, -1.0)) return neg(a);
  // c * (d * x) -> (c d) * x where c or d is a power of two: then both round the same
  // real product, so the result is the same bits (outside overflow and underflow).
  if (is_const(b)) std::swap(a, b);
  if (is_const(a) && node(b).op == SOp::Mul) {
    const SNode &m = node(b);
    const int d = is_const(m.a) ? m.a : is_const(m.b) ? m.b : -1;
    const double cd = d >= 0 ? node(a).value * node(d).value : 0.0;
    if (d >= 0 && std::isfinite(cd) && cd != 0.0 && (power_of_two(node(a).value) || power_of_two(node(d).value)))
      return mul(constant(cd), d == m.a ? m.b : m.a);
  }
  if (a > b) std::swap(a, b);
  return intern(make2(SOp::Mul, a, b));
}

int Program::div(int a, int b)
{
  if (is_const(b, 0.0)) throw FormError("the form divides by zero");
  if (is_const(a, 0.0)) return zero();
  if (is_const(b, 1.0)) return a;
  if (a == b) return one();
  return intern(make2(SOp::Div, a, b));
}

int Program::pow(int a, int b)
{
  if (is_const(b, 1.0)) return a;
  if (is_const(b, 0.0)) return one();
  return intern(make2(SOp::Pow, a, b));
}

int Program::neg(int a)
{
  if (node(a).op == SOp::Neg) return node(a).a;
  SNode n;
  n.op = SOp::Neg;
  n.a = a;
  return intern(n);
}

int Program::unary(SOp op, int a)
{
  SNode n;
  n.op = op;
  n.a = a;
  return intern(n);
}

int Program::binary(SOp op, int a, int b) { return intern(make2(op, a, b)); }

int Program::select(int cond, int t, int f)
{
  if (t == f) return t;
  if (is_const(cond)) return node(cond).value != 0.0 ? t : f;
  SNode n;
  n.op = SOp::Select;
  n.a = cond;
  n.b = t;
  n.c = f;
  return intern(n);
}

int Program::ident(int a, int label, int comp)
{
  SNode n;
  n.op = SOp::Ident;
  n.a = a;
  n.label = label;
  n.comp = comp;
  return intern(n);
}

}  // namespace femgpu
