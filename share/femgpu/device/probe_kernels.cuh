// femgpu device probe kernels: read at run time by src/probe/device_probe.cpp and
// compiled with NVRTC (-default-device, so helpers need no __device__).
//
// Each kernel writes one double per thread to g_out so that no load and no FMA is dead
// code. The read kernels sum what they load from data filled with ones, so a thread's
// output is the number of doubles it read: the host turns that into bytes and checks it.
// The FMA kernel's output is checked against the same chains run on the host.
// Loads in the timed loops use addresses that change from one outer iteration to the
// next, so the compiler cannot hoist them out of the loop.

#define PROBE_SHARED_ROWS 32        // s_data: 32 rows of 32 double2 = 16 KiB per block
#define PROBE_SHARED_LOADS 16       // rows read per outer iteration
#define PROBE_LDG_ROWS 64           // g_table: 64 rows of 32 double2 = 32 KiB
#define PROBE_LDG_LOADS 32
#define PROBE_FMA_CHAINS 8          // independent dependent chains per thread
// ROWS - LOADS must be a power of two: the starting row is k masked by ROWS - LOADS - 1.

typedef unsigned long long u64;

extern "C" __global__ void femgpu_probe_fill(double2 *g_data, u64 n_double2, double value)
{
  const u64 stride = (u64)gridDim.x * blockDim.x;
  for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n_double2; i += stride)
    g_data[i] = make_double2(value, value);
}

// (a) DRAM read: grid-stride sum with 16-byte loads, four independent loads in flight
// per thread (unrolled by hand: a bounds check between loads would serialize them).
extern "C" __global__ void femgpu_probe_global_read(const double2 *__restrict__ g_data, u64 n_double2, double *g_out)
{
  const u64 stride = (u64)gridDim.x * blockDim.x;
  u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
  const u64 thread = i;
  double r_sum_x = 0, r_sum_y = 0;
  for (; i + 3 * stride < n_double2; i += 4 * stride) {
    const double2 r_a = g_data[i], r_b = g_data[i + stride], r_c = g_data[i + 2 * stride], r_d = g_data[i + 3 * stride];
    r_sum_x += (r_a.x + r_b.x) + (r_c.x + r_d.x);
    r_sum_y += (r_a.y + r_b.y) + (r_c.y + r_d.y);
  }
  for (; i < n_double2; i += stride) {
    const double2 r_v = g_data[i];
    r_sum_x += r_v.x;
    r_sum_y += r_v.y;
  }
  g_out[thread] = r_sum_x + r_sum_y;
}

// (b) Shared memory read: a warp reads 32 consecutive double2 (512 B, conflict-free:
// each quarter-warp phase covers all 32 banks once). The starting row rotates with k.
extern "C" __global__ void femgpu_probe_shared_read(double *g_out, double value, int repeats)
{
  __shared__ double2 s_data[PROBE_SHARED_ROWS * 32];
  for (int i = threadIdx.x; i < PROBE_SHARED_ROWS * 32; i += blockDim.x) s_data[i] = make_double2(value, value);
  __syncthreads();
  const int lane = threadIdx.x & 31;
  double2 r_sum[4] = {{0, 0}, {0, 0}, {0, 0}, {0, 0}};
  for (int k = 0; k < repeats; ++k) {
    const double2 *s_row = s_data + lane + 32 * (k & (PROBE_SHARED_ROWS - PROBE_SHARED_LOADS - 1));
#pragma unroll
    for (int j = 0; j < PROBE_SHARED_LOADS; ++j) {
      const double2 r_v = s_row[32 * j];
      r_sum[j & 3].x += r_v.x;
      r_sum[j & 3].y += r_v.y;
    }
  }
  double r_total = 0;
  for (int a = 0; a < 4; ++a) r_total += r_sum[a].x + r_sum[a].y;
  g_out[blockIdx.x * blockDim.x + threadIdx.x] = r_total;
}

// (c) L1 / read-only cache: __ldg re-reads of a 32 KiB table, 512 B per warp load.
extern "C" __global__ void femgpu_probe_ldg_read(const double2 *__restrict__ g_table, double *g_out, int repeats)
{
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  double2 r_sum[4] = {{0, 0}, {0, 0}, {0, 0}, {0, 0}};
  for (int k = 0; k < repeats; ++k) {
    const double2 *g_row = g_table + lane + 32 * ((k + warp) & (PROBE_LDG_ROWS - PROBE_LDG_LOADS - 1));
#pragma unroll
    for (int j = 0; j < PROBE_LDG_LOADS; ++j) {
      const double2 r_v = __ldg(g_row + 32 * j);
      r_sum[j & 3].x += r_v.x;
      r_sum[j & 3].y += r_v.y;
    }
  }
  double r_total = 0;
  for (int a = 0; a < 4; ++a) r_total += r_sum[a].x + r_sum[a].y;
  g_out[blockIdx.x * blockDim.x + threadIdx.x] = r_total;
}

// (d) FP64 FMA: PROBE_FMA_CHAINS independent chains x <- fma(x, a, b) per thread,
// chain c starting at c + 1; the output is the chains' sum in order.
extern "C" __global__ void femgpu_probe_fma(double *g_out, double a, double b, int repeats)
{
  double r_x[PROBE_FMA_CHAINS];
#pragma unroll
  for (int c = 0; c < PROBE_FMA_CHAINS; ++c) r_x[c] = c + 1;
  for (int k = 0; k < repeats; ++k) {
#pragma unroll
    for (int c = 0; c < PROBE_FMA_CHAINS; ++c) r_x[c] = fma(r_x[c], a, b);
  }
  double r_total = 0;
#pragma unroll
  for (int c = 0; c < PROBE_FMA_CHAINS; ++c) r_total += r_x[c];
  g_out[blockIdx.x * blockDim.x + threadIdx.x] = r_total;
}
