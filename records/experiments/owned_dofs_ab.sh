#!/usr/bin/env bash
# A/B of the plain add to a cell's own DOFs (build_common.cpp, add_to_dof; the atomic add
# kept for DOFs cells share) on one GPU: each case's table winner, forced and timed by the
# femgpu-bench built before the change (BENCH_BEFORE) and then by this one (BENCH), one
# run right after the other; the fastest kernel of each run verified on 1024 cells
# against the CPU reference. No SpMV baseline.
# Usage (device-tasks.sh task sh:records/experiments/owned_dofs_ab.sh:ARGS):
#   owned_dofs_ab.sh OUT_DIR OP:DIM:DEG...
set -u
source "$(dirname "$0")/forced_ab.sh"
forced_ab_start owned_dofs_ab "$@"
before=${BENCH_BEFORE:-.carry/bin/femgpu-bench-before}
after=${BENCH:-femgpu-bench}
for c in "${cases[@]}"; do
  IFS=: read -r op dim deg <<<"$c"
  before_after "$before" "$after" "$op" "$dim" "$deg" "$(case_shapes "$op" "$dim" "$deg")"
done 2>&1 | tee "$out/$log_name.txt"
