// One printer for the kernel AST; CUDA and OpenCL differ only in the Dialect tables at
// the bottom of this file.
#include "kernel/emit.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <stdexcept>

#include "kernel/fold_constants.h"

#include "kernel/device_sources.h"  // generated from src/kernel/device/ (cmake/femgpu_device_sources.cmake)

namespace femgpu::kernel {

namespace {

struct Dialect {
  const char *name;
  const char *kernel_qualifier;
  const char *global_qualifier;  // on pointer parameters
  const char *shared_qualifier;
  const char *constant_qualifier;  // program-scope constant-memory arrays
  const char *restrict_qualifier;
  const char *barrier;
  const char *builtins[3];  // LocalX, LocalY, GroupX
  const char *atomic_add;
  // The warp-aggregated add (Scatter::Warp) and its definition; nullptr where the
  // dialect has no warp match, so a kernel using it cannot be emitted.
  const char *warp_atomic_add;
  const char *warp_atomic_helper;
  // The FP64 tensor-core product (Stmt::Mma) and its definition; nullptr where the
  // dialect has none, so an mma kernel cannot be emitted.
  const char *mma;
  const char *mma_helper;
  const char *fp64_preamble;
  const char *helper;  // printed into every kernel (the atomic add where the dialect lacks one), "" for none
  std::map<std::string, std::string> math;  // canonical name -> dialect name, when they differ
  // CUDA: shared arrays are slices of one dynamically sized buffer (launch-time size),
  // because static __shared__ arrays are capped at 48 KiB.
  const char *dynamic_shared;  // the buffer's declaration, "" to declare arrays statically
  // Whether the dialect can bound a kernel's registers (Kernel::groups_per_sm) with
  // __launch_bounds__; where not (OpenCL), the bound is printed as a comment only.
  bool launch_bounds;
};

class Printer {
 public:
  Printer(const Dialect &d, Precision p) : d_(d), p_(p) {}

  std::string expr(const Ex &e) const
  {
    const ExprNode &n = *e.node;
    switch (n.kind) {
      case ExprNode::Var: return n.text;
      case ExprNode::IntLit: return std::to_string(n.int_value);
      case ExprNode::RealLit: return real(n.real_value);
      case ExprNode::BuiltinIndex: return d_.builtins[static_cast<int>(n.builtin)];
      case ExprNode::Unary: return n.text + nested(n.args[0]);
      case ExprNode::Binary: return nested(n.args[0]) + " " + n.text + " " + nested(n.args[1]);
      case ExprNode::Call: return call(n);
      case ExprNode::Index: return nested(n.args[0]) + "[" + expr(n.args[1]) + "]";
      case ExprNode::AddressOf: return "&" + nested(n.args[0]);
      case ExprNode::Select: return nested(n.args[0]) + " ? " + nested(n.args[1]) + " : " + nested(n.args[2]);
      case ExprNode::ToReal: return "(real)(" + expr(n.args[0]) + ")";
    }
    return "";
  }

  void block(std::ostringstream &os, const Block &b, int depth) const
  {
    for (const Stmt &s : b) stmt(os, s, depth);
  }

  void constant_array(std::ostringstream &os, const std::string &name, const std::vector<double> &values) const
  {
    os << d_.constant_qualifier << " real " << name << "[" << values.size() << "] = {";
    for (size_t i = 0; i < values.size(); ++i) os << (i % 4 ? ", " : (i ? ",\n    " : "\n    ")) << real(values[i]);
    os << "};\n";
  }

 private:
  std::string nested(const Ex &e) const
  {
    const ExprNode &n = *e.node;
    const bool atomic = n.kind == ExprNode::Var || n.kind == ExprNode::IntLit || n.kind == ExprNode::BuiltinIndex ||
                        n.kind == ExprNode::Call || n.kind == ExprNode::Index || n.kind == ExprNode::ToReal ||
                        (n.kind == ExprNode::RealLit && !std::signbit(n.real_value));
    return atomic ? expr(e) : "(" + expr(e) + ")";
  }

  std::string call(const ExprNode &n) const
  {
    auto it = d_.math.find(n.text);
    std::string s = (it == d_.math.end() ? n.text : it->second) + "(";
    for (size_t i = 0; i < n.args.size(); ++i) s += (i ? ", " : "") + expr(n.args[i]);
    return s + ")";
  }

