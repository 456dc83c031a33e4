// femgpu_warp_add(array, index, value): array[index] += value for Scatter::Warp (CUDA).
// The active work-items of the warp that add to one entry (matched on its 32-bit index,
// not the 64-bit address, which cost more than the atomics it saved:
// bench/experiments/h200_warp_scatter_p1.txt) sum their values by shuffles; the lowest
// of them adds the sum. Every member computes the sum (a shuffle needs all of them), in
// lane order. Printed by kernel/emit.cpp into kernels that use it; `real` is the
// kernel's typedef.
__device__ __forceinline__ void femgpu_warp_add(real *array, const int index, const real value)
{
  const unsigned active = __activemask();
  const unsigned peers = __match_any_sync(active, index);
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  unsigned rest = peers & ~(1u << lane);
  real sum = value;
  while (__any_sync(active, rest != 0u)) {
    const real other = __shfl_sync(active, value, rest ? __ffs(rest) - 1 : (int)lane);
    if (rest) {
      sum += other;
      rest &= rest - 1u;
    }
  }
  if (__ffs(peers) - 1 == (int)lane) atomicAdd(&array[index], sum);
}
