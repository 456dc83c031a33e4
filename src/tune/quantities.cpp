// Quantities of section 3.2.4, written as the paper states them.
#include "tune/quantities.h"

#include <algorithm>

namespace femgpu {

namespace {

long long ceil_div(long long a, long long b) { return (a + b - 1) / b; }

// f(q): barriers for one quadrature tile of q points (Eq. 8).
long long barriers_for_tile(const KernelShape &s, const Tiles &t, long long q)
{
  if (q == 0) return 0;
  long long eval = 0;
  for (size_t i = 0; i < s.groups.size(); ++i)
    eval += 2 * ceil_div(q, t.eval_rows) * ceil_div(s.groups[i].n, t.eval_cols[i]);
  long long quad = 2 * ceil_div(s.n_test, t.quad_rows) * ceil_div(q, t.quad_cols);
  return eval + quad + 2;
}

// Operations performed by N_WI items in the evaluation (f_e) and quadrature (f_q)
// phases of one quadrature tile of x points.
long long f_e(const KernelShape &s, const Tiles &t, long long x)
{
  const long long nwi = t.items_per_cell;
  long long rows = nwi * (x / t.eval_rows) * ceil_div(t.eval_rows, nwi) + nwi * ceil_div(x % t.eval_rows, nwi);
  long long width = 0;
  for (const KernelShape::Group &g : s.groups) width += static_cast<long long>(g.n_deriv) * g.n;
  return rows * width;
}

long long f_q(const KernelShape &s, const Tiles &t, long long x)
{
  const long long nwi = t.items_per_cell, nw = s.n_test;
  return (nw / t.quad_rows) * nwi * ceil_div(t.quad_rows, nwi) * s.n_eval * x +
         nwi * ceil_div(nw % t.quad_rows, nwi) * s.n_eval * x;
}

std::vector<long long> buffer_parts(const KernelShape &s, const Tiles &t)
{
  std::vector<long long> parts;
  for (size_t i = 0; i < s.groups.size(); ++i)
    parts.push_back(static_cast<long long>(s.groups[i].n_tables) * t.eval_rows * t.eval_cols[i]);
  parts.push_back(static_cast<long long>(s.n_test_tables) * t.quad_rows * t.quad_cols);
  return parts;
}

}  // namespace

long long n_sync(const KernelShape &s, const Tiles &t)
{
  return (s.Q / t.quad_tile) * barriers_for_tile(s, t, t.quad_tile) + barriers_for_tile(s, t, s.Q % t.quad_tile);
}

long long prefetch_words(const KernelShape &s, const Tiles &t)
{
  std::vector<long long> p = buffer_parts(s, t);
  return *std::max_element(p.begin(), p.end());
}

long long local_memory_words(const KernelShape &s, const Tiles &t)
{
  return prefetch_words(s, t) + static_cast<long long>(t.cells_per_group) * t.quad_tile * s.n_eval;
}

long long allocated_local_words(const KernelShape &s, const Tiles &t)
{
  // The same padding as the kernel's (schedule.h's odd_stride).
  long long buffer = static_cast<long long>(s.n_test_tables) * t.quad_rows * odd_stride(t.quad_cols);
  for (size_t i = 0; i < s.groups.size(); ++i)
    buffer = std::max(buffer, static_cast<long long>(s.groups[i].n_tables) * t.eval_rows * odd_stride(t.eval_cols[i]));
  return buffer + static_cast<long long>(t.cells_per_group) * odd_stride(t.quad_tile * s.n_eval);
}

double eta_simd(const Tiles &t, int simd_width)
{
  const long long threads = static_cast<long long>(t.cells_per_group) * t.items_per_cell;
  return static_cast<double>(threads) / static_cast<double>(simd_width * ceil_div(threads, simd_width));
}

double eta_alias(const KernelShape &s, const Tiles &t)
{
  std::vector<long long> p = buffer_parts(s, t);
  return static_cast<double>(*std::min_element(p.begin(), p.end())) / static_cast<double>(*std::max_element(p.begin(), p.end()));
}

long long ops_usable(const KernelShape &s)
{
  long long ops = 2LL * s.n_eval * s.Q * s.n_test;
  for (const KernelShape::Group &g : s.groups) ops += 2LL * g.n_deriv * s.Q * g.n;
  return ops;
}

long long ops_performed(const KernelShape &s, const Tiles &t)
{
  const long long full = s.Q / t.quad_tile, rest = s.Q % t.quad_tile;
  // The paper counts multiply-adds of the two phases (each one FMA = 2 ops in Eq. 12).
  return 2 * (full * f_e(s, t, t.quad_tile) + f_e(s, t, rest) + full * f_q(s, t, t.quad_tile) + f_q(s, t, rest));
}

double eta_pred(const KernelShape &s, const Tiles &t)
{
  return static_cast<double>(ops_usable(s)) / static_cast<double>(ops_performed(s, t));
}

long long register_words(const KernelShape &s, const Tiles &t, bool shared_dofs)
{
  const long long items = std::max(1, t.items_per_cell);
  const long long eval_rows = (t.eval_rows + items - 1) / items, quad_rows = (t.quad_rows + items - 1) / items;
  long long accumulators = 0, dof_tile = 0;
  for (size_t g = 0; g < s.groups.size(); ++g) {
    const KernelShape::Group &grp = s.groups[g];
    accumulators += eval_rows * grp.n_deriv;
    const long long per_basis = grp.n > 0 ? grp.dofs / grp.n : 1;
    const long long cols = g < t.eval_cols.size() ? t.eval_cols[g] : grp.n;
    // Shared DOFs (unrolled loops): one column's values at a time.
    dof_tile = std::max(dof_tile, (shared_dofs ? 1 : cols) * per_basis);
  }
  return std::max(accumulators + dof_tile, quad_rows * s.test_components) + s.coordinate_dofs;
}

}  // namespace femgpu
