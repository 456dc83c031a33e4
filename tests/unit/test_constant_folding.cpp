// Constant folding on the kernel AST (kernel/fold_constants.h): integer and boolean
// constants fold, real expressions fold only where IEEE arithmetic gives the same bits,
// and no generated kernel of any strategy or dialect keeps a foldable `1 && x`, `x + 0`,
// `x * 1` or `0 * i`. That the folded kernels compute what they did is what the numeric
// tests (OpenCL against the reference, NVRTC compiles) check, unchanged.
#include <catch2/catch.hpp>

#include <random>
#include <regex>
#include <sstream>

#include "kernel/build.h"
#include "kernel/build_transfer.h"
#include "kernel/emit.h"
#include "kernel/fold_constants.h"
#include "support/action_cases.h"

using namespace femgpu;
using namespace femgpu::kernel;
using namespace femgpu::test;

namespace {

// A plain print of an expression (operators parenthesized), for comparing trees.
std::string show(const Ex &e)
{
  const ExprNode &n = *e.node;
  switch (n.kind) {
    case ExprNode::Var: return n.text;
    case ExprNode::IntLit: return std::to_string(n.int_value);
    case ExprNode::RealLit: {
      std::ostringstream os;
      os << n.real_value << "r";
      return os.str();
    }
    case ExprNode::Unary: return "(" + n.text + show(n.args[0]) + ")";
    case ExprNode::Binary: return "(" + show(n.args[0]) + " " + n.text + " " + show(n.args[1]) + ")";
    case ExprNode::Select: return "(" + show(n.args[0]) + " ? " + show(n.args[1]) + " : " + show(n.args[2]) + ")";
    case ExprNode::Index: return show(n.args[0]) + "[" + show(n.args[1]) + "]";
    case ExprNode::ToReal: return "real(" + show(n.args[0]) + ")";
    default: return "?";
  }
}

const NameTypes kNames{{"i", Type::Int}, {"N", Type::Int}, {"x", Type::Real}, {"g_u", Type::Real}, {"g_map", Type::Int}};

std::string folded(const Ex &e) { return show(fold(e, kNames)); }

// The foldable patterns, as printed code: each needs the literal to stand alone (not
// part of a name or of a number such as 0.1 or 1.5, nor a negative literal).
const std::vector<std::pair<std::string, std::regex>> &foldable_patterns()
{
  static const std::vector<std::pair<std::string, std::regex>> p{
      {"1 && x", std::regex(R"((^|[^\w.\-])1 && )")},
      {"x && 1", std::regex(R"( && 1($|[^\w.]))")},
      {"0 || x", std::regex(R"((^|[^\w.\-])0 \|\| )")},
      {"x || 0", std::regex(R"( \|\| 0($|[^\w.]))")},
      {"x + 0, x - 0", std::regex(R"( [-+] 0(\.0*)?f?($|[^\w.]))")},
      {"0 + x", std::regex(R"((^|[^\w.\-\])])0(\.0*)?f? \+ )")},
      {"x * 1, x / 1", std::regex(R"( [*/] 1(\.0*)?f?($|[^\w.]))")},
      {"1 * x", std::regex(R"((^|[^\w.\-])1(\.0*)?f? \* )")},
      {"0 * i", std::regex(R"((^|[^\w.\-])0 \* )")},
      {"i * 0", std::regex(R"( \* 0($|[^\w.]))")},
  };
  return p;
}

// The foldable patterns found in a source's code (comments left out), one line each.
std::vector<std::string> foldable_lines(const std::string &source)
{
  std::vector<std::string> found;
  std::istringstream lines(source);
  for (std::string line; std::getline(lines, line);) {
    const std::string code = line.substr(0, line.find("//"));
    for (const auto &[name, pattern] : foldable_patterns())
      if (std::regex_search(code, pattern)) found.push_back(name + ": " + line);
  }
  return found;
}

void check_folded(const std::string &what, const std::string &source)
{
  INFO(what);
  CHECK(foldable_lines(source).empty());
  for (const std::string &line : foldable_lines(source)) UNSCOPED_INFO(line);
}

}  // namespace

