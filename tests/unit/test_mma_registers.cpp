// Tensor-core kernels with their operands in registers (MmaOperands::Registers,
// build_mma_registers.cpp): the schedule word and its validation, the shared memory they
// take (the per-cell values only), the code shape (no shared operands, one barrier, the
// FP64 m8n8k4 product in the PTX), NVRTC compiling every form whose test table is the
// identity in 2D and 3D at low and high order (with own=plain too), and the clear refusal
// of a form with a quadrature product. What they compute is checked on the GPU
// (femgpu-gpu-check, tests/gpu).
#include <catch2/catch.hpp>

#include <regex>

#include "fem/share_dir.h"
#include "form/parser.h"
#include "ir/lower.h"
#include "schedule/mma_layout.h"
#include "schedule/schedule_words.h"
#include "support/action_cases.h"
#include "support/nvrtc_check.h"

using namespace femgpu;
using namespace femgpu::test;

namespace {

Schedule registers_schedule(int warps, OwnDofs own = OwnDofs::Atomic)
{
  MmaSizes m{8 * warps, warps, 8};
  m.operands = MmaOperands::Registers;
  return Schedule::tensor_core(m).with_own_dofs(own);
}

}  // namespace

TEST_CASE("operands=registers is an mma word, read, printed and validated", "[schedule][mma]")
{
  const Schedule s = parse_schedule("mma nc=32 warps=4 tq=8 operands=registers own=plain fp64");
  CHECK(s.mma().operands == MmaOperands::Registers);
  CHECK(s.own_dofs() == OwnDofs::Plain);
  CHECK(to_string(s) == "mma nc=32 warps=4 tq=8 operands=registers own=plain fp64");
  CHECK(to_string(registers_schedule(2)) == "mma nc=16 warps=2 tq=8 operands=registers fp64");
  CHECK(parse_schedule("mma nc=16 warps=4 tq=16 fp64").mma().operands == MmaOperands::Shared);
  // a partial text (-mat_fem_gpu_schedule) is completed to a valid shape: nc = 8 x warps, tq=8
  CHECK(to_string(completed_schedule(read_schedule_text("mma operands=registers"), ActionIR{}, 15, Precision::FP64)) ==
        "mma nc=32 warps=4 tq=8 operands=registers fp64");
  CHECK(to_string(completed_schedule(read_schedule_text("mma warps=8 operands=registers"), ActionIR{}, 15, Precision::FP64)) ==
        "mma nc=64 warps=8 tq=8 operands=registers fp64");
  CHECK_THROWS_WITH(parse_schedule("mma nc=16 warps=4 tq=16 operands=shared fp64"), Catch::Contains("canonical form"));
  FormSignature sig{CellType::Triangle, Element{4, 1}, 1};
  const ActionIR ir = lower_form(parse_form_text("from ufl import *\na = u*v*dx\n", "t.ufl", sig).a);
  CHECK_NOTHROW(validate(s, ir, 15, 1 << 20));
  CHECK_NOTHROW(validate(registers_schedule(1), ir, 15, 1 << 20));
  CHECK_THROWS_WITH(validate(parse_schedule("mma nc=16 warps=4 tq=8 operands=registers fp64"), ir, 15, 1 << 20),
                    Catch::Contains("cells_per_group = 16 must be == 32"));
  CHECK_THROWS_WITH(validate(parse_schedule("mma nc=32 warps=4 tq=16 operands=registers fp64"), ir, 15, 1 << 20),
                    Catch::Contains("quad_tile = 16 must be == 8"));
  CHECK_THROWS_WITH(validate(parse_schedule("mma nc=32 warps=4 tq=8 quad=steps operands=registers fp64"), ir, 15, 1 << 20),
                    Catch::Contains("quad=steps does not apply"));
  // own=plain: with the operands in registers (one lane a pair), not in shared memory
  CHECK_THROWS_WITH(validate(parse_schedule("mma nc=32 warps=4 tq=8 own=plain fp64"), ir, 15, 1 << 20),
                    Catch::Contains("own=plain is for SCPWI kernels of one work-item a cell and mma kernels with operands=registers"));
}

TEST_CASE("an mma kernel with its operands in registers takes shared memory for its per-cell values only", "[schedule][mma]")
{
  std::mt19937 rng(41);
  ActionData d = make_action(form_named("mass"), 3, 4, 1, rng);
  const MmaLayout shared = mma_layout(MmaSizes{32, 4, 8}, d.ir);
  const Schedule s = registers_schedule(4);
  const MmaLayout regs = mma_layout(s.mma(), d.ir);
  CHECK(regs.cell_words == shared.cell_words);
  CHECK(regs.cell_words > 0);
  CHECK(regs.total_words() == regs.cell_words);
  CHECK(shared_memory_bytes(s, d.ir) == regs.cell_words * 8);
  CHECK(shared_memory_bytes(Schedule::tensor_core(MmaSizes{32, 4, 8}), d.ir) > 4 * shared_memory_bytes(s, d.ir));
}

