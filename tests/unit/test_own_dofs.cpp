// A cell's own DOFs (its interior nodes) are added without atomics by SCPWI kernels with
// own=plain (schedule.h's OwnDofs, build_common.h). That is right only if they come first
// in the element's basis order, as many as lagrange_interior_dimension says, and if no
// other cell's map holds them: checked here for the element and the lattice meshes (the
// DMPlex closures: tests/petsc/test_closure_maps.cpp); then the schedule word and the
// kernels' code shape. Their values against the CPU reference: the OpenCL schedule
// tests (own=plain on PoCL) and femgpu-gpu-check (on the GPU).
#include <catch2/catch.hpp>

#include <map>

#include "fem/action_tables.h"
#include "fem/lattice_mesh.h"
#include "fem/tabulation.h"
#include "form/parser.h"
#include "ir/lower.h"
#include "kernel/build.h"
#include "kernel/build_common.h"
#include "kernel/emit.h"
#include "schedule/schedule.h"
#include "support/opencl_check.h"
#include "support/source_text.h"
#include "support/timed_candidates.h"
#include "tune/twins.h"

using namespace femgpu;

namespace {

// Whether node j (PETSc's reference simplex [-1,1]^dim) lies inside, on no facet.
bool inside(const std::vector<double> &nodes, int dim, int j)
{
  double sum = 0;
  for (int d = 0; d < dim; ++d) {
    const double lambda = (nodes[static_cast<size_t>(j * dim + d)] + 1) / 2;
    if (lambda < 1e-9) return false;
    sum += lambda;
  }
  return sum < 1 - 1e-9;
}

}  // namespace

TEST_CASE("a Lagrange element's interior nodes come first in its basis order", "[fem][own_dofs]")
{
  for (int dim : {2, 3})
    for (int k = 1; k <= (dim == 2 ? 8 : 6); ++k) {
      const std::vector<double> nodes = lagrange_nodes(dim, k);
      const int n = lagrange_dimension(dim, k), own = lagrange_interior_dimension(dim, k);
      INFO("dim " << dim << " P" << k);
      REQUIRE(static_cast<int>(nodes.size()) == n * dim);
      for (int j = 0; j < n; ++j) CHECK(inside(nodes, dim, j) == (j < own));
    }
  CHECK(lagrange_interior_dimension(2, 3) == 1);
  CHECK(lagrange_interior_dimension(2, 8) == 21);
  CHECK(lagrange_interior_dimension(3, 3) == 0);
  CHECK(lagrange_interior_dimension(3, 6) == 10);
}

TEST_CASE("no other cell of a lattice mesh holds a cell's own DOFs", "[fem][bench][own_dofs]")
{
  for (int dim : {2, 3})
    for (int k = dim + 1; k <= dim + 2; ++k)
      for (int c : {1, dim}) {
        const LatticeMesh m = lattice_mesh(dim, 3, k, c);
        const size_t width = m.map.size() / static_cast<size_t>(m.n_cells);
        const size_t own = static_cast<size_t>(lagrange_interior_dimension(dim, k) * c);
        std::map<int, int> uses;
        for (int d : m.map) ++uses[d];
        long shared_own = 0, owned = 0;
        for (size_t e = 0; e < m.map.size(); ++e)
          if (e % width < own) {
            ++owned;
            shared_own += uses[m.map[e]] != 1;
          }
        INFO("dim " << dim << " P" << k << " components " << c);
        CHECK(owned == static_cast<long>(own) * m.n_cells);
        CHECK(shared_own == 0);
      }
}

