#!/usr/bin/env bash
# A/B of a tensor-core codegen change on one GPU: each case's table winner and the two
# most frequent mma shapes, forced (-schedule), timed by two builds of femgpu-bench one
# right after the other, each fastest kernel verified on 1024 cells of the paper's mesh.
# No SpMV baseline.
# Usage (device-tasks.sh task sh:records/experiments/mma_codegen_ab.sh:CASES):
#   mma_codegen_ab.sh OUT_DIR [old=BENCH] [new=BENCH] OP:DIM:DEG...
# old= and new= (or OLD_BENCH, NEW_BENCH) name the two builds; by default
# .carry/bin/femgpu-bench-old and the pack's femgpu-bench. WINNERS: the table whose
# winners are forced (default the one-commit table, h200_70_cases.json; the 2026-11-27
# A/Bs used h200_70_cases_be07f9b/h200_70_cases.json).
set -u
source "$(dirname "$0")/forced_ab.sh"
forced_ab_start mma_codegen_ab "$@"
old=${OLD_BENCH:-.carry/bin/femgpu-bench-old}
new=${NEW_BENCH:-femgpu-bench}
for c in "${cases[@]}"; do
  case "$c" in old=*) old=${c#old=}; continue ;; new=*) new=${c#new=}; continue ;; esac
  IFS=: read -r op dim deg <<<"$c"
  shapes=$(case_shapes "$op" "$dim" "$deg" "mma nc=16 warps=4 tq=8 fp64;mma nc=8 warps=4 tq=16 fp64")
  for which in old new; do
    bench=$new && [ "$which" = old ] && bench=$old
    echo "=== $which $op $dim $deg"
    forced_run "$bench" "$op" "$dim" "$deg" "$shapes"
  done
done 2>&1 | tee "$out/$log_name.txt"