TEST_CASE("integer and boolean constants fold", "[kernel][fold]")
{
  const Ex i = var("i"), N = var("N");
  CHECK(folded(lit(2) * lit(3) + lit(1)) == "7");
  CHECK(folded(lit(7) / lit(2)) == "3");
  CHECK(folded(lit(-7) % lit(2)) == "-1");  // C truncates toward zero
  CHECK(folded(lit(1) / lit(0)) == "(1 / 0)");  // undefined: left for the compiler to refuse
  CHECK(folded(lit(3) < lit(4)) == "1");
  CHECK(folded((i * lit(1)) + lit(0)) == "i");
  CHECK(folded(lit(0) + i) == "i");
  CHECK(folded(i - lit(0)) == "i");
  CHECK(folded(lit(0) * N + i) == "i");  // 0 * N: N is an integer
  CHECK(folded(i * (N - N + lit(0))) == "(i * (N - N))");  // no algebra beyond literals
  CHECK(folded(lit(1) && (i < N)) == "(i < N)");
  CHECK(folded((i < N) && lit(1)) == "(i < N)");
  CHECK(folded(lit(0) && (i < N)) == "0");
  CHECK(folded(binary("||", lit(0), i < N)) == "(i < N)");
  CHECK(folded(binary("||", i < N, lit(1))) == "1");
  CHECK(folded(lit(1) && i) == "(1 && i)");  // i may be 5: 1 && 5 is 1, not 5
  CHECK(folded(select(lit(1) && lit(1), i, N)) == "i");
  CHECK(folded(var("g_map")[i * lit(1) + lit(0)]) == "g_map[i]");
  CHECK(folded(unary("-", lit(3)) + lit(3)) == "0");
}

TEST_CASE("real expressions fold only where the result is bit for bit the same", "[kernel][fold]")
{
  const Ex i = var("i"), x = var("x"), y = var("y");  // y: a name of unknown type
  CHECK(folded(x * real_lit(1.0)) == "x");
  CHECK(folded(real_lit(1.0) * x) == "x");
  CHECK(folded(x / real_lit(1.0)) == "x");
  CHECK(folded(x * lit(1)) == "x");
  CHECK(folded(x - real_lit(0.0)) == "x");
  CHECK(folded(x + real_lit(0.0)) == "x");  // differs only for x = -0.0 (fold_constants.h)
  CHECK(folded(var("g_u")[lit(2) * lit(0) + i] * real_lit(1.0)) == "g_u[i]");
  // 0 * x is NaN for x = NaN or inf and -0 for x < 0: kept.
  CHECK(folded(real_lit(0.0) * x) == "(0r * x)");
  CHECK(folded(lit(0) * x) == "(0 * x)");
  CHECK(folded(x * lit(0)) == "(x * 0)");
  // Folding would change the type: 0.0 + i is real, i an integer.
  CHECK(folded(real_lit(0.0) + i) == "(0r + i)");
  CHECK(folded(i * real_lit(1.0)) == "(i * 1r)");
  // Unknown types fold only through integer literals, which never change a type.
  CHECK(folded(y * real_lit(1.0)) == "(y * 1r)");
  CHECK(folded(y + lit(0)) == "y");
  CHECK(folded(lit(0) * y) == "(0 * y)");
  // Two real literals are left alone (an FP32 kernel would round differently).
  CHECK(folded(real_lit(0.1) + real_lit(0.2)) == "(0.1r + 0.2r)");
  CHECK(folded(to_real(lit(3))) == "3r");
  CHECK(folded(select(lit(1), x, i)) == "(1 ? x : i)");  // C would convert i to real
}

