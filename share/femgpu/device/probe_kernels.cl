// femgpu device probe kernels, OpenCL C 1.2: read at run time by src/probe/opencl_probe.cpp
// (the OpenCL twin of probe_kernels.cuh) and built by the OpenCL driver (PoCL on CPUs).
//
// Each kernel writes one double per work-item to g_out so that no load and no FMA is
// dead code. The read kernels sum what they load from data filled with ones, so a
// work-item's output is the number of doubles it read: the host turns that into bytes
// and checks it. The FMA kernel's output is checked against the same chains run on the
// host. Loads in the timed loops use addresses that change from one outer iteration to
// the next, so the compiler cannot hoist them out of the loop.
//
// The global read loads double8 (64 B, one CPU cache line, four 16-byte GPU sectors):
// PoCL runs a work-group's work-items one after another around the kernel body, so a
// work-item's grid-stride loop must fetch whole lines or the next work-item re-reads
// them; on a GPU a 64-byte load per work-item still coalesces.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define PROBE_ROW 32            // double2 per row; a work-item reads column get_local_id(0) % PROBE_ROW
#define PROBE_LOCAL_ROWS 32     // s_data: 32 rows of 32 double2 = 16 KiB per work-group
#define PROBE_LOCAL_LOADS 16    // rows read per outer iteration
#define PROBE_TABLE_ROWS 64     // g_table: 64 rows of 32 double2 = 32 KiB
#define PROBE_TABLE_LOADS 32
#define PROBE_FMA_CHAINS 8      // independent dependent chains per work-item
// ROWS - LOADS must be a power of two: the starting row is k masked by ROWS - LOADS - 1.

__kernel void femgpu_probe_fill(__global double8 *g_data, ulong n_double8, double value)
{
  for (ulong i = get_global_id(0); i < n_double8; i += get_global_size(0)) g_data[i] = (double8)(value);
}

// (a) Global memory read: grid-stride sum of 64-byte loads, two independent loads in
// flight per work-item (unrolled by hand: a bounds check between them would serialize).
__kernel void femgpu_probe_global_read(__global const double8 *restrict g_data, ulong n_double8, __global double *g_out)
{
  const ulong stride = get_global_size(0);
  ulong i = get_global_id(0);
  double8 r_sum_a = (double8)(0.0), r_sum_b = (double8)(0.0);
  for (; i + stride < n_double8; i += 2 * stride) {
    r_sum_a += g_data[i];
    r_sum_b += g_data[i + stride];
  }
  if (i < n_double8) r_sum_a += g_data[i];
  const double8 r_sum = r_sum_a + r_sum_b;
  const double4 r_half = r_sum.lo + r_sum.hi;
  g_out[get_global_id(0)] = (r_half.x + r_half.y) + (r_half.z + r_half.w);
}

// (b) Local memory read: PROBE_ROW consecutive work-items read one row of 32 double2
// (512 B, conflict-free on GPUs with 32 banks); the starting row rotates with k.
__kernel void femgpu_probe_local_read(__global double *g_out, double value, int repeats)
{
  __local double2 s_data[PROBE_LOCAL_ROWS * PROBE_ROW];
  for (int i = get_local_id(0); i < PROBE_LOCAL_ROWS * PROBE_ROW; i += get_local_size(0)) s_data[i] = (double2)(value);
  barrier(CLK_LOCAL_MEM_FENCE);
  const int lane = get_local_id(0) % PROBE_ROW;
  double2 r_sum0 = (double2)(0.0), r_sum1 = (double2)(0.0), r_sum2 = (double2)(0.0), r_sum3 = (double2)(0.0);
  for (int k = 0; k < repeats; ++k) {
    __local const double2 *s_row = s_data + lane + PROBE_ROW * (k & (PROBE_LOCAL_ROWS - PROBE_LOCAL_LOADS - 1));
#pragma unroll
    for (int j = 0; j < PROBE_LOCAL_LOADS; j += 4) {
      r_sum0 += s_row[PROBE_ROW * j];
      r_sum1 += s_row[PROBE_ROW * (j + 1)];
      r_sum2 += s_row[PROBE_ROW * (j + 2)];
      r_sum3 += s_row[PROBE_ROW * (j + 3)];
    }
  }
  const double2 r_total = (r_sum0 + r_sum1) + (r_sum2 + r_sum3);
  g_out[get_global_id(0)] = r_total.x + r_total.y;
}

// (c) Re-reads of a 32 KiB read-only global table (the analogue of CUDA's __ldg through
// the L1 / read-only cache): rows of 512 B, each row of work-items starting elsewhere.
__kernel void femgpu_probe_table_read(__global const double2 *restrict g_table, __global double *g_out, int repeats)
{
  const int lane = get_local_id(0) % PROBE_ROW;
  const int row_group = get_local_id(0) / PROBE_ROW;
  double2 r_sum0 = (double2)(0.0), r_sum1 = (double2)(0.0), r_sum2 = (double2)(0.0), r_sum3 = (double2)(0.0);
  for (int k = 0; k < repeats; ++k) {
    __global const double2 *g_row = g_table + lane + PROBE_ROW * ((k + row_group) & (PROBE_TABLE_ROWS - PROBE_TABLE_LOADS - 1));
#pragma unroll
    for (int j = 0; j < PROBE_TABLE_LOADS; j += 4) {
      r_sum0 += g_row[PROBE_ROW * j];
      r_sum1 += g_row[PROBE_ROW * (j + 1)];
      r_sum2 += g_row[PROBE_ROW * (j + 2)];
      r_sum3 += g_row[PROBE_ROW * (j + 3)];
    }
  }
  const double2 r_total = (r_sum0 + r_sum1) + (r_sum2 + r_sum3);
  g_out[get_global_id(0)] = r_total.x + r_total.y;
}

// (d) FP64 FMA: PROBE_FMA_CHAINS independent chains x <- fma(x, a, b) per work-item,
// chain c starting at c + 1; the output is the chains' sum in order.
__kernel void femgpu_probe_fma(__global double *g_out, double a, double b, int repeats)
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
  g_out[get_global_id(0)] = r_total;
}
