// The physical bound (tune/physical_bound.h) of known operators, counted by hand:
// bytes of a Laplace P2 and an elasticity P1 application on small lattice meshes, and
// which limit binds.
#include <catch2/catch.hpp>

#include "fem/lattice_mesh.h"
#include "tune/physical_bound.h"

using namespace femgpu;

TEST_CASE("minimal bytes of a scalar P2 operator on a 4x4 square lattice match the hand count", "[model]")
{
  // 32 triangles, (2*4+1)^2 = 81 nodes, 6 DOFs a cell, 25 vertices in 2D.
  // x and y: 2 * 81 * 8 = 1296; map: 32 * 6 * 4 = 768; coordinates: 25 * 2 * 8 = 400;
  // coordinate map: 32 * 3 * 4 = 384.
  const LatticeMesh m = lattice_mesh(2, 4, 2, 1);
  REQUIRE(m.n_cells == 32);
  REQUIRE(minimal_bytes(lattice_traffic(m, 0)) == 1296 + 768 + 400 + 384);
  // A coefficient in the trial element adds one more vector: 81 * 8.
  REQUIRE(minimal_bytes(lattice_traffic(m, 1)) == 1296 + 768 + 400 + 384 + 648);
  // FP32 values: x, y and coefficients at 4 bytes; indices and coordinates unchanged.
  OperatorTraffic t = lattice_traffic(m, 1);
  t.value_bytes = 4;
  REQUIRE(minimal_bytes(t) == 3 * 81 * 4 + 768 + 400 + 384);
}

TEST_CASE("minimal bytes of a vector P1 operator on a 2x2x2 cube lattice match the hand count", "[model]")
{
  // 8 cubes of 6 tetrahedra: 48 cells, 27 nodes x 3 components = 81 DOFs, 12 DOFs a cell.
  // x and y: 2 * 81 * 8 = 1296; map: 48 * 12 * 4 = 2304; coordinates: 27 * 3 * 8 = 648;
  // coordinate map: 48 * 4 * 4 = 768.
  const LatticeMesh m = lattice_mesh(3, 2, 1, 3);
  REQUIRE(m.n_cells == 48);
  REQUIRE(minimal_bytes(lattice_traffic(m, 0)) == 1296 + 2304 + 648 + 768);
}

TEST_CASE("minimal bytes of an assembled operator: its matrix, x and y, no map or coordinates", "[model]")
{
  // 3D P1 Laplace on 2x2x2 cubes: 27 rows, 343 nonzeros (the lattice's vertex
  // neighbourhoods, counted by femgpu-bench's CSR elsewhere; here any count will do).
  // x and y: 2 * 27 * 8 = 432; values: 343 * 8 = 2744; columns: 343 * 4 = 1372.
  const OperatorTraffic t = assembled_traffic(27, 27, 343);
  REQUIRE(minimal_bytes(t) == 432 + 2744 + 1372);
  PhysicalLimits limits;
  limits.dram_bytes_per_second = 4e12;
  const PhysicalBound b = physical_bound(t, 2.0 * 343, false, limits);
  REQUIRE(std::string(b.bound) == "dram");
  REQUIRE(b.seconds == Approx((432.0 + 2744 + 1372) / 4e12));
}

TEST_CASE("the physical bound takes the longer of DRAM time and FP64 time", "[model]")
{
  OperatorTraffic t;
  t.dofs_in = t.dofs_out = 1000000;  // 16 MB of x and y, nothing else
  PhysicalLimits limits;
  limits.dram_bytes_per_second = 4e12, limits.fp64_flops_per_second = 32e12, limits.fp64_tensor_flops_per_second = 64e12;
  SECTION("many flops: FP64 binds")
  {
    const PhysicalBound b = physical_bound(t, 1e9, false, limits);
    REQUIRE(b.bytes == 16e6);
    REQUIRE(b.dram_seconds == Approx(4e-6));
    REQUIRE(b.fp64_seconds == Approx(1e9 / 32e12));
    REQUIRE(b.seconds == Approx(31.25e-6));
    REQUIRE(std::string(b.bound) == "fp64");
  }
  SECTION("tensor cores halve the flop time here")
  {
    const PhysicalBound b = physical_bound(t, 1e9, true, limits);
    REQUIRE(b.seconds == Approx(1e9 / 64e12));
    REQUIRE(std::string(b.bound) == "fp64");
  }
  SECTION("DRAM binds when the flops are few")
  {
    const PhysicalBound b = physical_bound(t, 1e6, false, limits);
    REQUIRE(b.seconds == Approx(4e-6));
    REQUIRE(std::string(b.bound) == "dram");
  }
}
