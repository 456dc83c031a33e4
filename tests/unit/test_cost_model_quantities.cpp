// The paper's quantities of interest (section 3.2.4), cost model and roofline on
// configurations checked by hand.
#include <catch2/catch.hpp>

#include "tune/cost_model.h"
#include "tune/quantities.h"

#include "support/kernel_shapes.h"

using namespace femgpu;

namespace {

Tiles tiles(int nc, int nwi, int tq, int ter, int tec, int tqr, int tqc)
{
  Tiles t;
  t.cells_per_group = nc;
  t.items_per_cell = nwi;
  t.quad_tile = tq;
  t.eval_rows = ter;
  t.eval_cols = {tec};
  t.quad_rows = tqr;
  t.quad_cols = tqc;
  return t;
}

}  // namespace

TEST_CASE("quantities of a tiled mass P3 kernel match the hand count", "[tune]")
{
  KernelShape s = test::mass_p3_shape();
  Tiles t = tiles(4, 8, 12, 6, 5, 5, 6);
  // f(12) = 2*2*2 (evaluation) + 2*2*2 (quadrature) + 2 = 18, one full quadrature tile.
  CHECK(n_sync(s, t) == 18);
  CHECK(prefetch_words(s, t) == 30);           // max(6*5, 5*6)
  CHECK(local_memory_words(s, t) == 30 + 48);  // + N_c T^Q N_eval
  // Allocated: rows padded to odd strides, max(6*5, 5*7), and 4 slices of e of 13.
  CHECK(allocated_local_words(s, t) == 35 + 4 * 13);
  CHECK(eta_simd(t) == Approx(1.0));
  CHECK(eta_alias(s, t) == Approx(1.0));
  CHECK(ops_usable(s) == 480);  // 2*1*12*10 + 2*1*12*10
  // f_e(12) = 8*2*1*10 = 160 MACs; f_q(12) = 2*8*1*1*12 = 192 MACs.
  CHECK(ops_performed(s, t) == 2 * (160 + 192));
  CHECK(eta_pred(s, t) == Approx(480.0 / 704.0));
}

TEST_CASE("truncated quadrature tiles add the remainder's barriers", "[tune]")
{
  KernelShape s = test::mass_p3_shape();
  Tiles t = tiles(2, 16, 5, 5, 10, 10, 5);
  // Q = 12 = 2*5 + 2. f(5) = 2*1*1 + 2*1*1 + 2 = 6; f(2) = 2*1*1 + 2*1*1 + 2 = 6.
  CHECK(n_sync(s, t) == 2 * 6 + 6);
  CHECK(eta_alias(s, t) == Approx(50.0 / 50.0));
  Tiles u = tiles(3, 10, 12, 12, 10, 10, 12);  // 30 threads: one warp with 2 idle lanes
  CHECK(eta_simd(u) == Approx(30.0 / 32.0));
  CHECK(eta_alias(s, u) == Approx(120.0 / 120.0));
}

TEST_CASE("constraint 1 lists each minimal tile once", "[tune]")
{
  CHECK(tile_sizes(12) == std::vector<int>{12, 6, 4, 3, 2, 1});
  CHECK(tile_sizes(10) == std::vector<int>{10, 5, 4, 3, 2, 1});
  CHECK(tile_sizes(1) == std::vector<int>{1});
}

TEST_CASE("the search space equals an independent brute-force count", "[tune]")
{
  KernelShape s = test::mass_p3_shape();
  SearchLimits limits;
  DeviceParams d;
  SearchSpace space = enumerate_tiles(s, limits, d);
  // Brute force over all integers, keeping those constraint 1 allows.
  auto allowed = [](int size, int n) {
    for (int k = 1; k <= n; ++k)
      if ((n + k - 1) / k == size) return true;
    return false;
  };
  long long count = 0;
  for (int tq = 1; tq <= 12; ++tq)
    for (int ter = 1; ter <= tq; ++ter)
      for (int tec = 1; tec <= 10; ++tec)
        for (int tqr = 1; tqr <= 10; ++tqr)
          for (int tqc = 1; tqc <= tq; ++tqc) {
            if (!allowed(tq, 12) || !allowed(ter, tq) || !allowed(tec, 10) || !allowed(tqr, 10) || !allowed(tqc, tq)) continue;
            double a = ter * tec, b = tqr * tqc;
            if (std::min(a, b) / std::max(a, b) < 0.8) continue;
            for (int nc = 1; nc <= 256; ++nc)
              for (int nwi = 1; nc * nwi <= 256; ++nwi) {
                int threads = nc * nwi;
                if (threads / (32.0 * ((threads + 31) / 32)) >= 0.97) ++count;
              }
          }
  CHECK(!space.truncated);
  CHECK(static_cast<long long>(space.candidates.size()) == count);
  CHECK(count > 1000);
}