  // Enough digits to round-trip; a float suffix keeps FP32 arithmetic in float.
  std::string real(double v) const
  {
    char buf[64];
    std::snprintf(buf, sizeof buf, p_ == Precision::FP64 ? "%.17g" : "%.9g", v);
    std::string s = buf;
    if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
    return p_ == Precision::FP64 ? s : s + "f";
  }

  void stmt(std::ostringstream &os, const Stmt &s, int depth) const
  {
    const std::string pad(static_cast<size_t>(2 * depth), ' ');
    switch (s.kind) {
      case Stmt::Decl: {
        if (s.space == Space::Shared && s.alias.node) {
          const std::string qualifier = *d_.dynamic_shared ? "" : std::string(d_.shared_qualifier) + " ";
          os << pad << qualifier << (s.type == Type::Real ? "real" : "int") << " *" << s.name << " = " << expr(s.alias) << ";\n";
          return;
        }
        if (s.space == Space::Shared && *d_.dynamic_shared) {
          os << pad << "real *" << s.name << " = s_dynamic" << shared_offset_ << ";\n";
          shared_offset_ += " + " + nested(s.size);
          return;
        }
        os << pad << (s.space == Space::Shared ? std::string(d_.shared_qualifier) + " " : "")
           << (s.is_const && !s.size.node ? "const " : "") << (s.type == Type::Real ? "real " : "int ") << s.name;
        if (s.size.node) os << "[" << expr(s.size) << "]";
        if (s.value.node && !s.size.node) os << " = " << expr(s.value);
        os << ";\n";
        return;
      }
      case Stmt::Assign: os << pad << expr(s.target) << " = " << expr(s.value) << ";\n"; return;
      case Stmt::Accumulate: os << pad << expr(s.target) << " += " << expr(s.value) << ";\n"; return;
      case Stmt::For:
        if (s.unroll) os << pad << "#pragma unroll\n";
        os << pad << "for (int " << s.name << " = " << expr(s.lo) << "; " << s.name << " < " << expr(s.hi) << "; ++"
           << s.name << ") {\n";
        block(os, s.body, depth + 1);
        os << pad << "}\n";
        return;
      case Stmt::If:
        os << pad << "if (" << expr(s.cond) << ") {\n";
        block(os, s.body, depth + 1);
        os << pad << "}\n";
        return;
      case Stmt::Barrier: os << pad << d_.barrier << ";\n"; return;
      case Stmt::AtomicAdd:
        if (s.warp) os << pad << warp_add(s) << ";\n";
        else os << pad << d_.atomic_add << "(" << expr(s.target) << ", " << expr(s.value) << ");\n";
        return;
      case Stmt::Mma:
        if (!d_.mma)
          throw std::invalid_argument(std::string("emit: mma kernels need FP64 tensor cores (CUDA's mma.sync m8n8k4), which ") + d_.name +
                                      " does not have; use a tiled or SCPWI schedule");
        os << pad << d_.mma << "(" << expr(s.operands[0]) << ", " << expr(s.operands[1]) << ", " << expr(s.operands[2]) << ", "
           << expr(s.operands[3]) << ");\n";
        return;
      case Stmt::Comment: os << pad << "// " << s.text << "\n"; return;
    }
  }

  // Scatter::Warp's add of value to &array[index], printed as warp_add(array, index,
  // value): the helper matches the warp's adds on the 32-bit index, not the 64-bit
  // address, which cost more than the atomics it saved
  // (bench/experiments/h200_warp_scatter_p1.txt).
  std::string warp_add(const Stmt &s) const
  {
    if (!d_.warp_atomic_add)
      throw std::invalid_argument(std::string("emit: scatter=warp needs a warp match (CUDA's __match_any_sync), which ") + d_.name +
                                  " does not have; use the default scatter");
    const ExprNode &a = *s.target.node;
    if (a.kind != ExprNode::AddressOf || a.args[0].node->kind != ExprNode::Index)
      throw std::logic_error("emit: a warp-aggregated add needs the address of an array entry");
    const ExprNode &entry = *a.args[0].node;
    return std::string(d_.warp_atomic_add) + "(" + expr(entry.args[0]) + ", " + expr(entry.args[1]) + ", " + expr(s.value) + ")";
  }

