// The paper's studies of its tiling space and cost model (section 5.2.3-5.2.5), the CPU
// half: statistics, sampling, and the constrained spaces whose best candidates the GPU
// half (src/tools/femgpu_bench_study.cpp) times.
//
//   Table 5  ablation:    Theta' = Theta with some tile sizes or the work division fixed;
//                         P_Theta' = best measured of Top_b(Theta'), reported / P_Theta.
//   Table 6  Spearman:    rho between model and measured ranks of 20 random candidates.
//   Table 7  top-k:       Q~_k = best of Top_k(Theta) / best of Top_70(Theta) (Eq. 19).
//   Table 8  sensitivity: P(h) with h = (eta_alias_min, eta_simd_min, WG_max, b) moved
//                         one component at a time from h* = (0.8, 0.97, 256, 9).
//
// Takes: measured times, model costs, a KernelShape, SearchLimits and DeviceParams.
// Returns: numbers and candidate lists; nothing is timed or compiled here.
// Does not: know the device, CUDA or PETSc.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tune/cost_model.h"

namespace femgpu {

// Ranks 1..n of `values` in ascending order; tied values share the mean of their ranks.
std::vector<double> average_ranks(const std::vector<double> &values);

// Spearman's rho: the Pearson correlation of the average ranks of x and y. Without
// ties this is exactly the paper's Eq. (17), 1 - 6 sum d_i^2 / (n (n^2 - 1)); with ties
// Eq. (17) is biased and this is the standard definition. NaN when n < 2 or when one
// side is constant.
double spearman_rho(const std::vector<double> &x, const std::vector<double> &y);

// Q~_k of Eq. (19). `times_in_model_order[i]` is the measured time of the model's
// (i+1)-th best candidate (infinity when it could not run); the denominator is the best
// of all of them (the paper's Top_70), the numerator the best of the first k. With the
// same FLOPs per candidate, throughput ratios are inverse time ratios:
// Q~_k = min(all times) / min(first k times). NaN when no candidate ran.
double topk_quality(const std::vector<double> &times_in_model_order, std::size_t k);

double arithmetic_mean(const std::vector<double> &xs);  // NaN entries are skipped
double geometric_mean(const std::vector<double> &xs);   // NaN and non-positive skipped

// k distinct indices of [0, population), each k-subset equally likely (partial
// Fisher-Yates on a 64-bit Mersenne twister, with our own unbiased bounded draw so the
// sample is the same with every standard library). k > population gives all indices.
std::vector<std::size_t> sample_without_replacement(std::size_t population, std::size_t k, std::uint64_t seed);

// The model's best `b` of the pruned space (optionally only the candidates `keep`
// admits), streamed: equal to rank_tiles(enumerate_tiles(...)) filtered, ties kept in
// enumeration order; at most limits.max_candidates admitted candidates are ranked (the
// tuner's truncation, reported).
struct RankedTiles {
  std::vector<Tiles> best;           // best first
  std::vector<double> model_seconds; // t_heur of each
  long long space_size = 0;          // admitted candidates ranked
  bool truncated = false;
};
RankedTiles top_tiles(const KernelShape &s, const SearchLimits &limits, const DeviceParams &d, std::size_t b,
                      const std::function<bool(const Tiles &)> &keep = {});

// The candidates at the given positions (ascending) of the pruned space's enumeration.
std::vector<Tiles> tiles_at(const KernelShape &s, const SearchLimits &limits, const DeviceParams &d,
                            const std::vector<std::size_t> &sorted_positions);

// Table 5. Each row fixes some parameters; all others stay free and are chosen by the
// tuning procedure (Top_b of the constrained space, then the fastest measured):
//   full_extents   T^Q = T_e^r = T_q^c = Q, T_{e,U_i}^c = n_{U_i}, T_q^r = n_W
//   uniform_4/_8   every tile size s (see uniform_tile_size), N_c and N_WI free
//   ncX_nwiY       (N_c, N_WI) = (X, Y), tile sizes free
//   tq_q / tq_half T^Q = Q / T^Q = ceil(Q/2), the other tiles and the division free
struct Ablation {
  enum class Kind { FullExtents, UniformTile, WorkDivision, QuadTile, QuadTileHalf };
  std::string key;    // the paper's CSV key, e.g. "nc16_nwi4"
  std::string label;  // e.g. "(N_c, N_WI) = (16, 4)"
  Kind kind = Kind::FullExtents;
  int tile = 0;                              // UniformTile
  int cells_per_group = 0, items_per_cell = 0;  // WorkDivision
};
std::vector<Ablation> paper_ablations();  // the ten rows of Table 5, in its order

// A uniform tile size s for a loop of length n, as a Constraint-1 size (the only sizes
// in Theta): ceil(n / ceil(n/s)), the size that covers the loop in as many tiles as s
// does. It is s itself whenever s is a Constraint-1 size of n (and n when n <= s).
int uniform_tile_size(int n, int s);

// Whether a candidate of Theta belongs to the row's Theta'.
bool admits(const Ablation &a, const KernelShape &s, const Tiles &t);

// Table 8: one component of h* changed per row; `b` is the tuning budget.
struct Sensitivity {
  std::string key;  // the paper's CSV key, e.g. "ETA_ALIAS_MIN=0.5", "WG_MAX=64", "b=20"
  SearchLimits limits;
  std::size_t b = 9;
};
// The 19 rows of Table 8 around `defaults` (h* = (0.8, 0.97, 256) and b = 9 unless
// given): eta_alias_min in {0, 0.5, 0.6, 0.7, 0.9}, eta_simd_min in {0, 0.5, 0.7,
// 0.9, 0.99}, WG_max in {64, 128, 512}, b in {1, 3, 5, 20, 50, 70}.
std::vector<Sensitivity> paper_sensitivities(const SearchLimits &defaults = {}, std::size_t b = 9);

// Which studies to plan for one case, and their settings (defaults: the paper's).
struct StudySettings {
  bool ablation = false, spearman = false, topk = false, sensitivity = false;
  SearchLimits limits;          // h* without b
  std::size_t b = 9;            // tuning budget of Tables 5 and 8
  std::size_t top = 70;         // Top_70: Q~_k's denominator (Table 7), b rows of Table 8
  std::size_t sample = 20;      // Spearman's random sample (Table 6)
  std::uint64_t seed = 1;
  int threads = 8;              // enumerations run in parallel
};

// The candidates each study times for one case; every list is best-first by t_heur
// except the random sample (enumeration order of the drawn positions).
struct StudyPlan {
  RankedTiles top;                        // Top_top(Theta): Table 7, P_Theta, Table 8's b rows
  RankedTiles sample;                     // Table 6 (space_size: |Theta| it was drawn from)
  std::vector<RankedTiles> ablations;     // paper_ablations() order: Top_b(Theta')
  std::vector<RankedTiles> sensitivities; // paper_sensitivities() order: Top_b(Theta(h))
  std::vector<Tiles> unique() const;      // every candidate above once, in first-use order
};
StudyPlan plan_studies(const KernelShape &s, const DeviceParams &d, const StudySettings &settings);

// Benchmark subsets of Tables 6 and 7. Low order: P1-P4 in 2D, P1-P3 in 3D.
bool is_low_order(int dim, int degree);

}  // namespace femgpu
