// Constructors of the kernel AST; no folding beyond what keeps literals readable.
#include "kernel/kernel_ast.h"

namespace femgpu::kernel {

namespace {

Ex make(ExprNode n) { return Ex{std::make_shared<const ExprNode>(std::move(n))}; }

}  // namespace

Ex Ex::operator[](const Ex &index) const
{
  ExprNode n;
  n.kind = ExprNode::Index;
  n.args = {*this, index};
  return make(std::move(n));
}

Ex var(const std::string &name)
{
  ExprNode n;
  n.kind = ExprNode::Var;
  n.text = name;
  return make(std::move(n));
}

Ex lit(long long value)
{
  ExprNode n;
  n.kind = ExprNode::IntLit;
  n.int_value = value;
  return make(std::move(n));
}

Ex real_lit(double value)
{
  ExprNode n;
  n.kind = ExprNode::RealLit;
  n.real_value = value;
  return make(std::move(n));
}

Ex builtin(Builtin b)
{
  ExprNode n;
  n.kind = ExprNode::BuiltinIndex;
  n.builtin = b;
  return make(std::move(n));
}

Ex unary(const std::string &op, const Ex &a)
{
  ExprNode n;
  n.kind = ExprNode::Unary;
  n.text = op;
  n.args = {a};
  return make(std::move(n));
}

Ex binary(const std::string &op, const Ex &a, const Ex &b)
{
  ExprNode n;
  n.kind = ExprNode::Binary;
  n.text = op;
  n.args = {a, b};
  return make(std::move(n));
}

Ex call(const std::string &math_function, std::vector<Ex> args)
{
  ExprNode n;
  n.kind = ExprNode::Call;
  n.text = math_function;
  n.args = std::move(args);
  return make(std::move(n));
}

Ex select(const Ex &cond, const Ex &t, const Ex &f)
{
  ExprNode n;
  n.kind = ExprNode::Select;
  n.args = {cond, t, f};
  return make(std::move(n));
}

Ex address_of(const Ex &lvalue)
{
  ExprNode n;
  n.kind = ExprNode::AddressOf;
  n.args = {lvalue};
  return make(std::move(n));
}

Ex to_real(const Ex &a)
{
  ExprNode n;
  n.kind = ExprNode::ToReal;
  n.args = {a};
  return make(std::move(n));
}

Ex min_of(const Ex &a, const Ex &b) { return select(a < b, a, b); }

Ex operator+(const Ex &a, const Ex &b) { return binary("+", a, b); }
Ex operator-(const Ex &a, const Ex &b) { return binary("-", a, b); }
Ex operator*(const Ex &a, const Ex &b) { return binary("*", a, b); }
Ex operator/(const Ex &a, const Ex &b) { return binary("/", a, b); }
Ex operator%(const Ex &a, const Ex &b) { return binary("%", a, b); }
Ex operator<(const Ex &a, const Ex &b) { return binary("<", a, b); }
Ex operator>=(const Ex &a, const Ex &b) { return binary(">=", a, b); }
Ex operator&&(const Ex &a, const Ex &b) { return binary("&&", a, b); }

Stmt declare(Space space, Type type, const std::string &name, const Ex &init, bool is_const)
{
  Stmt s;
  s.kind = Stmt::Decl;
  s.space = space;
  s.type = type;
  s.name = name;
  s.value = init;
  s.is_const = is_const;
  return s;
}

Stmt declare_array(Space space, Type type, const std::string &name, const Ex &size)
{
  Stmt s;
  s.kind = Stmt::Decl;
  s.space = space;
  s.type = type;
  s.name = name;
  s.size = size;
  return s;
}

Stmt declare_shared_alias(Type type, const std::string &name, const Ex &address)
{
  Stmt s = declare_array(Space::Shared, type, name, Ex{});
  s.alias = address;
  return s;
}

Stmt assign(const Ex &target, const Ex &value)
{
  Stmt s;
  s.kind = Stmt::Assign;
  s.target = target;
  s.value = value;
  return s;
}

Stmt accumulate(const Ex &target, const Ex &value)
{
  Stmt s = assign(target, value);
  s.kind = Stmt::Accumulate;
  return s;
}

Stmt loop(const std::string &index, const Ex &lo, const Ex &hi, Block body)
{
  Stmt s;
  s.kind = Stmt::For;
  s.name = index;
  s.lo = lo;
  s.hi = hi;
  s.body = std::move(body);
  return s;
}

Stmt unrolled(Stmt for_loop)
{
  if (for_loop.kind != Stmt::For) throw std::logic_error("unrolled: not a loop");
  for_loop.unroll = true;
  return for_loop;
}

Stmt if_then(const Ex &cond, Block body)
{
  Stmt s;
  s.kind = Stmt::If;
  s.cond = cond;
  s.body = std::move(body);
  return s;
}

Stmt barrier()
{
  Stmt s;
  s.kind = Stmt::Barrier;
  return s;
}

Stmt atomic_add(const Ex &address, const Ex &value)
{
  Stmt s;
  s.kind = Stmt::AtomicAdd;
  s.target = address;
  s.value = value;
  return s;
}

Stmt mma_8x8x4(const Ex &d0, const Ex &d1, const Ex &a, const Ex &b)
{
  Stmt s;
  s.kind = Stmt::Mma;
  s.operands = {d0, d1, a, b};
  return s;
}

Stmt comment(const std::string &text)
{
  Stmt s;
  s.kind = Stmt::Comment;
  s.text = text;
  return s;
}

}  // namespace femgpu::kernel
