// The paper's cost model (section 3.2.6), its search space (section 3.2.5) and the
// roofline (Eq. 16).
//
// Takes: KernelShape, Tiles, and DeviceParams (measured by the probe, or defaults).
// Returns: t_heur (seconds per cell, for ranking only), candidate lists, roofline GFLOP/s.
// Does not: time anything (tuner.h does).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "tune/kernel_shape.h"

namespace femgpu {

// What one work-group barrier costs its group in femgpu's cost model (t_sync below),
// fitted on the H200: re-ranking the 1163 unrolled tiled kernels timed there in 39
// cases, t_heur + t_sync with 0.1-0.35 us per barrier put a kernel within 1.03-1.04x
// of each case's fastest in its top 5 (geometric mean), against 1.27x for the paper's
// t_heur alone; 0.15 us was best (bench/experiments/model_barriers_offline.txt).
constexpr double kModelBarrierSeconds = 0.15e-6;

struct DeviceParams {
  std::string name = "NVIDIA H200 (paper defaults)";
  double beta_global = 4.8e12;   // B/s
  double beta_local = 29.7e12;   // shared memory
  double beta_ldg = 29.24e12;    // read-only/L1 cache
  double flops_peak = 30.0e12;   // FP64
  double local_max_bytes = 228.0 * 1024;  // L_max per multiprocessor
  double local_max_per_group = 227.0 * 1024;
  int groups_max = 32;           // W_max resident work-groups per multiprocessor
  int threads_max = 1024;        // per work-group
  int subgroup_width = 32;       // work-items per sub-group (CUDA warp); N_reside and SG_sat count these
  double sg_sat_global = 1;
  double sg_sat_local = 1;
  // For t_sync (not measured by the probe): the multiprocessors whose groups wait at
  // barriers side by side, and one barrier's cost (0: the paper's t_heur exactly).
  int multiprocessors = 132;
  double barrier_seconds = kModelBarrierSeconds;
};

// Per cell. Local accesses count each distinct table entry once per cell (the kernels
// read it once for every term that uses it; the paper counts one read per term).
struct MemoryCounts {
  double global_words = 0;
  double local_words = 0;
};

MemoryCounts memory_counts(const KernelShape &s, const Tiles &t);
double resident_subgroups(const KernelShape &s, const Tiles &t, const DeviceParams &d);  // N_reside
// The paper's t_heur, Eq. (14): memory traffic over the modelled bandwidths.
double t_memory(const KernelShape &s, const Tiles &t, const DeviceParams &d);
// femgpu's: t_memory + t_sync (with barrier_seconds = 0, the paper's exactly).
double t_heur(const KernelShape &s, const Tiles &t, const DeviceParams &d);
// Per cell, what the N_sync barriers of a group cost when the device holds
// multiprocessors x G groups at once, G = min(floor(L_max / L), W_max) (at least 1):
// N_sync * barrier_seconds / (N_c * multiprocessors * G). The paper's t_heur counts
// only memory traffic, so a tile with one column per DOF tile (T_e^c = 1, 2 barriers for
// each of n column tiles, each prefetching a few words) ranks with its neighbours; on
// the H200 such tiles ran 1.5-2x slower (Helmholtz 3D P5). 0 when barrier_seconds is 0.
double t_sync(const KernelShape &s, const Tiles &t, const DeviceParams &d);

struct SearchLimits {
  double eta_alias_min = 0.8;
  double eta_simd_min = 0.97;
  int wg_max = 256;
  long long max_candidates = 2000000;  // enumeration stops here (reported)
  // visit_tiles: at most this many candidates of each quadrature tile T^Q (0: no limit).
  // The walk goes T^Q largest first, so one limit for the whole walk (max_candidates)
  // never reached T^Q < Q at high order: mass 3D P6 has 11,534,337 candidates, and
  // every one with T^Q <= 61 (the paper's H200 winner has 61) came after the 2,000,000th.
  long long max_per_quad_tile = 0;
};

struct SearchSpace {
  std::vector<Tiles> candidates;
  bool truncated = false;
};

// Constraint 1 values for a loop of length n: {ceil(n/k) : k = 1..n}, largest first.
std::vector<int> tile_sizes(int n);
SearchSpace enumerate_tiles(const KernelShape &s, const SearchLimits &limits, const DeviceParams &d);
// The same walk, in the same order, without storing or truncating: `visit` sees every
// candidate of the pruned space and returns false to stop (the studies filter and rank
// spaces that do not fit in memory this way). With limits.max_per_quad_tile it moves on
// to the next T^Q after that many candidates of one, and returns whether it left any
// out (true also when a T^Q's candidates end exactly at the limit: it does not look on).
bool visit_tiles(const KernelShape &s, const SearchLimits &limits, const DeviceParams &d,
                 const std::function<bool(const Tiles &)> &visit);
// The b best by t_heur (stable: ties keep enumeration order).
std::vector<Tiles> rank_tiles(const KernelShape &s, const std::vector<Tiles> &candidates, const DeviceParams &d, size_t b);

struct Roofline {
  double flops = 0;          // per apply (untransformed kernel)
  double global_bytes = 0;   // each DOF, coordinate and map entry once
  double local_bytes = 0;
  double gflops = 0;         // min of the three ceilings
  const char *bound = "";    // "global", "local" or "compute"
};

// n_cells cells, n_dofs_in / n_dofs_out global DOFs of trial+coefficients / test,
// n_coordinate_values coordinate numbers, map entries counted once.
Roofline roofline(const KernelShape &s, double flops_per_cell, long long n_cells, long long n_dofs_in, long long n_dofs_out,
                  long long n_coordinate_values, long long n_map_entries, const DeviceParams &d);

}  // namespace femgpu