TEST_CASE("own=plain adds to a cell's own DOFs without atomics where it has some", "[kernel][emit][own_dofs]")
{
  const std::string mass = "a = u*v*dx", laplace = "a = inner(grad(u), grad(v))*dx";
  // own=atomic (the default): the atomic scatter as before, at any degree
  for (int k : {2, 3}) {
    const std::string atomic = test::form_cuda_source(mass, CellType::Triangle, k, "scpwi wg=32 fp64");
    CHECK(test::regex_count(atomic, "g_out\\[r_dof0\\] \\+=") == 0);
    CHECK(test::regex_count(atomic, "< N_OWNED_TEST_DOFS") == 0);
  }
  // P2 triangles have no interior node: own=plain changes nothing
  const std::string p2 = test::form_cuda_source(mass, CellType::Triangle, 2, "scpwi wg=32 own=plain fp64");
  CHECK(p2.find("#define N_OWNED_TEST_DOFS 0") != std::string::npos);
  const std::string p2_atomic = test::form_cuda_source(mass, CellType::Triangle, 2, "scpwi wg=32 fp64");
  CHECK(p2.substr(p2.find('\n')) == p2_atomic.substr(p2_atomic.find('\n')));  // all but the schedule's line
  // Psi = I: a plain add for the own entries in the point loop, atomic otherwise
  const std::string scpwi_mass = test::form_cuda_source(mass, CellType::Triangle, 3, "scpwi wg=32 own=plain fp64");
  CHECK(scpwi_mass.find("#define N_OWNED_TEST_DOFS 1") != std::string::npos);
  CHECK(test::regex_count(scpwi_mass, "g_out\\[r_dof0\\] \\+= ") == 1);
  CHECK(test::regex_count(scpwi_mass, "atomicAdd") == 1);
  // with a test table: own values loaded before the shared adds, stored after them
  const std::string scpwi_laplace = test::form_cuda_source(laplace, CellType::Triangle, 4, "scpwi wg=32 scatter=warp own=plain fp64");
  CHECK(scpwi_laplace.find("#define N_OWNED_TEST_DOFS 3") != std::string::npos);
  const size_t load = scpwi_laplace.find("r_own_old[i_out] = "), store = scpwi_laplace.find("= r_own_old[i_out] + ");
  REQUIRE(load != std::string::npos);
  REQUIRE(store != std::string::npos);
  CHECK(load < store);
  CHECK(scpwi_laplace.find("i_out = N_OWNED_TEST_DOFS; i_out < N_TEST_DOFS") != std::string::npos);
  // vector elements: C entries a node
  CHECK(test::form_cuda_source("a = inner(u, v)*dx", CellType::Tetrahedron, 5, "scpwi wg=32 own=plain fp64", 3).find("#define N_OWNED_TEST_DOFS 12") !=
        std::string::npos);
}

TEST_CASE("own=plain is an SCPWI choice of one work-item a cell, read and printed", "[schedule][own_dofs]")
{
  const Schedule s = parse_schedule("scpwi wg=64 own=plain fp64");
  CHECK(s.own_dofs() == OwnDofs::Plain);
  CHECK(to_string(s) == "scpwi wg=64 own=plain fp64");
  CHECK(parse_schedule("scpwi wg=64 fp64").own_dofs() == OwnDofs::Atomic);
  CHECK_THROWS_WITH(parse_schedule("scpwi wg=64 own=atomic fp64"), Catch::Contains("canonical form \"scpwi wg=64 fp64\""));
  FormSignature sig{CellType::Triangle, Element{3, 2}, 1};
  const ActionIR ir = lower_form(parse_form_text("from ufl import *\na = inner(u, v)*dx\n", "t.ufl", sig).a);
  for (const char *text : {"mma nc=8 warps=4 tq=16 own=plain fp64", "tiled nc=8 nwi=4 tq=10 ter=10 tec=[10] tqr=10 tqc=5 own=plain fp64",
                           "scpwi wg=32 lanes=2 own=plain fp64"}) {
    INFO(text);
    CHECK_THROWS_WITH(validate(parse_schedule(text), ir, 10, 1 << 20), Catch::Contains("own=plain is for SCPWI kernels of one work-item a cell"));
  }
  // the text reader refuses own= on an assembled schedule; validate refuses one built in code
  CHECK_THROWS_WITH(validate(Schedule::assembled().with_own_dofs(OwnDofs::Plain), ir, 10, 1 << 20),
                    Catch::Contains("own=plain is for SCPWI kernels of one work-item a cell"));
}

