#!/usr/bin/env bash
# A/B of the test side as the identity (Tabulation::test_identity, fem/compressed_points.h)
# on one GPU: each case's table winner and four SCPWI schedules forced and timed by the
# femgpu-bench built before the change (BENCH_BEFORE) and then by this one (BENCH), one
# run right after the other, at the compressed points; the fastest kernel of each run
# verified on 1024 cells against the CPU reference at the rule's points. No SpMV baseline.
# Usage (device-tasks.sh task sh:records/experiments/test_identity_ab.sh:CASES):
#   test_identity_ab.sh OUT_DIR OP:DIM:DEG...
set -u
source "$(dirname "$0")/forced_ab.sh"
forced_ab_start test_identity_ab "$@"
before=${BENCH_BEFORE:-.carry/bin/femgpu-bench-before}
after=${BENCH:-femgpu-bench}
scpwi="scpwi wg=32 tables=constant-merged fp64;scpwi wg=64 tables=constant-merged fp64;scpwi wg=128 tables=constant-merged fp64;scpwi wg=128 fp64"
for c in "${cases[@]}"; do
  IFS=: read -r op dim deg <<<"$c"
  shapes=$(case_shapes "$op" "$dim" "$deg" "$scpwi")
  before_after "$before" "$after" "$op" "$dim" "$deg" "$shapes"
done 2>&1 | tee "$out/$log_name.txt"