  const Dialect &d_;
  Precision p_;
  mutable std::string shared_offset_;  // " + size + size ...": the arrays before this one
};

bool uses_warp_atomics(const Block &b)
{
  for (const Stmt &s : b)
    if ((s.kind == Stmt::AtomicAdd && s.warp) || uses_warp_atomics(s.body)) return true;
  return false;
}

bool uses_mma(const Block &b)
{
  for (const Stmt &s : b)
    if (s.kind == Stmt::Mma || uses_mma(s.body)) return true;
  return false;
}

std::string emit(const Kernel &given, const Dialect &d)
{
  const Kernel k = fold_constants(given);
  const bool fp64 = k.precision == Precision::FP64;
  std::ostringstream os;
  os << "// femgpu action kernel (" << d.name << "), schedule: " << k.schedule << "\n";
  if (fp64) os << d.fp64_preamble << "#define FEMGPU_FP64 1\n";
  os << "typedef " << (fp64 ? "double" : "float") << " real;\n";
  for (const auto &[name, value] : k.sizes) os << "#define " << name << " " << value << "\n";
  os << d.dynamic_shared;
  for (const auto &[name, values] : k.constant_arrays) Printer(d, k.precision).constant_array(os, name, values);
  if (uses_warp_atomics(k.body) && d.warp_atomic_helper) os << d.warp_atomic_helper;
  if (uses_mma(k.body) && d.mma_helper) os << d.mma_helper;
  os << d.helper << "\n";
  if (k.groups_per_sm > 0 && !d.launch_bounds)
    os << "// groups_per_sm=" << k.groups_per_sm << ": a CUDA register bound; " << d.name << " has none\n";
  os << d.kernel_qualifier << " ";
  if (k.groups_per_sm > 0 && d.launch_bounds)
    os << "__launch_bounds__(" << k.block_x * k.block_y << ", " << k.groups_per_sm << ") ";
  os << k.name << "(";
  for (size_t i = 0; i < k.params.size(); ++i) {
    const Param &p = k.params[i];
    os << (i ? ",\n    " : "\n    ");
    if (!p.pointer) os << (p.type == Type::Int ? "const int " : "const real ") << p.name;
    else
      os << d.global_qualifier << (p.written ? "" : "const ") << (p.type == Type::Int ? "int" : "real") << " *"
         << d.restrict_qualifier << " " << p.name;
  }
  os << ")\n{\n";
  Printer(d, k.precision).block(os, k.body, 1);
  os << "}\n";
  return os.str();
}

const Dialect &cuda_dialect()
{
  static const Dialect d{"CUDA",
                         "extern \"C\" __global__ void",
                         "",
                         "__shared__",
                         "__constant__",
                         "__restrict__",
                         "__syncthreads()",
                         {"(int)threadIdx.x", "(int)threadIdx.y", "(int)blockIdx.x"},
                         "atomicAdd",
                         "femgpu_warp_add",
                         device_source::femgpu_warp_add_cuh,
                         "femgpu_mma_8x8x4",
                         device_source::femgpu_mma_cuh,
                         "",
                         "",
                         {},
                         "extern __shared__ __align__(16) real s_dynamic[];\n",
                         true};
  return d;
}

const Dialect &opencl_dialect()
{
  static const Dialect d{"OpenCL C 1.2",
                         "__kernel void",
                         "__global ",
                         "__local",
                         "__constant",
                         "restrict",
                         "barrier(CLK_LOCAL_MEM_FENCE)",
                         {"(int)get_local_id(0)", "(int)get_local_id(1)", "(int)get_group_id(0)"},
                         "femgpu_atomic_add",
                         nullptr,
                         nullptr,
                         nullptr,
                         nullptr,
                         "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                         "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n",
                         device_source::femgpu_atomic_cl,
                         {},
                         "",
                         false};
  return d;
}

}  // namespace

std::string emit_cuda(const Kernel &k) { return emit(k, cuda_dialect()); }

std::string emit_opencl(const Kernel &k) { return emit(k, opencl_dialect()); }

}  // namespace femgpu::kernel