TEST_CASE("an mma kernel with its operands in registers gathers into its fragments and has one barrier", "[kernel][emit][mma]")
{
  std::mt19937 rng(43);
  ActionData d = make_action(form_named("mass"), 2, 5, 1, rng);
  REQUIRE(d.tab.test_identity);
  const std::string src = action_cuda_source(d, registers_schedule(4));
  CHECK(count_of(src, "__syncthreads()") == 1);
  CHECK(src.find("s_u") == std::string::npos);
  CHECK(src.find("s_e") == std::string::npos);
  CHECK(src.find("r_u_g0_f0_c0[K_STEPS_G0]") != std::string::npos);  // B words in registers
  CHECK(count_of(src, "femgpu_mma_8x8x4(r_acc_g0_t0[0], r_acc_g0_t0[1]") == 1);
  CHECK(count_of(src, "atomicAdd(") == 1);
  // own=plain: the interior nodes (6 of P5's 21) get a plain add
  const std::string plain = action_cuda_source(d, registers_schedule(4, OwnDofs::Plain));
  CHECK(plain.find("#define N_OWNED_TEST_DOFS 6") != std::string::npos);
  CHECK(std::regex_search(plain, std::regex(R"(\n\s*g_out\[r_dof0\] \+= )")));
  CHECK(count_of(plain, "atomicAdd(") == 1);
  // An element without own DOFs (tetrahedra below P4): own=plain builds the atomic kernel
  ActionData p3 = make_action(form_named("mass"), 3, 3, 1, rng);
  std::string atomic_3d = action_cuda_source(p3, registers_schedule(4)), plain_3d = action_cuda_source(p3, registers_schedule(4, OwnDofs::Plain));
  const std::string text = to_string(registers_schedule(4)), plain_text = to_string(registers_schedule(4, OwnDofs::Plain));
  REQUIRE(count_of(plain_3d, plain_text) == 1);
  plain_3d.replace(plain_3d.find(plain_text), plain_text.size(), text);
  CHECK(plain_3d == atomic_3d);
}

TEST_CASE("NVRTC compiles mma kernels with their operands in registers for every identity test form", "[nvrtc][kernel][mma]")
{
  std::mt19937 rng(47);
  int compiled = 0;
  for (const FormCase &f : form_cases())
    for (const auto &[dim, degree] : {std::pair{2, 1}, std::pair{2, 4}, std::pair{2, 8}, std::pair{3, 2}, std::pair{3, 6}}) {
      ActionData d = make_action(f, dim, degree, 1, rng);
      if (!d.tab.test_identity) continue;
      const int warps = 1 << (degree % 3);  // 1, 2 or 4 warps over the cases
      const Schedule s = registers_schedule(warps, degree >= 4 ? OwnDofs::Plain : OwnDofs::Atomic);
      INFO(f.name << " " << dim << "D P" << degree << ": " << to_string(s));
      REQUIRE_NOTHROW(validate(s, d.ir, d.tab.n_points(), kMaxStaticSharedBytes));
      const std::string ptx = nvrtc_ptx(action_cuda_source(d, s), "femgpu_action");
      CHECK(ptx.find("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64") != std::string::npos);
      ++compiled;
    }
  CHECK(compiled >= 5);  // the mass form at least, in every (dim, degree)
  // An identity test side with four evaluated terms (the value, three reference derivatives) and per-cell values
  FormSignature sig{CellType::Tetrahedron, Element{3, 1}, 1};
  const ActionIR ir = lower_form(parse_form_text("from ufl import *\na = (u.dx(0) + 0.5*u.dx(1) + 2.0*u)*v*dx\n", "t.ufl", sig).a);
  const Tabulation tab = tabulate_action(ir, default_share_dir());
  REQUIRE(tab.test_identity);
  const std::string src = kernel::emit_cuda(kernel::build_kernel(ir, tab, registers_schedule(2)));
  CHECK(count_of(src, "femgpu_mma_8x8x4(r_acc_g0_t") == 4);  // the value and 3 reference derivatives
  check_nvrtc_compiles(src);
}

TEST_CASE("an mma kernel with its operands in registers refuses a form with a quadrature product", "[kernel][mma]")
{
  std::mt19937 rng(53);
  ActionData d = make_action(form_named("laplace"), 2, 3, 1, rng);
  REQUIRE_FALSE(d.tab.test_identity);
  CHECK_THROWS_WITH(action_cuda_source(d, registers_schedule(2)), Catch::Contains("operands=registers needs a test table that is the identity"));
}
