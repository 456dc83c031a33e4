// Probe: is the DRAM-bound matrix-free scatter limited by its global atomic adds, and
// does combining a group's adds first (one add per distinct DOF of the group) pay?
//
// A lattice of n x n squares, two P-degree triangles each, DOFs numbered row by row and
// cells square by square (the layout of femgpu-bench's lattice meshes). Every variant
// reads x at each cell's DOFs, forms v_e = x_e * w_e (w a fixed table) and adds v_e to
// y at the same DOFs: the data movement of a mass action whose flops are left out.
//   atomic-cell   one thread a cell, an atomic add per (cell, entry)     (SCPWI's scatter)
//   atomic-pair   one thread a (cell, entry), 32 consecutive pairs a warp (mma pairs)
//   combine-csr   one thread a cell; its values to shared memory; then one thread per
//                 distinct DOF of the group sums its entries (a per-group CSR, 16-bit
//                 local indices) and adds once
//   slots-csr     the group's distinct DOFs' x read once into shared memory (coalesced,
//                 no per-entry map: a 16-bit slot per entry), then as combine-csr
//   slots-atomic  as slots-csr, but the values added into shared slots with atomicAdd,
//                 then one add per distinct DOF
//   staged        one thread a cell; its values to shared memory; then the group adds
//                 them (cell, entry) by (cell, entry): consecutive threads, consecutive
//                 entries of a cell, the map read again (no extra index arrays)
//   staged-both   as staged, and the gather too: the group reads x (cell, entry) by
//                 (cell, entry) into shared memory before the cells' work
// Times: CUDA events, median of 30 launches after 3 warm-ups, y accumulating (as the
// tuner times kernels). Each variant's y is checked against atomic-cell's.
// Build: nvcc -O3 -arch=sm_90 -std=c++17 scatter_combine_probe.cu -o scatter_combine_probe
// Run:   ./scatter_combine_probe P [n [components]]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>

#define CK(x)                                                                               \
  do {                                                                                      \
    cudaError_t e_ = (x);                                                                   \
    if (e_ != cudaSuccess) {                                                                \
      std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));       \
      std::exit(2);                                                                         \
    }                                                                                       \
  } while (0)

struct Lattice {
  int P, n, nb;
  long long n_cells, n_dofs;
  std::vector<int> map;  // n_cells x nb
};

// C components: node k's component c is DOF k*C + c, entry node*C + c of its cells.
Lattice make_lattice(int P, int n, int C)
{
  Lattice L{P, n, C * (P + 1) * (P + 2) / 2, 2LL * n * n, (long long)C * (P * n + 1) * (P * n + 1), {}};
  const long long N = P * n + 1;
  L.map.resize((size_t)L.n_cells * L.nb);
  size_t k = 0;
  for (int b = 0; b < n; ++b)
    for (int a = 0; a < n; ++a)
      for (int t = 0; t < 2; ++t)
        for (int j = 0; j <= P; ++j)
          for (int i = 0; i + j <= P; ++i) {
            const long long gi = t == 0 ? (long long)a * P + i : (long long)(a + 1) * P - i;
            const long long gj = t == 0 ? (long long)b * P + j : (long long)(b + 1) * P - j;
            for (int c = 0; c < C; ++c) L.map[k++] = (int)((gj * N + gi) * C + c);
          }
  return L;
}

// Per group of T consecutive cells: its distinct DOFs (sorted), for each the list of
// (entry e, cell t) local indices e*T + t, and for each (cell, entry) its slot.
struct Groups {
  std::vector<int> start;      // n_groups + 1, into dofs
  std::vector<int> dofs;       // distinct DOFs, group by group
  std::vector<int> ptr;        // dofs.size() + 1, into idx
  std::vector<uint16_t> idx;   // e*T + t
  std::vector<uint16_t> slot;  // per (cell, entry): index within the group's dofs
};

