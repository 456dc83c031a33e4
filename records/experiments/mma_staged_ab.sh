#!/usr/bin/env bash
# A/B of scatter=staged on the tensor-core kernels with a quadrature product: each case's
# table winner and the same schedule with Y staged in shared memory and added entry by
# entry (scatter=staged), forced and timed side by side by one femgpu-bench process; its
# fastest verified on 1024 cells against the CPU reference. No SpMV baseline.
# Usage (device-tasks.sh task sh:records/experiments/mma_staged_ab.sh:ARGS):
#   mma_staged_ab.sh OUT_DIR OP:DIM:DEG...
set -u
source "$(dirname "$0")/forced_ab.sh"
forced_ab_start mma_staged_ab "$@"
bench=${BENCH:-femgpu-bench}
for c in "${cases[@]}"; do
  IFS=: read -r op dim deg <<<"$c"
  winner=$(case_shapes "$op" "$dim" "$deg")
  # the word goes before groups_per_sm= (or the precision): schedule_words.cpp's order
  if [[ $winner == *groups_per_sm=* ]]; then staged=${winner/groups_per_sm=/scatter=staged groups_per_sm=}
  else staged="${winner% *} scatter=staged ${winner##* }"; fi
  echo "=== $op $dim $deg"
  forced_run "$bench" "$op" "$dim" "$deg" "$winner;$staged" -csv "$out/${op}_${dim}_${deg}.csv"
done 2>&1 | tee "$out/$log_name.txt"
