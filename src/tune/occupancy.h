// How many groups of one kernel an SM holds at once, by the CUDA occupancy rules, and
// the register bound (Schedule::groups_per_sm) that would let it hold one more.
//
// Takes: the SM's limits (from the driver's DeviceInfo by runtime/cuda_driver.h's
// sm_limits, or the defaults of sm_80 to sm_90) and a compiled kernel's threads per group,
// registers per thread and shared bytes per group.
// Does not: query the device or launch anything. Here in tune/ with the cost model, below both the tuner
// (register-bound twins) and the CUDA backend (MatView's occupancy line), which use it.
#pragma once

#include <string>

namespace femgpu {

struct SmLimits {
  int registers = 65536;        // per SM
  int sub_partitions = 4;       // each holds registers / sub_partitions; a warp lives in one
  int register_granule = 256;   // a warp's registers are allocated in blocks of this many
  int max_registers_per_thread = 255;
  long long shared_bytes = 233472;           // per SM, groups' dynamic + static shared memory
  long long shared_reserved_per_group = 1024;  // the driver's own shared memory per group
  int max_groups = 32;
  int max_threads = 2048;
};

// Groups per SM as each resource alone allows it; groups() is what the SM holds.
struct Residency {
  int by_registers = 0, by_shared = 0, by_threads = 0;
  int groups() const;
  bool register_limited() const;  // registers, and nothing else, hold it lowest
};

Residency residency(const SmLimits &sm, int threads, int registers, long long shared_bytes);

// The groups_per_sm of the twin that holds more groups per SM than this kernel (at least
// one more, and as many as the bound for one more leaves room for), when registers alone
// limit it and shared memory and threads allow one more; 0 otherwise. ptxas then keeps
// the twin at registers_for(sm, threads, K) per thread.
int register_bound_groups(const SmLimits &sm, int threads, int registers, long long shared_bytes);

// One line for MatView: the groups of `threads` one SM holds and what holds them, e.g.
// "2 groups of 256 threads per SM (16 of 64 warps); registers allow 2, shared memory 2,
// threads 8".
std::string describe_residency(const SmLimits &sm, int threads, int registers, long long shared_bytes);

// The smallest share of the SM's shared memory, in percent (as Module::prefer_shared_percent
// takes it), that still holds the groups residency() allows; the rest of the unified
// L1/shared memory stays L1, which holds the tables the groups read. 0 for a kernel
// without shared memory (no preference: the driver's choice).
int shared_percent_for(const SmLimits &sm, int threads, int registers, long long shared_bytes);

// The most registers per thread with which K groups of `threads` fit the register file
// (a multiple of 8, as ptxas bounds it).
int registers_for(const SmLimits &sm, int threads, int groups);

}  // namespace femgpu
