// CUDA's occupancy arithmetic for registers, shared memory and threads. The register
// file is split among the SM's sub-partitions (4 on sm_70 to sm_90, 16384 registers
// each); a warp's registers, allocated in granules, come from one of them, so what
// holds a kernel is how many warps fit one sub-partition. ptxas bounds a kernel the same
// way: __launch_bounds__(T, K) on the H200 gave 168 registers for K = 9 one-warp groups
// (3 warps per sub-partition), not the 224 that 65536 / 9 warps would allow
// (bench/experiments/h200_register_bounds.txt).
#include "tune/occupancy.h"

#include <algorithm>
#include <sstream>

namespace femgpu {

namespace {

int warps_of(int threads) { return (std::max(1, threads) + 31) / 32; }

long long round_up(long long value, long long granule) { return (value + granule - 1) / granule * granule; }

}  // namespace

int Residency::groups() const { return std::min({by_registers, by_shared, by_threads}); }

bool Residency::register_limited() const { return by_registers < std::min(by_shared, by_threads); }

Residency residency(const SmLimits &sm, int threads, int registers, long long shared_bytes)
{
  Residency r;
  const int warps = warps_of(threads);
  r.by_threads = std::min(sm.max_groups, sm.max_threads / (warps * 32));
  const long long per_warp = round_up(static_cast<long long>(std::max(1, registers)) * 32, sm.register_granule);
  const long long warps_per_partition = (sm.registers / sm.sub_partitions) / per_warp;
  r.by_registers = static_cast<int>(warps_per_partition * sm.sub_partitions / warps);
  r.by_shared = shared_bytes > 0 ? static_cast<int>(sm.shared_bytes / (shared_bytes + sm.shared_reserved_per_group)) : sm.max_groups;
  return r;
}

int shared_percent_for(const SmLimits &sm, int threads, int registers, long long shared_bytes)
{
  if (shared_bytes <= 0) return 0;
  const long long needed = residency(sm, threads, registers, shared_bytes).groups() * (shared_bytes + sm.shared_reserved_per_group);
  return static_cast<int>(std::clamp<long long>((100 * needed + sm.shared_bytes - 1) / sm.shared_bytes, 1, 100));
}

std::string describe_residency(const SmLimits &sm, int threads, int registers, long long shared_bytes)
{
  const Residency r = residency(sm, threads, registers, shared_bytes);
  const int warps = warps_of(threads);
  std::ostringstream os;
  os << r.groups() << (r.groups() == 1 ? " group" : " groups") << " of " << threads << " threads per SM (" << r.groups() * warps << " of "
     << sm.max_threads / 32 << " warps); registers allow " << r.by_registers << ", shared memory " << r.by_shared << ", threads "
     << r.by_threads;
  return os.str();
}

int registers_for(const SmLimits &sm, int threads, int groups)
{
  const long long warps = static_cast<long long>(warps_of(threads)) * std::max(1, groups);
  const long long per_partition = (warps + sm.sub_partitions - 1) / sm.sub_partitions;
  const long long per_warp = (sm.registers / sm.sub_partitions) / per_partition / sm.register_granule * sm.register_granule;
  return static_cast<int>(std::min<long long>(sm.max_registers_per_thread, per_warp / 32 / 8 * 8));
}

int register_bound_groups(const SmLimits &sm, int threads, int registers, long long shared_bytes)
{
  const Residency r = residency(sm, threads, registers, shared_bytes);
  if (!r.register_limited()) return 0;
  // The bound for one group more, named by the groups it actually holds: the cap is set
  // per sub-partition, so it may hold several more (one-warp groups at 146 registers: 12;
  // bounded for 13, ptxas gives 128 registers, which hold 16).
  const int cap = registers_for(sm, threads, r.by_registers + 1);
  const Residency bounded = residency(sm, threads, cap, shared_bytes);
  return std::max(r.by_registers + 1, std::min({bounded.by_registers, bounded.by_shared, bounded.by_threads}));
}

}  // namespace femgpu
