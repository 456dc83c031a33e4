// The kernel representation both emitters print: a small C-like AST.
//
// Takes: builder calls (build.h makes whole kernels from an ActionIR and a Schedule).
// Returns: immutable trees; expressions are shared, statements are values.
// Does not: know CUDA or OpenCL spelling. Everything that differs between them is
// either a Builtin (work-item indices), a statement kind (Barrier, AtomicAdd) or a
// declaration's Space, and the dialect tables in emit.cpp spell it.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "schedule/schedule.h"

namespace femgpu::kernel {

// Where a variable lives: the r_/s_/g_/c_ prefixes of the generated names.
enum class Space { Register, Shared, Global, Constant };
enum class Type { Real, Int };
// Work-item indices: x is the work-item within a cell (fastest), y the cell within the
// group, and the group index along x.
enum class Builtin { LocalX, LocalY, GroupX };

struct ExprNode;

// An expression handle with C operators, so builders read like the code they make.
struct Ex {
  std::shared_ptr<const ExprNode> node;
  Ex operator[](const Ex &index) const;
};

struct ExprNode {
  enum Kind { Var, IntLit, RealLit, BuiltinIndex, Unary, Binary, Call, Index, AddressOf, Select, ToReal };
  Kind kind = Var;
  std::string text;  // Var: name; Unary/Binary: operator; Call: canonical math name
  long long int_value = 0;
  double real_value = 0.0;
  Builtin builtin = Builtin::LocalX;
  std::vector<Ex> args;
};

Ex var(const std::string &name);
Ex lit(long long value);
Ex real_lit(double value);
Ex builtin(Builtin b);
Ex unary(const std::string &op, const Ex &a);
Ex binary(const std::string &op, const Ex &a, const Ex &b);
Ex call(const std::string &math_function, std::vector<Ex> args);  // sqrt, pow, ...
Ex select(const Ex &cond, const Ex &t, const Ex &f);
Ex address_of(const Ex &lvalue);
Ex to_real(const Ex &a);
Ex min_of(const Ex &a, const Ex &b);  // integer min through select: no dialect names

Ex operator+(const Ex &a, const Ex &b);
Ex operator-(const Ex &a, const Ex &b);
Ex operator*(const Ex &a, const Ex &b);
Ex operator/(const Ex &a, const Ex &b);
Ex operator%(const Ex &a, const Ex &b);
Ex operator<(const Ex &a, const Ex &b);
Ex operator>=(const Ex &a, const Ex &b);
Ex operator&&(const Ex &a, const Ex &b);

struct Stmt {
  enum Kind { Decl, Assign, Accumulate, For, If, Barrier, AtomicAdd, Mma, Comment };
  Kind kind = Comment;
  Space space = Space::Register;  // Decl
  Type type = Type::Real;         // Decl
  bool is_const = false;          // Decl
  std::string name;               // Decl: variable; For: induction variable
  Ex size;                        // Decl: array length when set
  Ex alias;                       // Decl (shared): when set, the array starts at this address of another
  Ex target, value;               // Decl init; Assign/Accumulate target = value; AtomicAdd address, value
  Ex cond;                        // If
  Ex lo, hi;                      // For: lo <= name < hi
  bool unroll = false;            // For: ask the compiler to unroll it fully (constant bounds)
  bool warp = false;              // AtomicAdd: warp-aggregated (schedule.h's Scatter::Warp)
  std::vector<Ex> operands;       // Mma: d0, d1 (this lane's two accumulators), a, b
  std::vector<Stmt> body;         // For, If
  std::string text;               // Comment
};
using Block = std::vector<Stmt>;

Stmt declare(Space space, Type type, const std::string &name, const Ex &init, bool is_const = true);
Stmt declare_array(Space space, Type type, const std::string &name, const Ex &size);
// A shared array that occupies no memory of its own: it starts at `address`, inside an
// array declared before it, whose words it may use while that array's are not live.
Stmt declare_shared_alias(Type type, const std::string &name, const Ex &address);
Stmt assign(const Ex &target, const Ex &value);
Stmt accumulate(const Ex &target, const Ex &value);  // target += value
Stmt loop(const std::string &index, const Ex &lo, const Ex &hi, Block body);
// The same loop, marked for full unrolling (#pragma unroll): its bounds must be constants.
Stmt unrolled(Stmt for_loop);
Stmt if_then(const Ex &cond, Block body);
Stmt barrier();
// *address += value, atomically (build_common.h's apply_scatter may make it
// warp-aggregated afterwards).
Stmt atomic_add(const Ex &address, const Ex &value);
// One warp-wide FP64 matrix product D += A B of an 8 x 4 tile A and a 4 x 8 tile B
// (PTX mma.sync.aligned.m8n8k4.row.col.f64): every lane of the warp executes it with its
// own fragment words, a = A[lane / 4][lane % 4], b = B[lane % 4][lane / 4], and d0, d1 =
// D[lane / 4][2 (lane % 4)] and D[lane / 4][2 (lane % 4) + 1]. All 32 lanes must reach
// it together (warp-uniform control flow). CUDA only: the OpenCL emitter refuses it.
Stmt mma_8x8x4(const Ex &d0, const Ex &d1, const Ex &a, const Ex &b);
Stmt comment(const std::string &text);

// A kernel argument; pointers live in global memory.
struct Param {
  std::string name;
  Type type = Type::Real;
  bool pointer = true;
  bool written = false;
};

struct Kernel {
  std::string name;
  std::string schedule;  // to_string(Schedule), printed atop the source
  Precision precision = Precision::FP64;
  std::vector<std::pair<std::string, long long>> sizes;  // compile-time constants, UPPER_CASE
  // Constant-memory arrays with their values, printed at program scope (c_ names).
  std::vector<std::pair<std::string, std::vector<double>>> constant_arrays;
  std::vector<Param> params;
  Block body;
  int block_x = 1, block_y = 1;  // work-items per group: (LocalX, LocalY) extents
  int cells_per_group = 1;
  // CUDA: at least this many groups resident per SM (__launch_bounds__), 0: no bound.
  int groups_per_sm = 0;
};

}  // namespace femgpu::kernel
