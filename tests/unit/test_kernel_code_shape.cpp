// Code shape of the generated kernels. In SCPWI kernels a divisor shared by several
// divisions (det J in the inverse Jacobian) is inverted once and the divisions become
// products (build_common.cpp); a divisor used once stays a division; tiled kernels keep
// their divisions (build_tiled.cpp says why). Values are checked against the FP64 reference by
// the OpenCL schedule tests; this checks the code's shape.
#include <catch2/catch.hpp>

#include <algorithm>
#include <regex>

#include "fem/action_tables.h"
#include "form/parser.h"
#include "ir/lower.h"
#include "kernel/build.h"
#include "kernel/emit.h"
#include "kernel/kernel_abi.h"
#include "support/action_cases.h"

using namespace femgpu;

namespace {

std::string kernel_source(const std::string &form_text, CellType cell,
                          const Schedule &schedule = Schedule::single_cell_per_work_item(64), int components = 1)
{
  FormSignature sig{cell, Element{1, components}, 1};
  const ActionIR ir = lower_form(parse_form_text("from ufl import *\n" + form_text + "\n", "t.ufl", sig).a);
  const Tabulation tab = tabulate_action(ir, default_share_dir());
  return kernel::emit_cuda(kernel::build_kernel(ir, tab, schedule));
}

long count(const std::string &s, const std::regex &re)
{
  return std::distance(std::sregex_iterator(s.begin(), s.end(), re), std::sregex_iterator());
}

}  // namespace

TEST_CASE("a divisor shared by several divisions is inverted once", "[kernel][emit]")
{
  const std::regex reciprocal(R"(const real r_inv(\d+) = 1\.0 / r_t\1;)"), division(R"(/ r_t\d+)"), product(R"(\* r_inv\d+)");
  // 3D gradients: the nine entries of J^-1 share det J.
  const std::string laplace = kernel_source("a = inner(grad(u), grad(v))*dx", CellType::Tetrahedron);
  CHECK(count(laplace, reciprocal) == 1);
  CHECK(count(laplace, division) == 1);  // the reciprocal itself
  CHECK(count(laplace, product) == 9);
  // The same form, tiled: nine divisions by det J.
  const std::string tiled = kernel_source("a = inner(grad(u), grad(v))*dx", CellType::Tetrahedron, Schedule::tiled({2, 4, 1, 1, {4}, 4, 1}));
  CHECK(count(tiled, reciprocal) == 0);
  CHECK(count(tiled, division) == 9);
  // One division by a value used once stays a division, with no reciprocal.
  const std::string once = kernel_source("w = Coefficient(\"w\")\na = u*v/(1 + w*w)*dx", CellType::Triangle);
  CHECK(count(once, reciprocal) == 0);
  CHECK(count(once, division) == 1);
}

// pack_tables, asked to merge, stores a table that several evaluations read once (the
// trial and test tables of a square form, the coordinates' and a P1 function's);
// table_words, which decides whether tables fit constant memory, counts exactly what it
// stores, merged or not.
TEST_CASE("element tables pack merged or separate, and table_words counts the packed words", "[kernel][schedule]")
{
  std::mt19937 rng(23);
  for (const test::FormCase &f : test::form_cases())
    for (int dim : {2, 3})
      for (int degree : {1, 2}) {
        test::ActionData d = test::make_action(f, dim, degree, 1, rng);
        INFO(f.name << " dim " << dim << " P" << degree);
        for (bool merged : {false, true}) {
          const TableLayout layout = pack_tables(d.ir, d.tab, merged);
          CHECK(static_cast<long long>(layout.data.size()) == table_words(d.ir, d.tab.n_points(), merged));
          // Every table reads back from its offset.
          for (size_t g = 0; g < d.ir.groups.size(); ++g)
            for (size_t k = 0; k < d.tab.group_tables[g].size(); ++k)
              CHECK(std::equal(d.tab.group_tables[g][k].begin(), d.tab.group_tables[g][k].end(), layout.data.begin() + layout.group_offsets[g][k]));
          for (size_t k = 0; k < d.tab.test_tables.size(); ++k) {
            // merged, an identity test table (mass) is not stored: no merging kernel reads it
            if (merged && d.tab.test_identity) CHECK(layout.test_offsets[k] == -1);
            else CHECK(std::equal(d.tab.test_tables[k].begin(), d.tab.test_tables[k].end(), layout.data.begin() + layout.test_offsets[k]));
          }
        }
      }
  // Mass: one n x n table (the element matrix; the identity test table left out) merged.
  test::ActionData mass = test::make_action(test::form_cases()[0], 2, 3, 1, rng);
  CHECK(pack_tables(mass.ir, mass.tab, true).data.size() == static_cast<size_t>(10 * mass.tab.n_points()));
  CHECK(pack_tables(mass.ir, mass.tab).data.size() == static_cast<size_t>(2 * 10 * mass.tab.n_points()));
}