Groups make_groups(const Lattice &L, int T)
{
  Groups g;
  const long long n_groups = (L.n_cells + T - 1) / T;
  g.start.push_back(0);
  g.ptr.push_back(0);
  g.slot.resize(L.map.size());
  std::vector<std::pair<int, int>> ent;  // (dof, local index)
  for (long long gr = 0; gr < n_groups; ++gr) {
    ent.clear();
    const long long c0 = gr * T, c1 = std::min(L.n_cells, c0 + T);
    for (long long c = c0; c < c1; ++c)
      for (int e = 0; e < L.nb; ++e) ent.push_back({L.map[c * L.nb + e], e * T + (int)(c - c0)});
    std::sort(ent.begin(), ent.end());
    int base = (int)g.dofs.size();
    for (size_t i = 0; i < ent.size(); ++i) {
      if (i == 0 || ent[i].first != ent[i - 1].first) {
        if (i) g.ptr.push_back((int)g.idx.size());
        g.dofs.push_back(ent[i].first);
      }
      g.idx.push_back((uint16_t)ent[i].second);
      const int e = ent[i].second / T, t = ent[i].second % T;
      g.slot[(size_t)(c0 + t) * L.nb + e] = (uint16_t)((int)g.dofs.size() - 1 - base);
    }
    g.ptr.push_back((int)g.idx.size());
    g.start.push_back((int)g.dofs.size());
  }
  return g;
}

__constant__ double c_w[64];

template <int NB>
__global__ void atomic_cell(long long n_cells, const int *__restrict__ map, const double *__restrict__ x, double *__restrict__ y)
{
  const long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= n_cells) return;
  int d[NB];
  double v[NB];
#pragma unroll
  for (int e = 0; e < NB; ++e) d[e] = map[c * NB + e];
#pragma unroll
  for (int e = 0; e < NB; ++e) v[e] = x[d[e]] * c_w[e];
#pragma unroll
  for (int e = 0; e < NB; ++e) atomicAdd(&y[d[e]], v[e]);
}

__global__ void atomic_pair(long long n_pairs, int nb, const int *__restrict__ map, const double *__restrict__ x, double *__restrict__ y)
{
  const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n_pairs) return;
  const int d = map[p];
  atomicAdd(&y[d], x[d] * c_w[p % nb]);
}

template <int NB>
__global__ void combine_csr(long long n_cells, const int *__restrict__ map, const int *__restrict__ start, const int *__restrict__ dofs,
                            const int *__restrict__ ptr, const uint16_t *__restrict__ idx, const double *__restrict__ x, double *__restrict__ y)
{
  extern __shared__ double s_v[];
  const int T = blockDim.x, t = threadIdx.x;
  const long long c = (long long)blockIdx.x * T + t;
  if (c < n_cells) {
    int d[NB];
#pragma unroll
    for (int e = 0; e < NB; ++e) d[e] = map[c * NB + e];
#pragma unroll
    for (int e = 0; e < NB; ++e) s_v[e * T + t] = x[d[e]] * c_w[e];
  }
  __syncthreads();
  const int u0 = start[blockIdx.x], u1 = start[blockIdx.x + 1];
  for (int u = u0 + t; u < u1; u += T) {
    double s = 0.0;
    for (int k = ptr[u]; k < ptr[u + 1]; ++k) s += s_v[idx[k]];
    atomicAdd(&y[dofs[u]], s);
  }
}

template <int NB, bool CSR>
__global__ void slots(long long n_cells, const uint16_t *__restrict__ slot, const int *__restrict__ start, const int *__restrict__ dofs,
                      const int *__restrict__ ptr, const uint16_t *__restrict__ idx, const double *__restrict__ x, double *__restrict__ y)
{
  extern __shared__ double s_dyn[];
  const int T = blockDim.x, t = threadIdx.x;
  const int u0 = start[blockIdx.x], nu = start[blockIdx.x + 1] - u0;
  double *s_x = s_dyn, *s_v = s_dyn + T * NB;  // s_x holds nu <= T*NB values
  for (int u = t; u < nu; u += T) s_x[u] = x[dofs[u0 + u]];
  if (!CSR)
    for (int u = t; u < nu; u += T) s_v[u] = 0.0;
  __syncthreads();
  const long long c = (long long)blockIdx.x * T + t;
  if (c < n_cells) {
#pragma unroll
    for (int e = 0; e < NB; ++e) {
      const int s = slot[c * NB + e];
      const double v = s_x[s] * c_w[e];
      if (CSR) s_v[e * T + t] = v;
      else atomicAdd(&s_v[s], v);
    }
  }
  __syncthreads();
  for (int u = t; u < nu; u += T) {
    double s = 0.0;
    if (CSR)
      for (int k = ptr[u0 + u]; k < ptr[u0 + u + 1]; ++k) s += s_v[idx[k]];
    else
      s = s_v[u];
    atomicAdd(&y[dofs[u0 + u]], s);
  }
}

