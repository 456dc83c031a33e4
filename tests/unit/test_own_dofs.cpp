// A cell's own DOFs (its interior nodes) are added without atomics by the SCPWI and
// tensor-core kernels (build_common.h, add_to_own_or_shared_dof). That is right only if
// they come first in the element's basis order, as many as lagrange_interior_dimension
// says, and if no other cell's map holds them: checked here for the element and the
// lattice meshes (the DMPlex closures: tests/petsc/test_closure_maps.cpp), and the code
// shape of the kernels that use them. Their values against the CPU reference: the OpenCL
// schedule tests (SCPWI) and femgpu-gpu-check (all kernels, on the GPU).
#include <catch2/catch.hpp>

#include <map>
#include <regex>

#include "fem/action_tables.h"
#include "fem/lattice_mesh.h"
#include "fem/tabulation.h"
#include "form/parser.h"
#include "ir/lower.h"
#include "kernel/build.h"
#include "kernel/emit.h"

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

std::string kernel_source(const std::string &form_text, CellType cell, int degree, const std::string &schedule, int components = 1)
{
  FormSignature sig{cell, Element{degree, components}, 1};
  const ActionIR ir = lower_form(parse_form_text("from ufl import *\n" + form_text + "\n", "t.ufl", sig).a);
  const Tabulation tab = tabulate_action(ir, default_share_dir());
  return kernel::emit_cuda(kernel::build_kernel(ir, tab, parse_schedule(schedule)));
}

long count(const std::string &s, const std::string &re)
{
  const std::regex r(re);
  return std::distance(std::sregex_iterator(s.begin(), s.end(), r), std::sregex_iterator());
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

TEST_CASE("kernels add to a cell's own DOFs without atomics where they have some", "[kernel][emit][own_dofs]")
{
  const std::string mass = "a = u*v*dx", laplace = "a = inner(grad(u), grad(v))*dx";
  // P2 triangles have no interior node: the atomic scatter as before
  const std::string p2 = kernel_source(mass, CellType::Triangle, 2, "scpwi wg=32 fp64");
  CHECK(p2.find("#define N_OWNED_TEST_DOFS 0") != std::string::npos);
  CHECK(count(p2, "g_out\\[r_dof0\\] \\+=") == 0);
  CHECK(count(p2, "< N_OWNED_TEST_DOFS") == 0);
  // SCPWI, Psi = I: a plain add for the own entries in the point loop, atomic otherwise
  const std::string scpwi_mass = kernel_source(mass, CellType::Triangle, 3, "scpwi wg=32 fp64");
  CHECK(scpwi_mass.find("#define N_OWNED_TEST_DOFS 1") != std::string::npos);
  CHECK(count(scpwi_mass, "g_out\\[r_dof0\\] \\+= ") == 1);
  CHECK(count(scpwi_mass, "atomicAdd") == 1);
  // SCPWI with a test table: own values loaded before the shared adds, stored after them
  const std::string scpwi_laplace = kernel_source(laplace, CellType::Triangle, 4, "scpwi wg=32 fp64");
  CHECK(scpwi_laplace.find("#define N_OWNED_TEST_DOFS 3") != std::string::npos);
  const size_t load = scpwi_laplace.find("r_own_old[i_out] = "), add = scpwi_laplace.find("atomicAdd"),
               store = scpwi_laplace.find("= r_own_old[i_out] + ");
  REQUIRE(load != std::string::npos);
  REQUIRE(add != std::string::npos);
  REQUIRE(store != std::string::npos);
  CHECK((load < add && add < store));
  CHECK(scpwi_laplace.find("i_out = N_OWNED_TEST_DOFS; i_out < N_TEST_DOFS") != std::string::npos);
  // vector elements: C entries a node
  CHECK(kernel_source("a = inner(u, v)*dx", CellType::Tetrahedron, 5, "scpwi wg=32 fp64", 3).find("#define N_OWNED_TEST_DOFS 12") !=
        std::string::npos);
  // tensor cores, Psi = I, test DOFs prefetched: the own values loaded with them
  const std::string mma_mass = kernel_source(mass, CellType::Triangle, 7, "mma nc=8 warps=4 tq=16 fp64");
  CHECK(mma_mass.find("real r_test_old[") != std::string::npos);
  CHECK(mma_mass.find("r_test_old[") < mma_mass.find("gather each"));
  CHECK(count(mma_mass, "= r_test_old\\[.*\\] \\+ r_t") == 1);
  // tensor cores with a test table, tiled kernels: atomic adds only
  for (const std::string &source : {kernel_source(laplace, CellType::Triangle, 4, "mma nc=8 warps=4 tq=16 fp64"),
                                    kernel_source(mass, CellType::Triangle, 3, "tiled nc=64 nwi=2 tq=10 ter=10 tec=[10] tqr=10 tqc=5 fp64")}) {
    CHECK(source.find("r_own") == std::string::npos);
    CHECK(source.find("r_test_old") == std::string::npos);
    CHECK(count(source, "< N_OWNED_TEST_DOFS") == 0);
  }
}
