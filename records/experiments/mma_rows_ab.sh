#!/usr/bin/env bash
# A/B of the tensor-core codegen's operand reuse on one GPU: each case's table winner and
# the two most frequent mma shapes, forced (-schedule), timed by the old build and then by
# the new build under each variant of VARIANTS, one run right after the other, each run's
# fastest kernel verified on 1024 cells of the paper's mesh. No SpMV baseline.
# A variant is R,Q: FEMGPU_MMA_EVAL_ROWS=R (evaluation rows per task) and
# FEMGPU_MMA_QUAD_REUSE=Q (1: the quadrature loads each s_f fragment once per step).
# The new build is one with mma_operand_reuse.patch (its environment variables).
# Usage (device-tasks.sh task sh:records/experiments/mma_rows_ab.sh:CASES):
#   mma_rows_ab.sh OUT_DIR OP:DIM:DEG...
set -u
source "$(dirname "$0")/forced_ab.sh"
forced_ab_start mma_rows_ab "$@"
old=${OLD_BENCH:-.carry/bin/femgpu-bench-old}
new=${NEW_BENCH:-femgpu-bench}
variants=${VARIANTS:-"1,1 2,1 4,1 2,0"}
for c in "${cases[@]}"; do
  IFS=: read -r op dim deg <<<"$c"
  shapes=$(case_shapes "$op" "$dim" "$deg" "mma nc=16 warps=4 tq=8 fp64;mma nc=8 warps=4 tq=16 fp64")
  for which in old $variants; do
    bench=$new && [ "$which" = old ] && bench=$old
    IFS=, read -r rows reuse <<<"$which"
    echo "=== $which $op $dim $deg"
    FEMGPU_MMA_EVAL_ROWS=${rows:-1} FEMGPU_MMA_QUAD_REUSE=${reuse:-0} forced_run "$bench" "$op" "$dim" "$deg" "$shapes"
  done
done 2>&1 | tee "$out/$log_name.txt"