template <int NB, bool GATHER>
__global__ void staged(long long n_cells, const int *__restrict__ map, const double *__restrict__ x, double *__restrict__ y)
{
  extern __shared__ double s_v[];  // T * NB: entry e of the group's cell t at t * NB + e
  const int T = blockDim.x, t = threadIdx.x;
  const long long c0 = (long long)blockIdx.x * T, c = c0 + t;
  const int n = (int)(min((long long)T, n_cells - c0) * NB);
  if (GATHER) {
    for (int k = t; k < n; k += T) s_v[k] = x[map[c0 * NB + k]];
    __syncthreads();
  }
  if (c < n_cells) {
    double v[NB];
#pragma unroll
    for (int e = 0; e < NB; ++e) v[e] = (GATHER ? s_v[t * NB + e] : x[map[c * NB + e]]) * c_w[e];
#pragma unroll
    for (int e = 0; e < NB; ++e) s_v[t * NB + e] = v[e];
  }
  __syncthreads();
  for (int k = t; k < n; k += T) atomicAdd(&y[map[c0 * NB + k]], s_v[k]);
}

template <class F>
double median_ms(F launch)
{
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  for (int i = 0; i < 3; ++i) launch();
  std::vector<float> ms;
  for (int i = 0; i < 30; ++i) {
    CK(cudaEventRecord(a));
    launch();
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float m;
    CK(cudaEventElapsedTime(&m, a, b));
    ms.push_back(m);
  }
  CK(cudaGetLastError());
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

template <class T>
T *upload(const std::vector<T> &h)
{
  T *d;
  CK(cudaMalloc(&d, h.size() * sizeof(T)));
  CK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

template <int NB>
void run(int P, int n, int C)
{
  const Lattice L = make_lattice(P, n, C);
  if (L.nb != NB) {
    std::fprintf(stderr, "internal: %d entries a cell, template for %d\n", L.nb, NB);
    std::exit(1);
  }
  std::vector<double> hx((size_t)L.n_dofs), w(64);
  for (size_t i = 0; i < hx.size(); ++i) hx[i] = 1.0 + 1e-3 * (double)((i * 7919) % 1000);
  for (int e = 0; e < 64; ++e) w[e] = 0.5 + 0.01 * e;
  CK(cudaMemcpyToSymbol(c_w, w.data(), sizeof(double) * 64));
  int *map = upload(L.map);
  double *x = upload(hx), *y;
  CK(cudaMalloc(&y, hx.size() * sizeof(double)));
  std::vector<double> ref(hx.size()), got(hx.size());
  const double minimal_bytes = 16.0 * L.n_dofs + 4.0 * L.map.size();
  auto report = [&](const char *name, int T, double ms, double extra_index_bytes) {
    (void)C;
    CK(cudaMemcpy(got.data(), y, got.size() * sizeof(double), cudaMemcpyDeviceToHost));
    double err = 0;
    for (size_t i = 0; i < got.size(); ++i) err = std::max(err, std::fabs(got[i] - ref[i]) / std::fabs(ref[i]));
    std::printf("C%d P%d n=%d %-13s T=%3d %8.4f ms  %6.1f adds/ns  DRAM-bound-frac %.3f  index bytes/entry %.2f  max rel err %.1e\n", C, P, n, name, T, ms,
                (double)L.map.size() / ms / 1e6, minimal_bytes / 4.27e12 / (ms * 1e-3), extra_index_bytes / (double)L.map.size(), err);
  };
  // reference: one atomic-cell launch from zero, scaled by the 33 launches (3 warm-ups, 30 timed) of each timing
  CK(cudaMemset(y, 0, hx.size() * sizeof(double)));
  const int TC = 64;
  const unsigned gc = (unsigned)((L.n_cells + TC - 1) / TC);
  atomic_cell<NB><<<gc, TC>>>(L.n_cells, map, x, y);
  CK(cudaMemcpy(ref.data(), y, ref.size() * sizeof(double), cudaMemcpyDeviceToHost));
  for (double &r : ref) r *= 33.0;
  auto fresh = [&] { CK(cudaMemset(y, 0, hx.size() * sizeof(double))); };
  fresh();
  report("atomic-cell", TC, median_ms([&] { atomic_cell<NB><<<gc, TC>>>(L.n_cells, map, x, y); }), 4.0 * L.map.size());
  fresh();
  const long long n_pairs = (long long)L.map.size();
  report("atomic-pair", 128, median_ms([&] { atomic_pair<<<(unsigned)((n_pairs + 127) / 128), 128>>>(n_pairs, NB, map, x, y); }), 4.0 * L.map.size());
  for (int T : {32, 64, 128, 256}) {
    const size_t sh = sizeof(double) * T * NB;
    const unsigned gs = (unsigned)((L.n_cells + T - 1) / T);
    CK(cudaFuncSetAttribute(staged<NB, false>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sh));
    CK(cudaFuncSetAttribute(staged<NB, true>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sh));
    fresh();
    report("staged", T, median_ms([&] { staged<NB, false><<<gs, T, sh>>>(L.n_cells, map, x, y); }), 4.0 * L.map.size());
    fresh();
    report("staged-both", T, median_ms([&] { staged<NB, true><<<gs, T, sh>>>(L.n_cells, map, x, y); }), 4.0 * L.map.size());
  }
  // combining paid only at P2-P3 in this probe's first run: not repeated above P3
  for (int T : L.P <= 3 ? std::vector<int>{32, 64, 128, 256} : std::vector<int>{}) {
    const Groups g = make_groups(L, T);
    int *start = upload(g.start), *dofs = upload(g.dofs), *ptr = upload(g.ptr);
    uint16_t *idx = upload(g.idx), *slot = upload(g.slot);
    const unsigned groups = (unsigned)(g.start.size() - 1);
    const size_t sh = sizeof(double) * T * NB;
    CK(cudaFuncSetAttribute(combine_csr<NB>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sh));
    CK(cudaFuncSetAttribute(slots<NB, true>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)(2 * sh)));
    CK(cudaFuncSetAttribute(slots<NB, false>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)(2 * sh)));
    const double nu = (double)g.dofs.size();
    std::printf("P%d T=%d distinct DOFs per group entry %.3f\n", P, T, nu / (double)L.map.size());
    fresh();
    report("combine-csr", T, median_ms([&] { combine_csr<NB><<<groups, T, sh>>>(L.n_cells, map, start, dofs, ptr, idx, x, y); }),
           4.0 * L.map.size() + 2.0 * g.idx.size() + 8.0 * nu);
    if (2 * sh <= 227 * 1024) {
      fresh();
      report("slots-csr", T, median_ms([&] { slots<NB, true><<<groups, T, 2 * sh>>>(L.n_cells, slot, start, dofs, ptr, idx, x, y); }),
             2.0 * L.map.size() + 2.0 * g.idx.size() + 8.0 * nu);
      fresh();
      report("slots-atomic", T, median_ms([&] { slots<NB, false><<<groups, T, 2 * sh>>>(L.n_cells, slot, start, dofs, ptr, idx, x, y); }),
             2.0 * L.map.size() + 4.0 * nu);
    }
    CK(cudaFree(start));
    CK(cudaFree(dofs));
    CK(cudaFree(ptr));
    CK(cudaFree(idx));
    CK(cudaFree(slot));
  }
  CK(cudaFree(map));
  CK(cudaFree(x));
  CK(cudaFree(y));
}

int main(int argc, char **argv)
{
  const int P = argc > 1 ? std::atoi(argv[1]) : 4, n = argc > 2 ? std::atoi(argv[2]) : 1280, C = argc > 3 ? std::atoi(argv[3]) : 1;
  switch (C * (P + 1) * (P + 2) / 2) {
    case 3: run<3>(P, n, C); break;
    case 6: run<6>(P, n, C); break;
    case 10: run<10>(P, n, C); break;
    case 12: run<12>(P, n, C); break;
    case 15: run<15>(P, n, C); break;
    case 20: run<20>(P, n, C); break;
    case 21: run<21>(P, n, C); break;
    case 28: run<28>(P, n, C); break;
    case 30: run<30>(P, n, C); break;
    case 36: run<36>(P, n, C); break;
    case 45: run<45>(P, n, C); break;
    default: std::fprintf(stderr, "P 1..8 with 1 component, 1..4 with 2\n"); return 1;
  }
  return 0;
}