// Where the test table is the identity (mass: Tabulation::test_identity) the kernels run
// no quadrature contraction: SCPWI and the tensor-core kernel scatter each point's value
// (one atomic add in the point loop, no output array), the tensor-core kernel has only
// its evaluation products. Laplace keeps both.
TEST_CASE("kernels of an identity test table scatter each point and run no quadrature product", "[kernel][emit]")
{
  const Schedule mma = Schedule::tensor_core(MmaSizes{8, 4, 8});
  const std::string scpwi_mass = kernel_source("a = u*v*dx", CellType::Triangle);
  const std::string mma_mass = kernel_source("a = u*v*dx", CellType::Triangle, mma);
  const std::string mma_laplace = kernel_source("a = inner(grad(u), grad(v))*dx", CellType::Triangle, mma);
  CHECK(scpwi_mass.find("Psi = I") != std::string::npos);
  CHECK(scpwi_mass.find("r_out") == std::string::npos);
  CHECK(scpwi_mass.find("i_test") == std::string::npos);
  CHECK(count(scpwi_mass, std::regex("atomicAdd")) == 1);
  CHECK(mma_mass.find("Y += Psi^T") == std::string::npos);
  CHECK(mma_mass.find("s_f[") == std::string::npos);
  CHECK(mma_laplace.find("Y += Psi^T") != std::string::npos);
  // the same helper and evaluation product in both; Laplace's quadrature adds one more
  const std::regex product("femgpu_mma_8x8x4\\(");
  CHECK(count(mma_laplace, product) == count(mma_mass, product) + 1);
}

// A tensor-core kernel of an identity test table loads the test DOFs it adds to before
// the gather (no map load waits in the point loop) where they fit in 16 registers a
// work-item; past that it loads each in the point loop. Laplace scatters once at the end.
TEST_CASE("a tensor-core kernel of an identity test table loads its test DOFs first where they fit", "[kernel][emit]")
{
  const std::regex map_load("g_test_map\\[");
  // 1 tile x 1 pair round x 1 component
  const std::string mass = kernel_source("a = u*v*dx", CellType::Triangle, Schedule::tensor_core(MmaSizes{8, 4, 8}));
  CHECK(count(mass, map_load) == 1);
  CHECK(mass.find("r_test_dof[") != std::string::npos);
  CHECK(mass.find("g_test_map[") < mass.find("gather each"));
  // 3D vector mass, N_c = 32 on one warp: 1 tile x 8 pair rounds x 3 components = 24 > 16
  const std::string vector = kernel_source("a = inner(u, v)*dx", CellType::Tetrahedron, Schedule::tensor_core(MmaSizes{32, 1, 8}), 3);
  CHECK(vector.find("r_test_dof") == std::string::npos);
  CHECK(count(vector, map_load) == 3);
  CHECK(vector.find("g_test_map[") > vector.find("gather each"));
  // the same kernel with 2 components: 16 fit
  const std::string pair = kernel_source("a = inner(u, v)*dx", CellType::Triangle, Schedule::tensor_core(MmaSizes{32, 1, 8}), 2);
  CHECK(count(pair, map_load) == 2);
  CHECK(pair.find("r_test_dof[") != std::string::npos);
  const std::string laplace = kernel_source("a = inner(grad(u), grad(v))*dx", CellType::Triangle, Schedule::tensor_core(MmaSizes{8, 4, 8}));
  CHECK(laplace.find("r_test_dof") == std::string::npos);
}
