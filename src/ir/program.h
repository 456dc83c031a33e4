// A scalar SSA program: the pointwise maps g_j of the paper's Eq. (3), plus geometry.
//
// Takes: builder calls; each returns the id of an existing equal node when there is one
// (hash-consing removes common subexpressions), folds constants and applies the
// identities x+0, x*1, x*0, x-x, -(-x), x/1, and the exact rewrites x+x = 2*x and
// c*(d*x) = (c*d)*x where c or d is a power of two.
// Returns: nodes in topological order (every operand id is smaller than its user).
// Does not: know about tensors or forms; scalarize.cpp builds it from expressions.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace femgpu {

enum class SOp : std::uint8_t {
  Const, Input,
  Add, Mul, Div, Pow, Neg,
  Sqrt, Exp, Log, Abs, Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh, Tanh, Erf, Sign,
  Min, Max,
  Lt, Le, Gt, Ge, Eq, Ne, And, Or, Not,  // conditions: 1.0 or 0.0
  Select,                                // a ? b : c
  Ident,                                 // a marked as a `variable` (label, comp) for diff()
};

const char *sop_name(SOp op);
bool is_unary_function(SOp op);
bool is_condition(SOp op);

struct SNode {
  SOp op = SOp::Const;
  int a = -1, b = -1, c = -1;  // operands
  double value = 0.0;          // Const
  int input = -1;              // Input: index into Program::inputs()
  int label = -1, comp = -1;   // Ident
};

// Where an input comes from. Functions are numbered: 0 test v, 1 trial u, 2+i
// coefficient i, and kCoordinates for the coordinate field.
enum class InputKind : std::uint8_t { Eval, Jacobian, Weight, Constant };

constexpr int kTestFunction = 0;
constexpr int kTrialFunction = 1;
constexpr int kCoordinates = -1;
inline int coefficient_function(int slot) { return 2 + slot; }

struct InputRef {
  InputKind kind = InputKind::Eval;
  int function = 0;                  // Eval
  int component = 0;                 // Eval
  std::array<int, 3> alpha{0, 0, 0}; // Eval: reference derivative counts
  int row = 0, col = 0;              // Jacobian (affine geometry: one per cell)
  int slot = 0;                      // Constant
  bool operator<(const InputRef &o) const;
  bool operator==(const InputRef &o) const { return !(*this < o) && !(o < *this); }
};

std::string input_name(const InputRef &in);

class Program {
 public:
  int constant(double v);
  int input(const InputRef &in);
  int add(int a, int b);
  int sub(int a, int b) { return add(a, neg(b)); }
  int mul(int a, int b);
  int div(int a, int b);
  int pow(int a, int b);
  int neg(int a);
  int unary(SOp op, int a);       // Sqrt .. Sign, Not
  int binary(SOp op, int a, int b);  // Min, Max, Lt .. Or
  int select(int cond, int t, int f);
  int ident(int a, int label, int comp);

  const SNode &node(int id) const { return nodes_[static_cast<size_t>(id)]; }
  int size() const { return static_cast<int>(nodes_.size()); }
  const std::vector<SNode> &nodes() const { return nodes_; }
  const std::vector<InputRef> &inputs() const { return inputs_; }
  bool is_const(int id, double v) const;
  bool is_const(int id) const { return node(id).op == SOp::Const; }
  int zero() { return constant(0.0); }
  int one() { return constant(1.0); }

 private:
  using Key = std::tuple<int, int, int, int, double, int, int, int>;
  int intern(const SNode &n);
  std::vector<SNode> nodes_;
  std::vector<InputRef> inputs_;
  std::map<Key, int> index_;
  std::map<InputRef, int> input_index_;
};

// Evaluates a node's operation on numbers (used for folding and by the CPU oracle).
double apply_sop(SOp op, double a, double b, double c);

}  // namespace femgpu