// make_action's maps collide anywhere; here each cell's own entries get DOFs of their
// own (some constrained), as a mesh's do, and the other entries still collide.
TEST_CASE("OpenCL SCPWI kernels with own=plain match the reference action", "[opencl][kernel][scpwi][own_dofs]")
{
  std::mt19937 rng(41);
  const std::vector<test::FormCase> forms = test::form_cases();
  for (size_t f = 0; f < forms.size(); ++f)
    for (const auto &[dim, k] : {std::pair<int, int>{2, 3}, {2, 4}, {3, 4}}) {
      test::ActionData d = test::make_action(forms[f], dim, k, 37, rng);
      const int own = kernel::owned_test_dofs(d.ir), width = static_cast<int>(d.test_map.size()) / d.n_cells;
      REQUIRE(own > 0);
      int next = static_cast<int>(d.prefill.size());
      std::uniform_int_distribution<int> percent(0, 99);
      for (int c = 0; c < d.n_cells; ++c)
        for (int e = 0; e < own; ++e) d.test_map[static_cast<size_t>(c * width + e)] = percent(rng) < 5 ? -1 : next++;
      const std::vector<double> more = test::random_values(static_cast<size_t>(next) - d.prefill.size(), rng);
      d.prefill.insert(d.prefill.end(), more.begin(), more.end());
      for (const Schedule &s : {Schedule::single_cell_per_work_item(16), Schedule::single_cell_per_work_item(8).with_dofs(Dofs::Shared),
                                Schedule::single_cell_per_work_item(16).with_tables(Tables::Constant)}) {
        const Schedule plain = s.with_own_dofs(OwnDofs::Plain);
        if (s.tables() == Tables::Constant && constant_table_bytes(s, d.ir, d.tab.n_points()) > kMaxConstantTableBytes) continue;
        INFO(forms[f].name << " dim " << dim << " P" << k << ": " << to_string(plain));
        CHECK(test::opencl_action_error(d, plain) < 1e-12);
      }
    }
}

TEST_CASE("the tuner twins the SCPWI candidates among the fastest with own=plain where the element has own DOFs", "[tune][own_dofs]")
{
  const auto ir_of = [](int degree) {
    FormSignature sig{CellType::Triangle, Element{degree, 1}, 1};
    return lower_form(parse_form_text("from ufl import *\na = inner(grad(u), grad(v))*dx\n", "t.ufl", sig).a);
  };
  const Schedule s32 = Schedule::single_cell_per_work_item(32), warp = Schedule::single_cell_per_work_item(64).with_scatter(Scatter::Warp);
  const Schedule mma = Schedule::tensor_core(MmaSizes{8, 4, 16}), lanes = s32.with_lanes(2);
  const std::vector<TimedCandidate> timed{test::timed_candidate(s32, 0.30), test::timed_candidate(mma, 0.10),
                                          test::timed_candidate(warp, 0.20), test::timed_candidate(lanes, 0.25)};
  const ActionIR p3 = ir_of(3), p2 = ir_of(2);
  // the two fastest are mma and the warp SCPWI: one twin, of the warp one
  std::vector<TimedCandidate> twins = test::move_twins("own_dofs", timed, 2, &p3);
  REQUIRE(twins.size() == 1);
  CHECK(to_string(twins[0].schedule) == to_string(warp.with_own_dofs(OwnDofs::Plain)));
  CHECK(test::move_twins("own_dofs", timed, 1, &p3).empty());  // a tensor-core kernel leads
  // lanes kernels are not twinned; s32 is, once among the four fastest
  twins = test::move_twins("own_dofs", timed, 4, &p3);
  REQUIRE(twins.size() == 2);
  CHECK(to_string(twins[1].schedule) == to_string(s32.with_own_dofs(OwnDofs::Plain)));
  // no own DOFs at P2; a twin already timed is not timed again
  CHECK(test::move_twins("own_dofs", timed, 4, &p2).empty());
  std::vector<TimedCandidate> with_twin = timed;
  with_twin.push_back(test::timed_candidate(warp.with_own_dofs(OwnDofs::Plain), 0.5));
  twins = test::move_twins("own_dofs", with_twin, 4, &p3);
  REQUIRE(twins.size() == 1);
  CHECK(to_string(twins[0].schedule) == to_string(s32.with_own_dofs(OwnDofs::Plain)));
}
