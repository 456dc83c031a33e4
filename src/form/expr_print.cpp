// UFL-like text for expressions: used in error messages and by `femgpu-form --ir`.
#include <sstream>

#include "form/expr.h"

namespace femgpu {

namespace {

const char *op_name(Op op)
{
  switch (op) {
    case Op::Inner: return "inner";
    case Op::Dot: return "dot";
    case Op::Outer: return "outer";
    case Op::Cross: return "cross";
    case Op::Transpose: return "transpose";
    case Op::Trace: return "tr";
    case Op::Determinant: return "det";
    case Op::Inverse: return "inv";
    case Op::Sym: return "sym";
    case Op::Skew: return "skew";
    case Op::Dev: return "dev";
    case Op::Grad: return "grad";
    case Op::Div: return "div";
    case Op::NablaGrad: return "nabla_grad";
    case Op::NablaDiv: return "nabla_div";
    case Op::Curl: return "curl";
    case Op::MinValue: return "min_value";
    case Op::MaxValue: return "max_value";
    case Op::Conditional: return "conditional";
    case Op::Variable: return "variable";
    case Op::Diff: return "diff";
    case Op::Derivative: return "derivative";
    case Op::ListTensor: return "as_vector";
    default: return "?";
  }
}

void print(std::ostream &os, const Expr &e);

void print_call(std::ostream &os, const char *name, const Expr &e)
{
  os << name << "(";
  for (size_t i = 0; i < e->operands.size(); ++i) {
    if (i) os << ", ";
    print(os, e->operands[i]);
  }
  os << ")";
}

void print_binary(std::ostream &os, const char *sym, const Expr &e)
{
  os << "(";
  print(os, e->operands[0]);
  os << " " << sym << " ";
  print(os, e->operands[1]);
  os << ")";
}

void print(std::ostream &os, const Expr &e)
{
  switch (e->op) {
    case Op::Argument:
    case Op::Coefficient:
    case Op::Constant: os << e->name; return;
    case Op::Literal: os << e->value; return;
    case Op::SpatialCoordinate: os << "x"; return;
    case Op::FacetNormal: os << "n"; return;
    case Op::Identity: os << "Identity(" << e->shape[0] << ")"; return;
    case Op::Sum: print_binary(os, "+", e); return;
    case Op::Product: print_binary(os, "*", e); return;
    case Op::Division: print_binary(os, "/", e); return;
    case Op::Power: print_binary(os, "**", e); return;
    case Op::Negate: os << "-"; print(os, e->operands[0]); return;
    case Op::Indexed:
      print(os, e->operands[0]);
      os << "[";
      for (size_t i = 0; i < e->indices.size(); ++i) os << (i ? ", " : "") << e->indices[i];
      os << "]";
      return;
    case Op::MathFunction: print_call(os, e->name.c_str(), e); return;
    case Op::Condition:
      if (e->name == "not") print_call(os, "Not", e);
      else print_call(os, e->name.c_str(), e);
      return;
    default: print_call(os, op_name(e->op), e); return;
  }
}

}  // namespace

std::string to_string(const Expr &e)
{
  std::ostringstream os;
  print(os, e);
  return os.str();
}

}  // namespace femgpu
