#!/usr/bin/env bash
# A/B of an SCPWI codegen change on one GPU: each case's table winner (where it is an SCPWI
# kernel) and two more one-lane SCPWI shapes, forced (-schedule), timed by the femgpu-bench
# built before the change (BENCH_BEFORE, default .carry/bin/femgpu-bench-before) and then
# by this one (BENCH), one run right after the other; the fastest of each run verified on
# 1024 cells of the paper's mesh against the CPU reference. No SpMV baseline. The change
# measured with it is not in the tree: build BENCH with scpwi_chains.patch applied.
# Usage (device-tasks.sh task sh:records/experiments/scpwi_chains_ab.sh:CASES,
# commas between cases):  scpwi_chains_ab.sh OUT_DIR OP:DIM:DEG...
set -u
source "$(dirname "$0")/forced_ab.sh"
forced_ab_start scpwi_chains_ab "$@"
before=${BENCH_BEFORE:-.carry/bin/femgpu-bench-before}
after=${BENCH:-femgpu-bench}
for c in "${cases[@]}"; do
  IFS=: read -r op dim deg <<<"$c"
  shapes=""
  for s in "$(case_shapes "$op" "$dim" "$deg")" "scpwi wg=32 tables=constant-merged fp64" "scpwi wg=128 tables=constant-merged fp64"; do
    case "$s" in scpwi*) [[ ";$shapes" == *";$s;"* ]] || shapes+="$s;" ;; esac
  done
  before_after "$before" "$after" "$op" "$dim" "$deg" "${shapes%;}"
done 2>&1 | tee "$out/$log_name.txt"
