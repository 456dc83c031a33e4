// Shared kernel fragments; see build_common.h.
#include "kernel/build_common.h"

#include <cctype>
#include <stdexcept>

#include "kernel/kernel_abi.h"

namespace femgpu::kernel {

Ex size(const std::string &name) { return var(name); }

std::string upper(const std::string &s)
{
  std::string u = s;
  for (char &c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return u;
}

Ex group_table(int group, int derivative)
{
  return size("OFFSET_G" + std::to_string(group) + "_D" + std::to_string(derivative));
}

Ex test_table(int derivative) { return size("OFFSET_TEST_D" + std::to_string(derivative)); }

namespace {

std::vector<int> all_functions(const ActionIR &ir)
{
  std::vector<int> f{kCoordinates};
  if (ir.rank == 2) f.push_back(kTrialFunction);
  for (size_t i = 0; i < ir.coefficients.size(); ++i) f.push_back(coefficient_function(static_cast<int>(i)));
  return f;
}

}  // namespace

void declare_common_sizes(Kernel &k, const ActionIR &ir, const Tabulation &tab, bool merge_tables)
{
  const int C = ir.signature.element.components;
  k.sizes.insert(k.sizes.end(), {{"DIM", ir.dim},
                                 {"N_QUAD", tab.n_points()},
                                 {"N_TEST_BASIS", ir.n_test_basis},
                                 {"N_COMPONENTS", C},
                                 {"N_TEST_DOFS", ir.n_test_basis * C},
                                 {"N_OWNED_TEST_DOFS", owned_test_dofs(ir)},
                                 {"N_EVAL", ir.n_eval()}});
  for (int f : all_functions(ir))
    k.sizes.push_back({"N_DOFS_" + upper(function_stem(f)), function_dofs(ir, f)});
  k.sizes.push_back({"N_NODES_COORDS", coordinate_basis(ir)});
  TableLayout layout = pack_tables(ir, tab, merge_tables);
  for (size_t g = 0; g < ir.groups.size(); ++g) {
    k.sizes.push_back({"N_BASIS_G" + std::to_string(g), ir.groups[g].n_basis});
    for (size_t d = 0; d < layout.group_offsets[g].size(); ++d)
      k.sizes.push_back({group_table(static_cast<int>(g), static_cast<int>(d)).node->text, layout.group_offsets[g][d]});
  }
  for (size_t d = 0; d < layout.test_offsets.size(); ++d)
    k.sizes.push_back({test_table(static_cast<int>(d)).node->text, layout.test_offsets[d]});
}

std::vector<Param> action_params(const ActionIR &ir) { return params_of(kernel_arguments(ir)); }

std::vector<Param> params_of(const std::vector<KernelArg> &arguments)
{
  std::vector<Param> params;
  for (const KernelArg &a : arguments) {
    Param p;
    p.name = a.name;
    p.pointer = a.kind != ArgKind::CellCount;
    p.type = (a.kind == ArgKind::CellCount || a.kind == ArgKind::Map || a.kind == ArgKind::TestMap) ? Type::Int : Type::Real;
    p.written = a.kind == ArgKind::Out;
    params.push_back(p);
  }
  return params;
}

Block gather_to(const ActionIR &ir, int function, const std::function<Ex(const Ex &)> &slot, const Ex &cell, const Ex &active,
                const Ex &first, const Ex &count, const Ex &valid)
{
  const std::string stem = function_stem(function);
  const Ex map = var("g_" + stem + "_map"), values = var("g_" + stem), i = var("i_dof");
  (void)ir;
  // The coordinate map holds one entry per node (its components are contiguous), a
  // third of the traffic of one entry per component in 3D; other maps hold every DOF.
  const Ex entry = function == kCoordinates
                       ? map[cell * size("N_NODES_COORDS") + (first + i) / size("DIM")] + (first + i) % size("DIM")
                       : map[cell * size("N_DOFS_" + upper(stem)) + first + i];
  return {loop("i_dof", lit(0), count,
               {declare(Space::Register, Type::Int, "r_map", select(active && (i < valid), entry, lit(-1))),
                assign(slot(i), select(var("r_map") >= lit(0), values[var("r_map")], real_lit(0.0)))})};
}

Block gather(const ActionIR &ir, int function, const std::string &local, const Ex &cell, const Ex &active,
             const Ex &first, const Ex &count, const Ex &valid)
{
  Block b{declare_array(Space::Register, Type::Real, local, count)};
  Block g = gather_to(ir, function, [&](const Ex &i) { return var(local)[i]; }, cell, active, first, count, valid);
  b.insert(b.end(), g.begin(), g.end());
  return b;
}

Block affine_jacobian(const ActionIR &ir, const Tabulation &tab)
{
  Block b;
  const int d = ir.dim;
  for (int i = 0; i < d; ++i)
    for (int k = 0; k < d; ++k) {
      Ex sum;
      for (int j = 0; j <= d; ++j) {
        const double g = tab.p1_gradients[static_cast<size_t>(j * d + k)];
        if (g == 0.0) continue;
        Ex term = var("r_coords")[lit(j * d + i)] * real_lit(g);
        sum = sum.node ? sum + term : term;
      }
      b.push_back(declare(Space::Register, Type::Real, "r_J_" + std::to_string(i) + "_" + std::to_string(k),
                          sum.node ? sum : real_lit(0.0)));
    }
  return b;
}

Ex node_value(const Program &p, int id)
{
  if (p.node(id).op == SOp::Const) return real_lit(p.node(id).value);
  return var("r_t" + std::to_string(id));
}

namespace {

Ex input_value(const ActionIR &ir, int input, const std::function<Ex(int)> &eval, const Ex &weight)
{
  const InputRef &in = ir.pointwise.program.inputs()[static_cast<size_t>(input)];
  switch (in.kind) {
    case InputKind::Eval: return eval(input);
    case InputKind::Weight: return weight;
    case InputKind::Constant: return var("g_constants")[lit(in.slot)];
    case InputKind::Jacobian:
      // Curved geometry reads J from the coordinate group's Eval inputs; the oracle
      // reads a Jacobian input there as zero.
      return ir.affine ? var("r_J_" + std::to_string(in.row) + "_" + std::to_string(in.col)) : real_lit(0.0);
  }
  return real_lit(0.0);
}

const char *math_name(SOp op)
{
  switch (op) {
    case SOp::Sqrt: return "sqrt";
    case SOp::Exp: return "exp";
    case SOp::Log: return "log";
    case SOp::Abs: return "fabs";
    case SOp::Sin: return "sin";
    case SOp::Cos: return "cos";
    case SOp::Tan: return "tan";
    case SOp::Asin: return "asin";
    case SOp::Acos: return "acos";
    case SOp::Atan: return "atan";
    case SOp::Sinh: return "sinh";
    case SOp::Cosh: return "cosh";
    case SOp::Tanh: return "tanh";
    case SOp::Erf: return "erf";
    case SOp::Pow: return "pow";
    case SOp::Min: return "fmin";
    case SOp::Max: return "fmax";
    default: return nullptr;
  }
}

const char *comparison(SOp op)
{
  switch (op) {
    case SOp::Lt: return "<";
    case SOp::Le: return "<=";
    case SOp::Gt: return ">";
    case SOp::Ge: return ">=";
    case SOp::Eq: return "==";
    case SOp::Ne: return "!=";
    default: return nullptr;
  }
}

// The node's operation on its operands' values, with apply_sop's semantics.
Ex operation(SOp op, const Ex &a, const Ex &b, const Ex &c)
{
  const Ex zero = real_lit(0.0);
  if (const char *fn = math_name(op)) return op == SOp::Pow || op == SOp::Min || op == SOp::Max ? call(fn, {a, b}) : call(fn, {a});
  if (const char *cmp = comparison(op)) return to_real(binary(cmp, a, b));
  switch (op) {
    case SOp::Add: return a + b;
    case SOp::Mul: return a * b;
    case SOp::Div: return a / b;
    case SOp::Neg: return unary("-", a);
    case SOp::Sign: return select(binary(">", a, zero), real_lit(1.0), select(a < zero, real_lit(-1.0), zero));
    case SOp::And: return to_real(binary("!=", a, zero) && binary("!=", b, zero));
    case SOp::Or: return to_real(binary("||", binary("!=", a, zero), binary("!=", b, zero)));
    case SOp::Not: return to_real(binary("==", a, zero));
    case SOp::Select: return select(binary("!=", a, zero), b, c);
    case SOp::Ident: return a;
    default: throw std::logic_error(std::string("kernel: no code for pointwise operation ") + sop_name(op));
  }
}

// How many divisions divide by each node. A divisor shared by two or more (det J in the
// inverse Jacobian: nine in 3D) gets one reciprocal, and the divisions become products:
// an FP64 division is a reciprocal plus Newton steps and a slow-path branch on GPUs.
// Constants are left to the compiler.
std::vector<int> division_counts(const Program &p)
{
  std::vector<int> count(static_cast<size_t>(p.size()), 0);
  for (const SNode &n : p.nodes())
    if (n.op == SOp::Div && !p.is_const(n.b)) ++count[static_cast<size_t>(n.b)];
  return count;
}

std::string reciprocal_name(int id) { return "r_inv" + std::to_string(id); }

}  // namespace

Block pointwise(const ActionIR &ir, bool varying, const std::function<Ex(int)> &eval, const Ex &weight, bool reciprocals)
{
  const Program &p = ir.pointwise.program;
  const std::vector<int> divisions = division_counts(p);
  auto shared_divisor = [&](int id) { return reciprocals && id >= 0 && divisions[static_cast<size_t>(id)] >= 2; };
  Block b;
  for (int id = 0; id < p.size(); ++id) {
    const SNode &n = p.node(id);
    const bool at_points = ir.pointwise.varies[static_cast<size_t>(id)] != 0 || ir.pointwise.recomputed[static_cast<size_t>(id)] != 0;
    if (n.op == SOp::Const || at_points != varying) continue;
    auto operand = [&](int o) { return o >= 0 ? node_value(p, o) : real_lit(0.0); };
    Ex value = n.op == SOp::Input           ? input_value(ir, n.input, eval, weight)
               : n.op == SOp::Div && shared_divisor(n.b) ? operand(n.a) * var(reciprocal_name(n.b))
                                                     : operation(n.op, operand(n.a), operand(n.b), operand(n.c));
    b.push_back(declare(Space::Register, Type::Real, "r_t" + std::to_string(id), value));
    // The reciprocal sits beside its divisor, so it is in scope wherever the divisor is.
    if (shared_divisor(id)) b.push_back(declare(Space::Register, Type::Real, reciprocal_name(id), real_lit(1.0) / node_value(p, id)));
  }
  return b;
}

std::string eval_register(int group, int term) { return "r_e_g" + std::to_string(group) + "_t" + std::to_string(term); }

Block evaluate_and_map(const ActionIR &ir, const std::function<Block(int)> &evaluate_group)
{
  Block b{comment("evaluation")};
  for (size_t g = 0; g < ir.groups.size(); ++g) {
    Block e = evaluate_group(static_cast<int>(g));
    b.insert(b.end(), e.begin(), e.end());
  }
  Block pw = pointwise_at_point(ir);
  b.insert(b.end(), pw.begin(), pw.end());
  return b;
}

Block pointwise_at_point(const ActionIR &ir)
{
  auto eval = [&](int input) {
    const size_t i = static_cast<size_t>(input);
    return var(eval_register(ir.pointwise.input_group[i], ir.pointwise.input_term[i]));
  };
  Block b{comment("pointwise maps e_j")};
  Block pw = pointwise(ir, true, eval, var("g_weights")[var("i_quad")]);
  b.insert(b.end(), pw.begin(), pw.end());
  return b;
}

Ex test_term_sum(const ActionIR &ir, int component, int derivative)
{
  Ex sum;
  for (int j = 0; j < ir.n_eval(); ++j) {
    const TestTerm &t = ir.test_terms[static_cast<size_t>(j)];
    if (t.component != component || t.derivative != derivative) continue;
    const Ex e = node_value(ir.pointwise.program, ir.pointwise.outputs[static_cast<size_t>(j)]);
    sum = sum.node ? sum + e : e;
  }
  return sum;
}

Block add_to_test_dof(const Ex &cell, const Ex &entry, const Ex &value, const std::string &dof, OwnDofs own)
{
  const Ex map_entry = var("g_test_map")[cell * size("N_TEST_DOFS") + entry];
  if (own == OwnDofs::Atomic) return add_to_dof(map_entry, value, dof);
  const Ex d = var(dof), out = var("g_out")[d], is_own = entry < size("N_OWNED_TEST_DOFS");
  return {declare(Space::Register, Type::Int, dof, map_entry),
          if_then(d >= lit(0), {if_then(is_own, {accumulate(out, value)}), if_then(unary("!", is_own), {atomic_add(address_of(out), value)})})};
}

Block add_to_dof(const Ex &dof, const Ex &value, const std::string &name)
{
  return {declare(Space::Register, Type::Int, name, dof), if_then(var(name) >= lit(0), {atomic_add(address_of(var("g_out")[var(name)]), value)})};
}

int owned_test_dofs(const ActionIR &ir)
{
  return lagrange_interior_dimension(ir.dim, ir.signature.element.degree) * ir.signature.element.components;
}

Stmt strided(const std::string &round, const Ex &rounds, const Ex &stride, const Ex &thread, const Ex &total, const std::string &index,
             Block body)
{
  Block inner{declare(Space::Register, Type::Int, index, var(round) * stride + thread), if_then(var(index) < total, std::move(body))};
  return loop(round, lit(0), rounds, inner);
}

OwnDofs own_dofs_of(const ActionIR &ir, const Schedule &schedule)
{
  return owned_test_dofs(ir) > 0 ? schedule.own_dofs() : OwnDofs::Atomic;
}

Kernel begin_action_kernel(const ActionIR &ir, const Tabulation &tab, const Schedule &schedule, bool merge_tables)
{
  Kernel k;
  k.name = "femgpu_action";
  k.schedule = to_string(schedule);
  k.precision = schedule.precision();
  declare_common_sizes(k, ir, tab, merge_tables);
  k.params = action_params(ir);
  return k;
}

std::string begin_scpwi_kernel(Kernel &k, const ActionIR &ir, const Tabulation &tab, const Schedule &schedule)
{
  const bool merge = schedule.tables() == Tables::MergedConstant;
  k = begin_action_kernel(ir, tab, schedule, merge);
  k.sizes.push_back({"WORK_GROUP_SIZE", schedule.work_group_size()});
  k.block_x = schedule.work_group_size() * schedule.lanes();
  k.cells_per_group = schedule.work_group_size();
  if (schedule.tables() == Tables::Global) return "g_tables";
  k.constant_arrays.push_back({"c_tables", pack_tables(ir, tab, merge).data});
  return "c_tables";
}

namespace {

void mark_warp_atomics(Block &b)
{
  for (Stmt &s : b) {
    if (s.kind == Stmt::AtomicAdd) s.warp = true;
    mark_warp_atomics(s.body);
  }
}

}  // namespace

void apply_scatter(Kernel &k, const Schedule &schedule)
{
  if (schedule.scatter() == Scatter::Warp) mark_warp_atomics(k.body);
}

}  // namespace femgpu::kernel
