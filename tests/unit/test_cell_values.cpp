// The per-cell values of the pointwise program: the exact rewrites that remove copies
// of them (program.h), the cheap ones recomputed at the points (mark_recomputed), the
// rest held (held_cell_values), and CellValues::Shared (schedule.h), which keeps the
// held ones in shared memory: its text, its shared memory, and its kernels adding the
// same action as the CPU reference on the OpenCL device (PoCL on CI).
#include <catch2/catch.hpp>

#include <random>

#include "support/opencl_check.h"

using namespace femgpu;
using namespace femgpu::test;

TEST_CASE("exact rewrites: x + x is 2x, and power-of-two scalings fold", "[ir][cell_values]")
{
  Program p;
  const int x = p.input(InputRef{InputKind::Constant, 0, 0, {0, 0, 0}, 0, 0, 0});
  CHECK(p.add(x, x) == p.mul(p.constant(2.0), x));
  // sym(grad u)'s diagonal: 0.5 * (g + g) is g itself.
  CHECK(p.mul(p.constant(0.5), p.add(x, x)) == x);
  CHECK(p.mul(p.add(x, x), p.constant(-0.5)) == p.neg(x));
  CHECK(p.mul(p.constant(3.0), p.mul(p.constant(0.25), x)) == p.mul(p.constant(0.75), x));
  // 3 * (5 * x) may round differently from 15 * x: kept as written.
  const int nested = p.mul(p.constant(3.0), p.mul(p.constant(5.0), x));
  CHECK(nested != p.mul(p.constant(15.0), x));
  CHECK(p.node(nested).op == SOp::Mul);
}

TEST_CASE("cheap per-cell values are recomputed at the points, the others are held", "[ir][cell_values]")
{
  std::mt19937 rng(5);
  for (const FormCase &f : form_cases())
    for (int dim : {2, 3}) {
      INFO(f.name << " " << dim << "D");
      const ActionData d = make_action(f, dim, 2, 1, rng);
      const Pointwise &pw = d.ir.pointwise;
      const Program &p = pw.program;
      std::vector<char> held(static_cast<size_t>(p.size()), 0);
      for (int id : held_cell_values(pw)) {
        CHECK_FALSE(pw.varies[static_cast<size_t>(id)]);
        CHECK_FALSE(pw.recomputed[static_cast<size_t>(id)]);
        CHECK_FALSE(p.is_const(id));
        held[static_cast<size_t>(id)] = 1;
      }
      for (int id = 0; id < p.size(); ++id) {
        const SNode &n = p.node(id);
        if (pw.recomputed[static_cast<size_t>(id)]) {
          CHECK_FALSE(pw.varies[static_cast<size_t>(id)]);
          CHECK((n.op == SOp::Add || n.op == SOp::Mul || n.op == SOp::Neg));
        }
        // Nothing held could have been recomputed for free: a cheap op on held values or constants.
        if (held[static_cast<size_t>(id)] && (n.op == SOp::Add || n.op == SOp::Mul || n.op == SOp::Neg)) {
          bool free = true;
          for (int o : {n.a, n.b, n.c})
            if (o >= 0 && !p.is_const(o) && !held[static_cast<size_t>(o)]) free = false;
          CHECK_FALSE(free);
        }
      }
    }
  // Elasticity: the inverse Jacobian (d^2 entries), |det J| and the two constants are
  // held; the halves 0.5 K_ij of sym(grad u) are recomputed, not held.
  for (int dim : {2, 3}) {
    const ActionData d = make_action(form_cases()[3], dim, 2, 1, rng);
    REQUIRE(form_cases()[3].name == "elasticity");
    CHECK(held_cell_values(d.ir.pointwise).size() == static_cast<size_t>(dim * dim + 3));
    int recomputed = 0;
    for (char r : d.ir.pointwise.recomputed) recomputed += r;
    CHECK(recomputed > 0);
  }
}

TEST_CASE("cells=shared: text, validation and shared memory", "[schedule][cell_values]")
{
  std::mt19937 rng(7);
  const ActionData d = make_action(form_cases()[3], 3, 2, 1, rng);  // elasticity: 12 held values in 3D
  const Schedule t = Schedule::tiled({4, 8, 6, 3, {5}, 6, 6});
  const Schedule c = t.with_cell_values(CellValues::Shared);
  CHECK(to_string(c) == "tiled nc=4 nwi=8 tq=6 ter=3 tec=[5] tqr=6 tqc=6 cells=shared fp64");
  CHECK(to_string(c.with_dofs(Dofs::Shared).with_loops(Loops::Unrolled)) ==
        "tiled nc=4 nwi=8 tq=6 ter=3 tec=[5] tqr=6 tqc=6 dofs=shared cells=shared loops=unrolled fp64");
  for (const Schedule &s : {c, c.with_dofs(Dofs::Shared).with_loops(Loops::Unrolled).with_groups_per_sm(3)})
    CHECK(to_string(parse_schedule(to_string(s))) == to_string(s));
  CHECK_THROWS_WITH(parse_schedule("tiled nc=4 nwi=8 tq=6 ter=3 tec=[5] tqr=6 tqc=6 loops=unrolled cells=shared fp64"),
                    Catch::Contains("cannot read the schedule"));
  CHECK(cell_value_stride(d.ir) == 13);
  CHECK(shared_memory_bytes(c, d.ir) == shared_memory_bytes(t, d.ir) + 8LL * 4 * 13);
  CHECK_THROWS_WITH(validate(Schedule::single_cell_per_work_item(32).with_cell_values(CellValues::Shared), d.ir, d.tab.n_points()),
                    Catch::Contains("cells=shared is for tiled kernels"));
}

TEST_CASE("cells=shared kernels match the reference action", "[opencl][kernel][cell_values]")
{
  for (int dim : {2, 3}) {
    const int ran = check_sample_kernels(
        dim, static_cast<unsigned>(41 + dim), [](const Candidate &c) { return c.tiled_shape >= 0; },
        [](const Schedule &s) { return s.with_cell_values(CellValues::Shared); },
        [](const std::string &source) {
          CHECK(source.find("__local real s_cell[") != std::string::npos);
          // Curved cells have no per-cell values (their Jacobian varies): nothing to read back.
          CHECK((source.find("= s_cell[") != std::string::npos || source.find("#define CELL_STRIDE 1\n") != std::string::npos));
        });
    CHECK(ran > 0);
  }
  // With shared DOFs and unrolled loops too (the shapes the tuner twins).
  const int ran = check_sample_kernels(
      3, 47u, [](const Candidate &c) { return c.tiled_shape >= 0 && c.form == 3; },
      [](const Schedule &s) { return s.with_cell_values(CellValues::Shared).with_dofs(Dofs::Shared).with_loops(Loops::Unrolled); });
  CHECK(ran > 0);
}
