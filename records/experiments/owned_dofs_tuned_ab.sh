#!/usr/bin/env bash
# The own_dofs twin (OwnDofs::Plain, the tuning plan's third round) in a user's tuning:
# each case tuned with the default budget and an empty cache by the femgpu-bench built
# before the twin existed (BENCH_BEFORE) and then by this one (BENCH), one run right after
# the other on one GPU, each winner verified on 1024 cells. No SpMV baseline.
# Usage (device-tasks.sh task sh:records/experiments/owned_dofs_tuned_ab.sh:ARGS):
#   owned_dofs_tuned_ab.sh OUT_DIR OP:DIM:DEG...
set -u
source "$(dirname "$0")/forced_ab.sh"
forced_ab_start owned_dofs_tuned_ab "$@"
before=${BENCH_BEFORE:-.carry/bin/femgpu-bench-before}
after=${BENCH:-femgpu-bench}
for c in "${cases[@]}"; do
  IFS=: read -r op dim deg <<<"$c"
  tuned_before_after "$before" "$after" "$op" "$dim" "$deg"
done 2>&1 | tee "$out/$log_name.txt"