TEST_CASE("folding follows the kernel's declarations and scopes", "[kernel][fold]")
{
  Kernel k;
  k.sizes = {{"N_DOFS", 6}};
  k.params = {{"g_out", Type::Real, true, true}};
  // r_a is real in the first loop and an integer in the second: 0 * r_a folds only there.
  k.body = {loop("i_a", lit(0), var("N_DOFS"),
                 {declare(Space::Register, Type::Real, "r_a", var("g_out")[var("i_a")]),
                  assign(var("g_out")[var("i_a") * lit(1)], lit(0) * var("r_a"))}),
            loop("i_b", lit(0), var("N_DOFS") * lit(1),
                 {declare(Space::Register, Type::Int, "r_a", var("i_b")),
                  assign(var("g_out")[var("i_b") + lit(0) * var("r_a")], real_lit(1.0) * var("g_out")[var("i_b")])})};
  const Kernel f = fold_constants(k);
  const Block &first = f.body[0].body, &second = f.body[1].body;
  CHECK(show(first[1].target) == "g_out[i_a]");
  CHECK(show(first[1].value) == "(0 * r_a)");
  CHECK(show(f.body[1].hi) == "N_DOFS");
  CHECK(show(second[1].target) == "g_out[i_b]");
  CHECK(show(second[1].value) == "g_out[i_b]");
  // The given kernel is unchanged: folding returns a new one.
  CHECK(show(k.body[0].body[1].target) == "g_out[(i_a * 1)]");
}

TEST_CASE("the foldable patterns are found in code that has them", "[kernel][fold]")
{
  // The pattern check must be able to fail: these lines are what unfolded kernels held.
  for (const char *line : {"const int r_map = (1 && (i_dof < N_DOFS_U)) ? g_u_map[((r_cell * N_DOFS_U) + 0) + i_dof] : -1;",
                           "r_e_g0_t0 += r_phi0 * r_u[(i_basis * 1) + 0];", "s_buf[((0 * (EVAL_ROWS * EVAL_STRIDE_G0)) + r_i)] = 1.0;",
                           "real *s_b = s_dynamic + 0;", "r = x * 1.0;", "r = 1.0f * x;", "if (r_active && 1) {"}) {
    INFO(line);
    CHECK_FALSE(foldable_lines(line).empty());
  }
  for (const char *line : {"r = 0.1 * x + x1 * 10;", "r_out[i_test * N_COMPONENTS] += -1 * r_t0;", "r = 0.0 * x; // 1 && x",
                           "r = x * 1.5 + g[0] + y;", "r = x - 0.25;"}) {
    INFO(line);
    CHECK(foldable_lines(line).empty());
  }
}

TEST_CASE("generated kernels hold no foldable constant expression", "[kernel][fold]")
{
  std::mt19937 rng(5);
  for (const FormCase &form : form_cases())
    for (int dim : {2, 3}) {
      ActionData d = make_action(form, dim, 2, 1, rng);
      const std::string name = form.name + " dim " + std::to_string(dim) + " P2 ";
      std::vector<Schedule> schedules{Schedule::single_cell_per_work_item()};
      const int components = d.ir.signature.element.components;
      if (components > 1) schedules.push_back(Schedule::single_cell_per_work_item(32).with_lanes(components));
      for (const Schedule &s : tiled_sample(d.ir, d.tab.n_points())) schedules.push_back(s);
      for (const Schedule &s : schedules) {
        const Kernel k = build_kernel(d.ir, d.tab, s);
        check_folded(name + to_string(s) + " CUDA", emit_cuda(k));
        check_folded(name + to_string(s) + " OpenCL", emit_opencl(k));
      }
      const int q8 = (d.tab.n_points() + 7) / 8 * 8;
      check_folded(name + "mma CUDA", emit_cuda(build_kernel(d.ir, d.tab, Schedule::tensor_core({24, 2, std::min(q8, 16)}))));
      if (d.ir.rank != 2) continue;  // a residual has no matrix
      for (const Kernel &k : {build_diagonal(d.ir, d.tab), build_cell_matrix(d.ir, d.tab)}) {
        check_folded(name + k.name + " CUDA", emit_cuda(k));
        check_folded(name + k.name + " OpenCL", emit_opencl(k));
      }
    }
  for (int components : {1, 3})
    for (TransferDirection direction : {TransferDirection::Forward, TransferDirection::Transpose}) {
      const Kernel k = build_transfer({6, 3, components}, direction);
      check_folded("transfer CUDA", emit_cuda(k));
      check_folded("transfer OpenCL", emit_opencl(k));
    }
}
