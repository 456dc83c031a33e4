#!/usr/bin/env bash
# A/B of prefetching the test DOFs in tensor-core kernels of an identity test table
# (build_mma.cpp, prefetch_test_dofs) on one GPU, and of one quadrature tile for the whole
# rule (tq = the points rounded up to 8): each case's table winner, three shapes of one
# tile and one of tq=16, forced and timed by the femgpu-bench built before the change
# (BENCH_BEFORE) and then by this one (BENCH), one run right after the other; the fastest
# kernel of each run verified on 1024 cells against the CPU reference. No SpMV baseline.
# Usage (device-tasks.sh task sh:records/experiments/test_dofs_prefetch_ab.sh:CASES):
#   test_dofs_prefetch_ab.sh OUT_DIR OP:DIM:DEG:TQ...   (TQ: the rule's points rounded up to 8)
set -u
source "$(dirname "$0")/forced_ab.sh"
forced_ab_start test_dofs_prefetch_ab "$@"
before=${BENCH_BEFORE:-.carry/bin/femgpu-bench-before}
after=${BENCH:-femgpu-bench}
for c in "${cases[@]}"; do
  IFS=: read -r op dim deg tq <<<"$c"
  more="mma nc=8 warps=4 tq=$tq fp64;mma nc=16 warps=4 tq=$tq fp64;mma nc=8 warps=8 tq=$tq fp64;mma nc=8 warps=4 tq=16 fp64"
  shapes=$(case_shapes "$op" "$dim" "$deg" "$more")
  before_after "$before" "$after" "$op" "$dim" "$deg" "$shapes"
done 2>&1 | tee "$out/$log_name.txt"