TEST_CASE("resident sub-groups count work-items in the device's sub-group width", "[tune][opencl_probe]")
{
  KernelShape s = test::mass_p3_shape();
  Tiles t = tiles(4, 8, 12, 6, 5, 5, 6);  // 32 work-items per group
  DeviceParams d;
  d.local_max_bytes = 1e9;  // groups_max limits, not local memory
  d.groups_max = 3;
  CHECK(resident_subgroups(s, t, d) == 1 * 3);  // one warp of 32
  d.subgroup_width = 8;                         // PoCL's AVX-512 doubles
  CHECK(resident_subgroups(s, t, d) == 4 * 3);
  d.subgroup_width = 64;                        // a wavefront: half used, still one
  CHECK(resident_subgroups(s, t, d) == 1 * 3);
  // The bandwidth ramp beta * N_reside / SG_sat: with SG_sat in the same unit, the
  // ranking time is the same whichever width the probe counted in.
  DeviceParams warp = d, lanes = d;
  warp.subgroup_width = 32, warp.sg_sat_global = warp.sg_sat_local = 8;
  lanes.subgroup_width = 8, lanes.sg_sat_global = lanes.sg_sat_local = 32;
  CHECK(t_heur(s, t, warp) == Approx(t_heur(s, t, lanes)));
}

TEST_CASE("the roofline of mass P1 matches a hand computation", "[tune]")
{
  KernelShape s;
  s.dim = 2;
  s.Q = 3;
  s.n_test = 3;
  s.n_eval = 1;
  s.n_test_tables = 1;
  s.groups.push_back({3, 1, 1, 3});
  DeviceParams d;
  // 1000 cells, 600 DOFs in and out, 1200 coordinate numbers, 3000 map entries.
  const double flops_per_cell = 2 * 3 * 3 * 2 + 10;
  Roofline r = roofline(s, flops_per_cell, 1000, 600, 600, 1200, 3000, d);
  const double bytes = (600 + 2 * 600 + 1200) * 8.0 + 4.0 * 3000;
  CHECK(r.global_bytes == Approx(bytes));
  CHECK(r.gflops == Approx(46000.0 / bytes * 4.8e12 / 1e9));
  CHECK(std::string(r.bound) == "global");
  // A device with a low FP64 peak: the peak is the ceiling (MatView: "FP64-peak bound").
  d.flops_peak = 1e9;
  r = roofline(s, flops_per_cell, 1000, 600, 600, 1200, 3000, d);
  CHECK(r.gflops == Approx(1.0));
  CHECK(std::string(r.bound) == "compute");
}

TEST_CASE("the register footprint of a tiled candidate matches a hand count", "[tune]")
{
  // Vector P7 on triangles (elasticity): n = 36, 2 components, grad u gives 4 terms.
  KernelShape s;
  s.dim = 2;
  s.Q = 33;
  s.n_test = 36;
  s.test_components = 2;
  s.n_eval = 4;
  s.coordinate_dofs = 6;
  s.groups.push_back({36, 4, 2, 72});
  // N_WI = 8: ceil(33/8) = 5 rows x 4 terms + a 36 x 2 DOF tile, or ceil(36/8) = 5
  // output rows x 2 components; plus 6 coordinates: 20 + 72 + 6 = 98 words (the H200's
  // ptxas gave this kernel 200 registers, i.e. 100 FP64 words).
  CHECK(register_words(s, tiles(32, 8, 33, 33, 36, 36, 33)) == 98);
  // A third of the DOF tile: 20 + 24 + 6.
  CHECK(register_words(s, tiles(32, 8, 33, 33, 12, 36, 33)) == 50);
  // One item per cell: the output rows dominate only when the evaluation is small.
  CHECK(register_words(s, tiles(32, 1, 1, 1, 1, 36, 1)) == 36 * 2 + 6);
}

TEST_CASE("t_sync: the barriers of a group spread over the groups the device holds at once", "[tune][t_sync]")
{
  KernelShape s = test::mass_p3_shape();
  Tiles t = tiles(4, 8, 12, 6, 5, 5, 6);  // N_sync = 18, L = 78 words (above)
  DeviceParams d;
  d.multiprocessors = 100;
  d.barrier_seconds = 2e-7;
  d.local_max_bytes = 78 * 8 * 10 + 100;  // 10 groups by shared memory (floored)
  d.groups_max = 32;
  CHECK(t_sync(s, t, d) == Approx(18 * 2e-7 / (4.0 * 100 * 10)));
  d.groups_max = 3;  // W_max caps it
  CHECK(t_sync(s, t, d) == Approx(18 * 2e-7 / (4.0 * 100 * 3)));
  d.local_max_bytes = 100;  // a group that does not fit still counts as one
  CHECK(t_sync(s, t, d) == Approx(18 * 2e-7 / (4.0 * 100 * 1)));
  // t_heur adds it to the paper's memory term, which barrier_seconds = 0 leaves alone.
  const double with = t_heur(s, t, d);
  d.barrier_seconds = 0;
  CHECK(t_sync(s, t, d) == 0);
  CHECK(with - t_heur(s, t, d) == Approx(18 * 2e-7 / 400.0));
  // Fewer barriers, same memory traffic: one column tile per DOF tile halves the evaluation's.
  d.barrier_seconds = 2e-7;
  Tiles u = tiles(4, 8, 12, 6, 10, 5, 6);
  CHECK(n_sync(s, u) < n_sync(s, t));
  CHECK(t_sync(s, u, d) < t_sync(s, t, d));
}
